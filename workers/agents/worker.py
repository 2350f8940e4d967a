"""`woodpecker worker`: topics, pipeline, the agents' faust Apps, one worker loop, a clean stop.

Usage::

    exit_code = run_worker(settings, agents=parse_agents("extraction,verification"),
                           bootstrap="127.0.0.1:9092", pipeline_factory=build_pipeline)

The process runs until SIGTERM or SIGINT, then commits, leaves its consumer groups and exits 0 (within
SHUTDOWN_GRACE_S, see shutdown.py). Every second it sets the consumer lag metric per partition it owns;
with `status_file` it also rewrites a JSON file: those partitions, their lag and its counters (for
readiness probes and the tests).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import faust
import orjson

from workers.agents import compat
from workers.agents.app import AgentApp, create_apps
from workers.agents.context import StreamPipeline
from workers.agents.shutdown import ShutdownWatchdog
from workers.agents.topics import ensure_topics
from workers.settings import Settings
from workers.telemetry import Metrics, set_consumer_lag, setup_telemetry

__all__ = ["SHUTDOWN_GRACE_S", "lag_of", "report_status", "run_worker", "status_of", "write_status"]

log = logging.getLogger(__name__)

# Within docker-compose's stop_grace_period (30 s), so a stuck stop still leaves the groups in time.
SHUTDOWN_GRACE_S = 15.0


def run_worker(
    settings: Settings,
    *,
    agents: frozenset[str],
    bootstrap: str,
    pipeline_factory: Callable[[Settings], StreamPipeline],
    app_id: str | None = None,
    web_port: int | None = None,
    status_file: Path | None = None,
    loglevel: str = "warning",
) -> int:
    """Create the topics, build the pipeline, run faust until SIGTERM/SIGINT; returns the exit code."""
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    _install_workarounds(settings, bootstrap=bootstrap)
    setup_telemetry(settings, service_name="woodpecker-" + "-".join(sorted(agents)))
    created = loop.run_until_complete(ensure_topics(settings.kafka, bootstrap=bootstrap))
    if created:
        log.info("created topics %s", ", ".join(created))
    pipeline = pipeline_factory(settings)
    # The models this worker's agents use load now, before it joins its groups: a first record never
    # waits seconds for them (and a restarted worker does not stall its partitions).
    warm = getattr(pipeline, "warm", None)
    if callable(warm):
        warm(agents=agents)
    with _scratch_dir() as data_dir:
        apps = create_apps(
            settings, agents=agents, pipeline=pipeline, bootstrap=bootstrap, app_id=app_id,
            web_port=web_port, data_dir=data_dir,
        )  # fmt: skip
        _status_timer(apps, path=status_file)
        watchdog = ShutdownWatchdog(
            [a.app for a in apps], kafka=settings.kafka, bootstrap=bootstrap, grace_s=SHUTDOWN_GRACE_S,
            cleanup=lambda: shutil.rmtree(data_dir, ignore_errors=True),
        )  # fmt: skip
        return _run(apps, loop=loop, loglevel=loglevel, watchdog=watchdog)


def _install_workarounds(settings: Settings, *, bootstrap: str) -> compat.CompatReport:
    """The faust/aiokafka workarounds for this broker; CompatError (exit 2) if a required one failed."""
    report = compat.install_for(settings.kafka, bootstrap=bootstrap)
    # faust configures logging only later: a failed optional workaround must still be seen.
    log.log(logging.WARNING if report.failed else logging.INFO, "%s", report.summary())
    return report


def _run(
    apps: list[AgentApp], *, loop: asyncio.AbstractEventLoop, loglevel: str, watchdog: ShutdownWatchdog
) -> int:
    first, *others = [a.app for a in apps]
    worker = _Worker(first, *others, loop=loop, loglevel=loglevel, quiet=True, redirect_stdouts=False)
    worker.watchdog = watchdog
    worker.spinner = None  # a terminal spinner only writes escape codes into log files
    try:
        worker.execute_from_commandline()
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 1
    return 0


class _Worker(faust.Worker):
    """faust's worker with a bounded shutdown (see shutdown.py)."""

    watchdog: ShutdownWatchdog | None = None

    def _schedule_shutdown(self, signal: Any) -> None:
        if self.watchdog is not None:
            self.watchdog.arm()
        super()._schedule_shutdown(signal)


def _status_timer(apps: Sequence[AgentApp], *, path: Path | None) -> None:
    """Every second: the lag metric, and the status file when asked for one."""

    async def status_report() -> None:
        report_status(apps, path=path)

    status_report.__qualname__ = "status_report"
    apps[0].app.timer(interval=1.0, name="woodpecker.status")(status_report)


def report_status(apps: Sequence[AgentApp], *, path: Path | None) -> dict[str, Any] | None:
    """This process's status (setting the lag metric on the way), written to `path` when given.

    Returns None when the status could not be read: a report must never take the worker down, and an
    exception in a faust timer crashes the App (it did, when a rebalance revoked a partition mid-report).
    """
    try:
        status = status_of(apps)
    except Exception:
        log.warning("status report failed", exc_info=True)
        return None
    if path is not None:
        write_status(path, status)
    return status


def status_of(apps: Sequence[AgentApp]) -> dict[str, Any]:
    """Assignment, lag (also reported as a metric) and counters of this process."""
    assigned: dict[str, list[int]] = {}
    lag: dict[str, int] = {}
    for agent_app in apps:
        for tp in agent_app.app.consumer.assignment():
            assigned.setdefault(tp.topic, []).append(tp.partition)
        lag.update(lag_of(agent_app))
    first = apps[0].ctx
    return {
        "worker": first.worker,
        "agents": [a.agent for a in apps],
        "groups": [a.app.conf.id for a in apps],
        "sources": [a.source for a in apps],
        "assigned": {topic: sorted(parts) for topic, parts in assigned.items()},
        "lag": lag,
        "counts": dict(first.counts),
    }


def lag_of(agent_app: AgentApp, *, metrics: Metrics | None = None) -> dict[str, int]:
    """Records not yet processed per source partition: high-water mark minus this process's last commit.

    Kafka's own definition (what `kafka-consumer-groups` shows), so it reaches 0 only once every record
    is processed and committed. A partition is left out until this process has committed on it, and
    while a rebalance moves it away; nothing here waits on the broker.
    """
    app = agent_app.app
    consumer, monitor = app.consumer, app.monitor
    lag: dict[str, int] = {}
    for tp in consumer.assignment():
        if tp.topic != agent_app.source:
            continue
        committed = monitor.tp_committed_offsets.get(tp)
        end = _highwater(consumer, tp, default=monitor.tp_end_offsets.get(tp))
        if committed is None or end is None:
            continue
        behind = max(0, int(end) - int(committed))
        lag[f"{tp.topic}:{tp.partition}"] = behind
        set_consumer_lag(
            group=app.conf.id, topic=tp.topic, partition=tp.partition, lag=behind, metrics=metrics
        )
    return lag


def _highwater(consumer: Any, tp: Any, *, default: int | None) -> int | None:
    """The live high-water mark, or `default` before the first fetch or once the partition moved away."""
    try:
        value = consumer.highwater(tp)
    except Exception:  # aiokafka asserts the partition is still assigned; a rebalance may just have run
        return default
    return int(value) if value is not None else default


def write_status(path: Path, status: dict[str, Any]) -> None:
    """Atomically, so a reader never sees half a file."""
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(orjson.dumps(status, option=orjson.OPT_SORT_KEYS))
    tmp.replace(path)


@contextlib.contextmanager
def _scratch_dir() -> Iterator[Path]:
    # faust wants a data dir even for the memory store; keep it out of the working tree.
    path = Path(tempfile.mkdtemp(prefix=f"woodpecker-worker-{os.getpid()}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)

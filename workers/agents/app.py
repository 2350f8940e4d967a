"""The faust App: topics, the three agents (any subset), the gather tables and the worker loop.

Usage::

    app = create_app(settings, agents={"verification"}, pipeline=pipeline, bootstrap="127.0.0.1:9092")
    exit_code = run_worker(settings, agents=parse_agents("extraction,verification"), bootstrap=bootstrap)

Every process of one deployment joins the same consumer group (`kafka.app_id`), whatever agents it
runs; faust's assignor hands each topic's partitions only to the members subscribed to it, so three
verification processes split the claims topic while one extraction process reads all of `answers`.
The agents here are shells: they decode the faust event and call the handlers in extraction.py,
verification.py and correction.py, which hold the logic and are unit-tested without Kafka.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import faust
import orjson

from workers.agents.context import AgentContext, StreamPipeline
from workers.agents.correction import GatherState, TickThrottle, handle_verdict, send_tick
from workers.agents.deadletter import send_dead_letter
from workers.agents.extraction import handle_answer
from workers.agents.pacing import pace_empty_fetches
from workers.agents.topics import Topics, ensure_topics
from workers.agents.verification import handle_claim
from workers.errors import ConfigError
from workers.settings import KafkaSettings, Settings
from workers.telemetry import consume_span, set_consumer_lag, setup_telemetry

__all__ = ["AGENTS", "FaustSink", "create_app", "parse_agents", "run_worker"]

log = logging.getLogger(__name__)

AGENTS = ("extraction", "verification", "correction")
# Within docker-compose's stop_grace_period (30 s) and a session timeout, so the group moves on quickly.
SHUTDOWN_GRACE_S = 15.0
Handler = Callable[[AgentContext, bytes, Mapping[str, bytes], int], Awaitable[None]]


def parse_agents(spec: str | None) -> frozenset[str]:
    """`"extraction,verification"` -> that set; empty or None means all three."""
    names = frozenset(n.strip() for n in (spec or "").split(",") if n.strip()) or frozenset(AGENTS)
    unknown = names - set(AGENTS)
    if unknown:
        raise ConfigError(f"unknown agent(s) {', '.join(sorted(unknown))}; choose from {', '.join(AGENTS)}")
    return names


class FaustSink:
    """Sends raw records through the app's producer (flushed before each offset commit)."""

    def __init__(self, app: faust.App, names: Iterable[str], *, partitions: int) -> None:
        self._topics = {n: _raw_topic(app, n, partitions=partitions) for n in names}

    def topic(self, name: str) -> Any:
        return self._topics[name]

    async def send(self, topic: str, *, key: str | None, value: bytes, headers: Mapping[str, bytes]) -> None:
        encoded = key.encode() if key is not None else None
        await self._topics[topic].send(key=encoded, value=value, headers=list(headers.items()))


def _raw_topic(app: faust.App, name: str, *, partitions: int) -> Any:
    return app.topic(
        name, partitions=partitions, key_serializer="raw", value_serializer="raw", allow_empty=True
    )


def create_app(
    settings: Settings,
    *,
    agents: frozenset[str],
    pipeline: StreamPipeline,
    bootstrap: str,
    app_id: str | None = None,
    web_port: int | None = None,
    data_dir: Path | None = None,
    status_file: Path | None = None,
) -> faust.App:
    kafka = settings.kafka
    app = faust.App(
        app_id or kafka.app_id,
        **_app_options(kafka, bootstrap=bootstrap, web_port=web_port, data_dir=data_dir),
    )
    topics = Topics.from_settings(kafka)
    sink = FaustSink(app, topics.all(), partitions=kafka.partitions)
    executor = ThreadPoolExecutor(max_workers=len(AGENTS), thread_name_prefix="woodpecker-pipeline")
    ctx = AgentContext.build(settings, pipeline=pipeline, sink=sink, executor=executor)
    if "extraction" in agents:
        _agent(app, ctx, sink.topic(topics.answers), "extraction", _extraction)
    if "verification" in agents:
        _agent(app, ctx, sink.topic(topics.claims), "verification", _verification)
    if "correction" in agents:
        _correction(app, ctx, sink.topic(topics.verdicts))
    if status_file is not None:
        _status_timer(app, ctx, agents=agents, path=status_file)
    return app


def _app_options(
    kafka: KafkaSettings, *, bootstrap: str, web_port: int | None, data_dir: Path | None
) -> dict[str, Any]:
    options: dict[str, Any] = {
        "broker": [f"kafka://{host.strip()}" for host in bootstrap.split(",") if host.strip()],
        "autodiscover": False,
        "store": kafka.table_store,
        "topic_partitions": kafka.partitions,
        "topic_replication_factor": kafka.replication_factor,
        "broker_session_timeout": kafka.session_timeout_s,
        "broker_heartbeat_interval": kafka.heartbeat_s,
        "broker_commit_interval": kafka.commit_interval_s,
        "consumer_auto_offset_reset": "earliest",
        "producer_acks": -1,
        "producer_max_request_size": kafka.max_record_bytes + 65_536,
        "table_standby_replicas": kafka.standby_replicas,
        # A rebalance waits until buffered records are processed; a pipeline step takes ~0.1 s, so keep
        # the buffer short (faust's default of 4096 could stall a rebalance for minutes).
        "stream_buffer_maxsize": 32,
        "broker_max_poll_records": 32,
        "web_enabled": web_port is not None,
    }
    if web_port is not None:
        options.update(web_port=web_port, web_bind="127.0.0.1", web_host="127.0.0.1")
    if data_dir is not None:
        options["datadir"] = str(data_dir)
    credentials = _credentials(kafka)
    if credentials is not None:
        options["broker_credentials"] = credentials
    return options


def _credentials(kafka: KafkaSettings) -> Any:
    if not kafka.security_protocol.startswith("SASL"):
        return faust.SSLCredentials() if kafka.security_protocol == "SSL" else None
    password = kafka.sasl_password.get_secret_value() if kafka.sasl_password else None
    return faust.SASLCredentials(
        username=kafka.sasl_username,
        password=password,
        mechanism=kafka.sasl_mechanism or "PLAIN",
        ssl_context=faust.SSLCredentials().context if kafka.security_protocol == "SASL_SSL" else None,
    )


def _agent(app: faust.App, ctx: AgentContext, topic: Any, name: str, handler: Handler) -> None:
    async def agent(stream: Any) -> None:
        async for event in stream.events():
            await _guarded(ctx, name, event, handler)

    agent.__name__ = agent.__qualname__ = f"{name}_agent"
    app.agent(topic, name=f"woodpecker.{name}")(agent)


async def _guarded(ctx: AgentContext, name: str, event: Any, handler: Handler) -> None:
    """The last line: a handler bug dead-letters the record instead of crashing into a silent ack."""
    raw = bytes(event.value or b"")
    raw_headers = event.message.headers or ()
    pairs = raw_headers.items() if isinstance(raw_headers, Mapping) else raw_headers
    headers = {str(k): bytes(v or b"") for k, v in pairs}
    timestamp = event.message.timestamp
    ingest_ms = int(timestamp * 1000) if timestamp else ctx.now_ms()
    try:
        with consume_span(name, headers, topic=event.message.topic):
            await handler(ctx, raw, headers, ingest_ms)
    except Exception as exc:
        log.exception("%s agent failed on a record", name)
        await send_dead_letter(ctx, raw, exc=exc, stage=name, headers=headers)


async def _extraction(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], ingest_ms: int) -> None:
    await handle_answer(ctx, raw, headers=headers, ingest_ms=ingest_ms)


async def _verification(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], ingest_ms: int) -> None:
    await handle_claim(ctx, raw, headers=headers)


def _correction(app: faust.App, ctx: AgentContext, topic: Any) -> None:
    partitions = ctx.settings.kafka.partitions
    state = GatherState(
        statuses=app.Table("gather-status", default=None, partitions=partitions, key_type=str),
        data=app.Table("gather-data", default=None, partitions=partitions, key_type=str),
    )

    async def gather(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], ingest_ms: int) -> None:
        await handle_verdict(ctx, state, raw, headers=headers)

    _agent(app, ctx, topic, "correction", gather)
    deadline_s = ctx.settings.kafka.gather_deadline_s
    throttle = TickThrottle(every_s=max(1.0, deadline_s / 4))

    async def deadline_timer() -> None:
        now = ctx.clock()
        for answer_id in list(state.due(now_ms=int(now * 1000), deadline_s=deadline_s)):
            if throttle.should_send(answer_id, now=now):
                await send_tick(ctx, answer_id)

    deadline_timer.__qualname__ = "deadline_timer"
    app.timer(interval=max(0.2, min(1.0, deadline_s / 5)), name="woodpecker.gather_deadline")(deadline_timer)


def _status_timer(app: faust.App, ctx: AgentContext, *, agents: frozenset[str], path: Path) -> None:
    """A JSON file with the assignment and counters, rewritten every second (readiness probes, tests)."""
    by_agent = {
        "extraction": ctx.topics.answers,
        "verification": ctx.topics.claims,
        "correction": ctx.topics.verdicts,
    }
    sources = [by_agent[a] for a in sorted(agents)]

    async def write_status() -> None:
        assigned: dict[str, list[int]] = {}
        for tp in app.consumer.assignment():
            assigned.setdefault(tp.topic, []).append(tp.partition)
        lag = await _report_lag(app, sources)
        status = {
            "worker": ctx.worker,
            "agents": sorted(agents),
            "sources": sources,
            "assigned": assigned,
            "lag": lag,
            "counts": dict(ctx.counts),
        }
        tmp = path.with_suffix(".tmp")
        tmp.write_bytes(orjson.dumps(status, option=orjson.OPT_SORT_KEYS))
        tmp.replace(path)

    write_status.__qualname__ = "write_status"
    app.timer(interval=1.0, name="woodpecker.status_file")(write_status)


async def _report_lag(app: faust.App, sources: list[str]) -> dict[str, int]:
    """Records not yet read, per source partition (high-water mark minus position), also as a metric."""
    lag: dict[str, int] = {}
    for tp in app.consumer.assignment():
        if tp.topic not in sources:
            continue
        position = await app.consumer.position(tp)
        if position is None:
            continue
        behind = max(0, app.consumer.highwater(tp) - position)
        lag[f"{tp.topic}:{tp.partition}"] = behind
        set_consumer_lag(group=app.conf.id, topic=tp.topic, partition=tp.partition, lag=behind)
    return lag


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
    setup_telemetry(settings, service_name="woodpecker-" + "-".join(sorted(agents)))
    pace_empty_fetches(settings.kafka.empty_fetch_pause_s)
    created = loop.run_until_complete(ensure_topics(settings.kafka, bootstrap=bootstrap))
    if created:
        log.info("created topics %s", ", ".join(created))
    pipeline = pipeline_factory(settings)
    with _scratch_dir() as data_dir:
        app = create_app(
            settings, agents=agents, pipeline=pipeline, bootstrap=bootstrap, app_id=app_id,
            web_port=web_port, data_dir=data_dir, status_file=status_file,
        )  # fmt: skip
        worker = _Worker(app, loop=loop, loglevel=loglevel, quiet=True, redirect_stdouts=False)
        worker.spinner = None  # a terminal spinner only writes escape codes into log files
        try:
            worker.execute_from_commandline()
        except SystemExit as exc:
            return exc.code if isinstance(exc.code, int) else 1
    return 0


class _Worker(faust.Worker):
    """faust's worker with a bounded shutdown.

    A SIGTERM that lands while the consumer group rebalances can deadlock faust's stop (the consumer
    thread waits for an assignment callback on the loop that is stopping). Past the grace period
    the process exits anyway: offsets not yet committed are simply read again by the next owner,
    which at-least-once delivery and the idempotent agents already allow for.
    """

    def _schedule_shutdown(self, signal: Any) -> None:
        if not self._signal_stop_time:
            watchdog = threading.Timer(SHUTDOWN_GRACE_S, _force_exit)
            watchdog.daemon = True
            watchdog.start()
        super()._schedule_shutdown(signal)


def _force_exit() -> None:
    log.warning(
        "shutdown took over %.0f s; exiting now, uncommitted records will be read again", SHUTDOWN_GRACE_S
    )
    logging.shutdown()
    os._exit(0)


@contextlib.contextmanager
def _scratch_dir() -> Iterator[Path]:
    # faust wants a data dir even for the memory store; keep it out of the working tree.
    path = Path(tempfile.mkdtemp(prefix=f"woodpecker-worker-{os.getpid()}-"))
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)

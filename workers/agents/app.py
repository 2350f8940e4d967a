"""The faust Apps: one per agent, each its own consumer group, around the handlers.

Usage::

    apps = create_apps(settings, agents={"verification"}, pipeline=pipeline, bootstrap="127.0.0.1:9092")
    [verification] = apps                     # AgentApp(agent, app, ctx, source topic)

Each agent kind is its own consumer group, `<kafka.app_id>-<agent>`, however the agents are spread over
processes: three processes with `--agents verification` split the claims topic, and a process running
all three agents is a member of all three groups. Restarting correction workers therefore never pauses
extraction or verification for a rebalance. The agents here are shells: they decode the faust event
and call the handlers in extraction.py, verification.py and correction.py, which hold the logic and
are unit-tested without Kafka.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import faust

from workers.agents.context import AgentContext, StreamPipeline, worker_name
from workers.agents.correction import GatherState, TickThrottle, handle_verdict, send_tick
from workers.agents.deadletter import send_dead_letter
from workers.agents.extraction import handle_answer
from workers.agents.shutdown import client_id
from workers.agents.topics import Topics
from workers.agents.verification import handle_claim
from workers.errors import ConfigError
from workers.settings import KafkaSettings, Settings
from workers.telemetry import consume_span

__all__ = ["AGENTS", "AgentApp", "FaustSink", "create_apps", "parse_agents"]

log = logging.getLogger(__name__)

AGENTS = ("extraction", "verification", "correction")
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


@dataclass(frozen=True)
class AgentApp:
    agent: str
    app: faust.App
    ctx: AgentContext
    source: str


def create_apps(
    settings: Settings,
    *,
    agents: frozenset[str],
    pipeline: StreamPipeline,
    bootstrap: str,
    app_id: str | None = None,
    web_port: int | None = None,
    data_dir: Path | None = None,
) -> list[AgentApp]:
    """One faust App per agent, in AGENTS order, sharing the pipeline, its executor and the counters."""
    executor = ThreadPoolExecutor(max_workers=len(AGENTS), thread_name_prefix="woodpecker-pipeline")
    counts: Counter[str] = Counter()
    apps: list[AgentApp] = []
    for agent in (a for a in AGENTS if a in agents):
        port = web_port if not apps else None
        where = data_dir / agent if data_dir is not None else None
        group = f"{app_id or settings.kafka.app_id}-{agent}"
        options = _app_options(settings.kafka, bootstrap=bootstrap, web_port=port, data_dir=where)
        # A client id per process, so a dead process's group members can be found (shutdown.py).
        app = faust.App(group, broker_client_id=client_id(group, worker=worker_name()), **options)
        topics = Topics.from_settings(settings.kafka)
        sink = FaustSink(app, topics.all(), partitions=settings.kafka.partitions)
        ctx = AgentContext.build(settings, pipeline=pipeline, sink=sink, executor=executor, counts=counts)
        source = _SOURCES[agent](topics)
        _REGISTER[agent](app, ctx, sink.topic(source))
        apps.append(AgentApp(agent, app, ctx, source))
    return apps


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


def _agent(
    app: faust.App, ctx: AgentContext, topic: Any, name: str, handler: Handler, *, concurrency: int = 1
) -> None:
    async def agent(stream: Any) -> None:
        async for event in stream.events():
            await _guarded(ctx, name, event, handler)

    agent.__name__ = agent.__qualname__ = f"{name}_agent"
    app.agent(topic, name=f"woodpecker.{name}", concurrency=concurrency)(agent)


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


def _register_extraction(app: faust.App, ctx: AgentContext, topic: Any) -> None:
    _agent(app, ctx, topic, "extraction", _extraction)


def _register_verification(app: faust.App, ctx: AgentContext, topic: Any) -> None:
    concurrency = ctx.settings.kafka.verification_concurrency
    _agent(app, ctx, topic, "verification", _verification, concurrency=concurrency)


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


_SOURCES: dict[str, Callable[[Topics], str]] = {
    "extraction": lambda t: t.answers,
    "verification": lambda t: t.claims,
    "correction": lambda t: t.verdicts,
}
_REGISTER: dict[str, Callable[[faust.App, AgentContext, Any], None]] = {
    "extraction": _register_extraction,
    "verification": _register_verification,
    "correction": _correction,
}

"""What every agent handler is given, and the one way outputs leave an agent.

Usage::

    ctx = AgentContext.build(settings, pipeline=pipeline, sink=sink)
    await emit_corrected(ctx, corrected, shadow=False, ingest_ms=1733130000000)

Handlers take an `AgentContext` instead of faust objects, so the unit tests drive them with an
in-memory sink and a fake pipeline, and faust stays a thin shell around them (see `app.py`).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import logging
import os
import socket
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from workers.agents.coalesce import VerifyQueue
from workers.agents.deadletter import RecordTooLarge, RetryPolicy
from workers.agents.sampler import Sampler
from workers.agents.topics import Topics
from workers.decisions import log_decisions
from workers.messages import Answer, Checked, ClaimTask, Corrected, Plan, ReviewRequest
from workers.settings import Settings
from workers.telemetry import inject_headers, record_result

__all__ = [
    "H_INGEST_MS",
    "H_SCHEMA",
    "AgentContext",
    "RecordTooLarge",
    "Sink",
    "StreamPipeline",
    "emit_corrected",
    "ingest_header",
    "send_json",
    "worker_name",
]

T = TypeVar("T")
log = logging.getLogger(__name__)

# Kafka header names on every record the agents write.
H_SCHEMA = "woodpecker-schema"
# When the answer entered the stream (ms since the epoch); end-to-end latency = output time - this.
H_INGEST_MS = "woodpecker-ingest-ms"


class StreamPipeline(Protocol):
    """The phase contract of `workers.pipeline.Pipeline` that the agents call on different replicas."""

    def prepare(self, answer: Answer) -> Plan: ...

    def verify(self, tasks: Sequence[ClaimTask], *, llm_s: float = 0.0) -> Checked: ...

    def verify_each(self, groups: Sequence[tuple[Sequence[ClaimTask], float]]) -> list[Checked]: ...

    def finish(self, plan: Plan, checked: Sequence[Checked] = ()) -> Corrected: ...

    def by_reference(self, plan: Plan) -> Plan: ...

    def unanswered(self, tasks: Sequence[ClaimTask], *, reason: str, fallback: str | None) -> Checked: ...


class Sink(Protocol):
    """Where records go: faust topics in a worker, a list in the tests."""

    async def send(
        self, topic: str, *, key: str | None, value: bytes, headers: Mapping[str, bytes]
    ) -> None: ...


def worker_name(pid: int | None = None) -> str:
    """`host:pid` of this process (or of process `pid` on this host)."""
    return f"{socket.gethostname()}:{pid if pid is not None else os.getpid()}"


@dataclass(frozen=True)
class AgentContext:
    settings: Settings
    topics: Topics
    pipeline: StreamPipeline
    sink: Sink
    sampler: Sampler
    retry: RetryPolicy
    worker: str = field(default_factory=worker_name)
    clock: Callable[[], float] = time.time
    # Pipeline calls run here, off the event loop, so consumer heartbeats and commits keep flowing.
    executor: Executor | None = None
    counts: Counter[str] = field(default_factory=Counter)
    # Claim records waiting for a verify call, to share the next one (`coalesce.py`).
    verify_queue: VerifyQueue = field(default_factory=VerifyQueue)

    @classmethod
    def build(
        cls, settings: Settings, *, pipeline: StreamPipeline, sink: Sink, **options: object
    ) -> AgentContext:
        return cls(
            settings=settings,
            topics=Topics.from_settings(settings.kafka),
            pipeline=pipeline,
            sink=sink,
            sampler=Sampler.from_settings(settings.sampler),
            retry=RetryPolicy.from_settings(settings.kafka),
            **options,  # type: ignore[arg-type]
        )

    async def blocking(self, fn: Callable[..., T], *args: object, **kwargs: object) -> T:
        """Run a pipeline phase in the executor, in a copy of this context (the stage spans need the span)."""
        loop = asyncio.get_running_loop()
        call = functools.partial(contextvars.copy_context().run, fn, *args, **kwargs)
        return await loop.run_in_executor(self.executor, call)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)


def ingest_header(ingest_ms: int) -> dict[str, bytes]:
    return {H_INGEST_MS: str(ingest_ms).encode()}


async def send_json(
    ctx: AgentContext, topic: str, *, key: str | None, value: bytes, schema: str, headers: Mapping[str, bytes]
) -> None:
    """Send one record, refusing one the broker could not take (so it is handled, not crashed on)."""
    limit = ctx.settings.kafka.max_record_bytes
    if len(value) > limit:
        raise RecordTooLarge(f"{schema} record for {key!r} is {len(value)} bytes, over {limit}")
    # The W3C trace context of the current agent span travels on, so one answer is one trace.
    traced = dict(inject_headers(headers=[*headers.items(), (H_SCHEMA, schema.encode())]))
    await ctx.sink.send(topic, key=key, value=value, headers=traced)


async def emit_corrected(
    ctx: AgentContext, corrected: Corrected, *, shadow: bool, ingest_ms: int, answer: Answer | None = None
) -> None:
    """One record per answer id: on the review topic when it needs review, else the output (or shadow) topic.

    On the review topic the record is a review.v1 envelope with the input's query, domain, stakes and
    documents (`answer`), so the review console can show evidence inside its document; the documents are
    left out when they would make the record too large. An answer held for review reaches the output
    topic when a reviewer approves or rejects it.
    """
    topic = _destination(ctx.topics, corrected, shadow=shadow)
    value, schema = corrected.to_json(), str(corrected.schema_version)
    if topic == ctx.topics.review:
        value, schema = _review_value(ctx, corrected, answer), "review.v1"
    await send_json(
        ctx, topic, key=corrected.id, value=value, schema=schema, headers=ingest_header(ingest_ms)
    )
    ctx.counts["shadow" if shadow else corrected.route.value] += 1
    ctx.counts["held_for_review"] += topic == ctx.topics.review
    if not shadow:
        record_result(corrected)
    _log_decisions(ctx, corrected)


def _review_value(ctx: AgentContext, corrected: Corrected, answer: Answer | None) -> bytes:
    value = ReviewRequest.for_answer(corrected, answer).to_json()
    if len(value) > ctx.settings.kafka.max_record_bytes and answer is not None:
        # Without the documents the reviewer still sees each evidence window's text in the claims.
        value = ReviewRequest.for_answer(corrected, answer.model_copy(update={"documents": ()})).to_json()
    return value


def _log_decisions(ctx: AgentContext, corrected: Corrected) -> None:
    # The answer is already out: a logging failure must not send it again through the error path.
    try:
        log_decisions(corrected, settings=ctx.settings)
    except Exception:
        log.exception("decision log failed for %s", corrected.id)


def _destination(topics: Topics, corrected: Corrected, *, shadow: bool) -> str:
    if shadow:
        return topics.shadow
    return topics.review if corrected.needs_review else topics.corrected

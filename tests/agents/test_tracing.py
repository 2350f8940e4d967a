"""One answer is one trace across the three agents (workers/agents/app.py, context.py, deadletter.py).

The agents' faust shell (`_guarded`) is driven in-process with stand-in events carrying the headers
the previous agent wrote, as a broker would deliver them; spans go to an in-memory exporter.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tests.agents.helpers import ListSink, Sent, answer_bytes, make_ctx
from workers.agents.app import _guarded
from workers.agents.context import AgentContext
from workers.agents.correction import GatherState, handle_verdict, send_tick
from workers.agents.extraction import handle_answer
from workers.agents.verification import handle_claim
from workers.decisions import FIELDS_ATTR, LOGGER_NAME
from workers.settings import Settings
from workers.telemetry import setup_telemetry


@dataclass(frozen=True)
class _Message:
    headers: list[tuple[str, bytes]]
    topic: str
    timestamp: float = 1733130000.0


@dataclass(frozen=True)
class _Event:
    """The parts of a faust event that the agents read."""

    value: bytes
    message: _Message


def _event(record: Sent) -> _Event:
    return _Event(record.value, _Message(list(record.headers.items()), record.topic))


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.fields: list[dict[str, Any]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.fields.append(getattr(record, FIELDS_ATTR))


@pytest.fixture(scope="module")
def exporter() -> InMemorySpanExporter:
    spans = InMemorySpanExporter()
    setup_telemetry(Settings(), service_name="woodpecker-agents-test", span_exporter=spans)
    return spans


@pytest.fixture
def spans(exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    exporter.clear()
    yield exporter
    exporter.clear()


@pytest.fixture
def decision_lines() -> Iterator[_Lines]:
    handler, logger = _Lines(), logging.getLogger(LOGGER_NAME)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


async def _through_the_agents(ctx: AgentContext, sink: ListSink, raw: bytes) -> None:
    state = GatherState(statuses={}, data={})

    async def correction(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], _ms: int) -> None:
        await handle_verdict(ctx, state, raw, headers=headers)

    async def extraction(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], ms: int) -> None:
        await handle_answer(ctx, raw, headers=headers, ingest_ms=ms)

    async def verification(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], _ms: int) -> None:
        await handle_claim(ctx, raw, headers=headers)

    await _guarded(ctx, "extraction", _Event(raw, _Message([], ctx.topics.answers)), extraction)
    for claim in sink.take(ctx.topics.claims):
        await _guarded(ctx, "verification", _event(claim), verification)
    for verdict in sink.take(ctx.topics.verdicts):
        await _guarded(ctx, "correction", _event(verdict), correction)


def _trace_ids(finished: tuple[ReadableSpan, ...]) -> set[int]:
    return {s.context.trace_id for s in finished if s.context is not None}


async def test_one_answer_through_the_three_agents_is_one_trace(
    spans: InMemorySpanExporter, decision_lines: _Lines
) -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    await _through_the_agents(ctx, sink, answer_bytes("t1"))
    [out] = sink.on(ctx.topics.corrected)
    finished = spans.get_finished_spans()
    agents = {f"woodpecker.agent.{a}" for a in ("extraction", "verification", "correction")}
    assert agents <= {s.name for s in finished}
    # The pipeline's stage spans, run in the executor thread, keep the agent span as their parent.
    by_name = {s.name: s for s in finished}
    for stage, agent in (("route", "extraction"), ("retrieve", "extraction"), ("correct", "correction")):
        parent = by_name[f"woodpecker.{stage}"].parent
        assert parent is not None and parent.span_id == by_name[f"woodpecker.agent.{agent}"].context.span_id
    assert len(_trace_ids(finished)) == 1
    [trace_id] = _trace_ids(finished)
    assert "traceparent" in out.headers and format(trace_id, "032x") in out.headers["traceparent"].decode()
    decided = [f for f in decision_lines.fields if f.get("answer_id") == "t1"]
    assert decided and {f["trace_id"] for f in decided} == {format(trace_id, "032x")}


@pytest.mark.parametrize("per", [1, 8])
async def test_every_claim_record_of_the_answer_is_verified_in_its_own_child_span(
    spans: InMemorySpanExporter, per: int
) -> None:
    sink = ListSink()
    ctx = make_ctx(sink, claims_per_record=per)
    await _through_the_agents(ctx, sink, answer_bytes("t2"))
    finished = spans.get_finished_spans()
    extraction = next(s for s in finished if s.name == "woodpecker.agent.extraction")
    verifications = [s for s in finished if s.name == "woodpecker.agent.verification"]
    assert len(verifications) == ctx.counts["claim_records"] == -(-ctx.counts["claims_verified"] // per)
    assert ctx.counts["claims_verified"] >= 2
    assert all(s.parent is not None and s.parent.span_id == extraction.context.span_id for s in verifications)


async def test_a_dead_letter_carries_the_trace_of_the_hop_that_failed(spans: InMemorySpanExporter) -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    await _through_the_agents(ctx, sink, b'{"id": "t3", "query": "q"')
    [dead] = sink.on(ctx.topics.deadletter)
    [hop] = [s for s in spans.get_finished_spans() if s.name == "woodpecker.agent.extraction"]
    assert format(hop.context.trace_id, "032x") in dead.headers["traceparent"].decode()


@dataclass
class _Clock:
    now: float = 1_000.0

    def __call__(self) -> float:
        return self.now


async def test_an_answer_completed_by_the_deadline_stays_in_its_trace(spans: InMemorySpanExporter) -> None:
    sink, clock, state = ListSink(), _Clock(), GatherState(statuses={}, data={})
    ctx = make_ctx(sink, clock=clock, deadline_s=5.0)

    async def correction(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], _ms: int) -> None:
        await handle_verdict(ctx, state, raw, headers=headers)

    async def extraction(ctx: AgentContext, raw: bytes, headers: Mapping[str, bytes], ms: int) -> None:
        await handle_answer(ctx, raw, headers=headers, ingest_ms=ms)

    await _guarded(
        ctx, "extraction", _Event(answer_bytes("t4"), _Message([], ctx.topics.answers)), extraction
    )
    sink.take(ctx.topics.claims)  # the verification replicas never answer
    [plan] = sink.take(ctx.topics.verdicts)
    await _guarded(ctx, "correction", _event(plan), correction)
    clock.now += 6.0
    await send_tick(ctx, "t4")  # from the timer, outside any trace
    [tick] = sink.take(ctx.topics.verdicts)
    await _guarded(ctx, "correction", _event(tick), correction)
    [out] = sink.on(ctx.topics.corrected) + sink.on(ctx.topics.review)
    assert b"gather deadline" in out.value
    [hop] = [s for s in spans.get_finished_spans() if s.name == "woodpecker.agent.extraction"]
    assert format(hop.context.trace_id, "032x") in out.headers["traceparent"].decode()

"""The correction agent: gather in durable state, emit once per id, deadline, duplicates, restarts."""

from __future__ import annotations

import random
from typing import Any

from tests.agents.helpers import ListSink, answer, light_pipeline, make_ctx, settings_for, stats_free
from workers.agents.context import AgentContext
from workers.agents.correction import GatherState, TickThrottle, handle_verdict, retention_s, send_tick
from workers.agents.extraction import handle_answer
from workers.agents.records import VerdictMessage
from workers.agents.verification import handle_claim
from workers.messages import Corrected, DeadLetter, Verdict, read_output


class Clock:
    def __init__(self, now: float = 1_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _state() -> GatherState:
    return GatherState(statuses={}, data={})


async def _verdicts(ctx: AgentContext, sink: ListSink, answer_id: str, **extra: Any) -> list[bytes]:
    """Extraction then verification in memory; returns the verdicts-topic records (plan first)."""
    await handle_answer(ctx, answer(answer_id, **extra).to_json(), headers={}, ingest_ms=11)
    for claim in sink.take(ctx.topics.claims):
        await handle_claim(ctx, claim.value, headers={})
    return [r.value for r in sink.take(ctx.topics.verdicts)]


def _outputs(ctx: AgentContext, sink: ListSink) -> list[Corrected]:
    return [Corrected.from_json(r.value) for r in sink.on(ctx.topics.corrected)]


async def test_all_verdicts_in_any_order_give_the_in_process_result_once() -> None:
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink)
    raws = await _verdicts(ctx, sink, "g1")
    random.Random(3).shuffle(raws)
    for raw in raws:
        await handle_verdict(ctx, state, raw, headers={})
    [out] = _outputs(ctx, sink)
    expected = light_pipeline(settings_for()).process(answer("g1"))
    assert stats_free(out) == stats_free(expected)
    assert out.corrected != out.original
    assert set(out.stats.stage_ms) >= {"extract", "retrieve", "verify", "correct"}
    assert sink.on(ctx.topics.corrected)[0].headers["woodpecker-ingest-ms"] == b"11"


async def test_replayed_verdicts_never_count_twice_nor_emit_twice() -> None:
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink)
    plan, *verdicts = await _verdicts(ctx, sink, "g2")
    await handle_verdict(ctx, state, plan, headers={})
    for raw in verdicts[:-1] * 3:
        await handle_verdict(ctx, state, raw, headers={})
    assert _outputs(ctx, sink) == []
    for raw in [verdicts[-1], *verdicts, plan]:
        await handle_verdict(ctx, state, raw, headers={})
    assert [o.id for o in _outputs(ctx, sink)] == ["g2"]
    assert ctx.counts["late_duplicates"] == len(verdicts) + 1


async def test_partial_state_survives_a_restart() -> None:
    sink, state = ListSink(), _state()
    first = make_ctx(sink)
    plan, *verdicts = await _verdicts(first, sink, "g3")
    for raw in [plan, *verdicts[:1]]:
        await handle_verdict(first, state, raw, headers={})
    # A new worker process: new context, the tables as recovered from their changelog.
    recovered = GatherState(statuses=dict(state.statuses), data=dict(state.data))
    second = make_ctx(sink)
    for raw in verdicts[1:]:
        await handle_verdict(second, recovered, raw, headers={})
    assert [o.id for o in _outputs(second, sink)] == ["g3"]


async def test_after_the_deadline_missing_claims_are_unverified_and_it_says_so() -> None:
    clock = Clock()
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink, clock=clock, deadline_s=5.0, claims_per_record=1)
    plan, *verdicts = await _verdicts(ctx, sink, "g4")
    for raw in [plan, *verdicts[:-1]]:
        await handle_verdict(ctx, state, raw, headers={})
    assert list(state.due(now_ms=ctx.now_ms(), deadline_s=5.0)) == []
    clock.now += 6.0
    [due] = state.due(now_ms=ctx.now_ms(), deadline_s=5.0)
    await send_tick(ctx, due)
    [tick] = sink.take(ctx.topics.verdicts)
    assert tick.key == "g4"
    await handle_verdict(ctx, state, tick.value, headers={})
    [out] = _outputs(ctx, sink)
    [missing] = VerdictMessage.from_json(verdicts[-1]).checked or ()
    [claim] = [c for c in out.claims if c.id == missing.claim.id]
    assert claim.verdict is Verdict.UNVERIFIED
    assert "gather deadline" in claim.reason
    assert out.stats.fallback == f"gather deadline: 1 of {len(verdicts)} verdicts missing"
    await handle_verdict(ctx, state, verdicts[-1], headers={})
    assert len(_outputs(ctx, sink)) == 1


async def test_an_early_tick_changes_nothing() -> None:
    clock = Clock()
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink, clock=clock, deadline_s=5.0)
    plan, *_ = await _verdicts(ctx, sink, "g5")
    await handle_verdict(ctx, state, plan, headers={})
    await send_tick(ctx, "g5")
    await handle_verdict(ctx, state, sink.take(ctx.topics.verdicts)[0].value, headers={})
    assert _outputs(ctx, sink) == []


async def test_done_markers_are_purged_after_their_retention() -> None:
    clock = Clock()
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink, clock=clock, deadline_s=5.0)
    for raw in await _verdicts(ctx, sink, "g6"):
        await handle_verdict(ctx, state, raw, headers={})
    assert list(state.data) == []
    assert list(state.statuses) == ["g6"]
    clock.now += retention_s(5.0) + 1
    assert list(state.due(now_ms=ctx.now_ms(), deadline_s=5.0)) == ["g6"]
    await send_tick(ctx, "g6")
    await handle_verdict(ctx, state, sink.take(ctx.topics.verdicts)[0].value, headers={})
    assert list(state.statuses) == []


async def test_verdicts_whose_plan_never_comes_are_dead_lettered_eventually() -> None:
    clock = Clock()
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink, clock=clock, deadline_s=1.0)
    _plan, *verdicts = await _verdicts(ctx, sink, "g7")
    for raw in verdicts:
        await handle_verdict(ctx, state, raw, headers={})
    clock.now += 2.0
    await send_tick(ctx, "g7")
    await handle_verdict(ctx, state, sink.take(ctx.topics.verdicts)[0].value, headers={})
    assert sink.on(ctx.topics.deadletter) == []
    clock.now += 20.0
    await send_tick(ctx, "g7")
    await handle_verdict(ctx, state, sink.take(ctx.topics.verdicts)[0].value, headers={})
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.id, dead.kind, dead.stage) == ("g7", "plan_missing", "correction")
    assert _outputs(ctx, sink) == []


async def test_shadow_corrections_go_to_the_shadow_topic_only() -> None:
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink, mode="shadow")
    for raw in await _verdicts(ctx, sink, "g8"):
        await handle_verdict(ctx, state, raw, headers={})
    [original] = _outputs(ctx, sink)
    assert original.corrected == original.original
    [shadow] = [Corrected.from_json(r.value) for r in sink.on(ctx.topics.shadow)]
    assert shadow.id == "g8" and shadow.corrected != shadow.original
    assert sink.on(ctx.topics.review) == []


async def test_answers_needing_review_go_to_the_review_topic_instead_of_the_output() -> None:
    sink, state = ListSink(), _state()
    ctx = make_ctx(sink)
    for raw in await _verdicts(ctx, sink, "g9", domain="finance", stakes="high"):
        await handle_verdict(ctx, state, raw, headers={})
    assert _outputs(ctx, sink) == []
    [out] = [read_output(r.value) for r in sink.on(ctx.topics.review)]
    assert out.id == "g9" and out.needs_review
    assert ctx.counts["held_for_review"] == 1


async def test_a_malformed_verdict_is_dead_lettered() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    await handle_verdict(ctx, _state(), b'{"kind": "verdict", "answer_id": "x"}', headers={})
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.kind, dead.stage) == ("schema", "correction")


def test_tick_throttle_sends_once_per_interval() -> None:
    throttle = TickThrottle(every_s=2.0)
    assert throttle.should_send("a", now=0.0)
    assert not throttle.should_send("a", now=1.0)
    assert throttle.should_send("b", now=1.0)
    assert throttle.should_send("a", now=2.5)

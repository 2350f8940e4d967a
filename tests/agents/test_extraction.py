"""The extraction agent: validation, the sampler, fast path, plan + one claim message per claim, failures."""

from __future__ import annotations

import pytest

from tests.agents.helpers import (
    FlakyPipeline,
    ListSink,
    answer,
    answer_bytes,
    light_pipeline,
    make_ctx,
    settings_for,
)
from workers.agents.extraction import claim_groups, claim_records, handle_answer
from workers.agents.records import ClaimMessage, GatherKind, VerdictMessage
from workers.messages import Corrected, DeadLetter, Document, Route, read_output

DOC_PAD = Document(id="pad", text="Unrelated filler about weather in spring. " * 60)


async def test_bad_input_goes_to_the_dead_letter_topic_with_its_reason() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    await handle_answer(ctx, b"{not json", headers={"h": b"v"}, ingest_ms=5)
    await handle_answer(ctx, b'{"id": "x", "query": "q"}', headers={}, ingest_ms=5)
    kinds = [DeadLetter.from_json(r.value).kind for r in sink.on(ctx.topics.deadletter)]
    assert kinds == ["invalid_json", "schema"]
    assert sink.on(ctx.topics.corrected) == []
    first = DeadLetter.from_json(sink.on(ctx.topics.deadletter)[0].value)
    assert first.original == "{not json"
    assert first.headers == {"h": "v"}
    assert first.stage == "parse"


async def test_sampled_out_answers_pass_through_unchanged() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, rate=0.0)
    await handle_answer(ctx, answer_bytes("a1"), headers={}, ingest_ms=42)
    [out] = sink.records
    assert out.topic == ctx.topics.corrected
    assert out.key == "a1"
    corrected = Corrected.from_json(out.value)
    assert corrected.route is Route.SAMPLED_OUT
    assert corrected.corrected == corrected.original == answer("a1").answer
    assert out.headers["woodpecker-ingest-ms"] == b"42"


@pytest.mark.parametrize(("per", "sizes"), [(1, [1, 1, 1]), (2, [1, 2]), (4, [3])])
async def test_sampled_answers_send_a_plan_and_their_claims_in_records_of_claims_per_record(
    per: int, sizes: list[int]
) -> None:
    sink = ListSink()
    ctx = make_ctx(sink, rate=1.0, claims_per_record=per)
    await handle_answer(ctx, answer_bytes("a2"), headers={}, ingest_ms=7)
    [plan_record] = sink.on(ctx.topics.verdicts)
    plan = VerdictMessage.from_json(plan_record.value)
    assert plan.kind is GatherKind.PLAN and plan_record.key == "a2"
    assert plan.plan is not None and plan.plan.answer == answer("a2")
    claims = [ClaimMessage.from_json(r.value) for r in sink.on(ctx.topics.claims)]
    assert [len(c.tasks) for c in claims] == sizes
    assert [t for c in claims for t in c.tasks] == list(plan.plan.tasks)
    assert plan.expected == len(plan.plan.tasks) == 3
    assert [r.key for r in sink.on(ctx.topics.claims)] == [f"a2/{c.tasks[0].claim.id}" for c in claims]
    assert all(c.expected == plan.expected and c.ingest_ms == 7 and not c.shadow for c in claims)
    assert sink.on(ctx.topics.corrected) == []


@pytest.mark.parametrize(
    ("count", "per", "sizes"),
    [
        (0, 4, []),
        (1, 4, [1]),
        (4, 4, [4]),
        (5, 4, [2, 3]),
        (6, 4, [3, 3]),
        (9, 4, [3, 3, 3]),
        (3, 1, [1, 1, 1]),
    ],
)
def test_claim_groups_are_in_order_and_near_equal(count: int, per: int, sizes: list[int]) -> None:
    groups = claim_groups(list(range(count)), per=per)  # type: ignore[arg-type]
    assert [len(g) for g in groups] == sizes
    assert [i for g in groups for i in g] == list(range(count))


async def test_claims_too_large_for_one_record_together_go_in_smaller_records() -> None:
    alone = ListSink()
    probe = make_ctx(alone, claims_per_record=1)
    await handle_answer(probe, answer_bytes("a9"), headers={}, ingest_ms=1)
    [plan_record] = alone.on(probe.topics.verdicts)
    plan = VerdictMessage.from_json(plan_record.value).plan
    assert plan is not None and len(plan.tasks) == 3
    largest = max(len(r.value) for r in alone.on(probe.topics.claims))
    sink = ListSink()
    ctx = make_ctx(sink, claims_per_record=4, max_record_bytes=max(1024, largest + 50))
    records = claim_records(ctx, plan, shadow=False, ingest_ms=1)
    claims = [ClaimMessage.from_json(value) for _, value in records]
    assert len(claims) >= 2 and [t for c in claims for t in c.tasks] == list(plan.tasks)
    assert all(len(value) <= ctx.settings.kafka.max_record_bytes for _, value in records)


async def test_fast_path_answers_are_finished_by_extraction() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    low = answer("a3", text="Hello! Thanks for asking.", stakes="low", query="hi", documents=())
    await handle_answer(ctx, low.to_json(), headers={}, ingest_ms=1)
    [out] = sink.records
    corrected = Corrected.from_json(out.value)
    assert out.topic == ctx.topics.corrected
    assert corrected.route is Route.FAST_PATH
    assert corrected.corrected == low.answer
    assert sink.on(ctx.topics.claims) == []


async def test_shadow_mode_passes_the_original_and_marks_claims_for_shadow() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, rate=1.0, mode="shadow")
    await handle_answer(ctx, answer_bytes("a4"), headers={}, ingest_ms=1)
    [out] = sink.on(ctx.topics.corrected)
    assert Corrected.from_json(out.value).route is Route.SAMPLED_OUT
    claims = [ClaimMessage.from_json(r.value) for r in sink.on(ctx.topics.claims)]
    assert claims and all(c.shadow for c in claims)


async def test_a_transient_failure_is_retried_and_leaves_no_trace() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, pipeline=FlakyPipeline(light_pipeline(settings_for()), fail="prepare", times=2))
    await handle_answer(ctx, answer_bytes("a5"), headers={}, ingest_ms=1)
    assert sink.on(ctx.topics.deadletter) == []
    assert sink.on(ctx.topics.claims)


async def test_a_lasting_failure_is_dead_lettered_and_the_original_still_delivered() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, pipeline=FlakyPipeline(light_pipeline(settings_for()), fail="prepare", times=99))
    await handle_answer(ctx, answer_bytes("a6"), headers={}, ingest_ms=1)
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.id, dead.kind, dead.stage) == ("a6", "retries_exhausted", "extraction")
    assert "prepare exploded" in dead.reason
    # Held for review instead of the output topic; `woodpecker review approve` publishes it there.
    assert sink.on(ctx.topics.corrected) == []
    [out] = [read_output(r.value) for r in sink.on(ctx.topics.review)]
    assert out.id == "a6" and out.corrected == out.original
    assert out.needs_review and out.stats.fallback


async def test_an_output_too_large_for_the_broker_is_dead_lettered_not_crashed_on() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, max_record_bytes=2048)
    await handle_answer(ctx, answer_bytes("a7"), headers={}, ingest_ms=1)
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert dead.kind == "too_large_output"
    # The original, flagged, waits for review (and reaches the output topic once approved).
    assert [read_output(r.value).id for r in sink.on(ctx.topics.review)] == ["a7"]


async def test_a_plan_too_large_with_documents_travels_without_them() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, max_record_bytes=6000)
    padded = answer("a8").model_copy(update={"documents": (*answer("a8").documents, DOC_PAD)})
    await handle_answer(ctx, padded.to_json(), headers={}, ingest_ms=1)
    [plan_record] = sink.on(ctx.topics.verdicts)
    plan = VerdictMessage.from_json(plan_record.value).plan
    assert plan is not None and plan.answer.documents == ()
    assert plan.answer.answer == padded.answer
    assert sink.on(ctx.topics.deadletter) == []


async def test_a_claim_too_large_alone_fails_the_answer_before_its_plan_goes_out() -> None:
    alone = ListSink()
    probe = make_ctx(alone, claims_per_record=1)
    await handle_answer(probe, answer_bytes("a10"), headers={}, ingest_ms=1)
    smallest = min(len(r.value) for r in alone.on(probe.topics.claims))
    sink = ListSink()
    ctx = make_ctx(sink, max_record_bytes=max(1024, smallest - 1))
    await handle_answer(ctx, answer_bytes("a10"), headers={}, ingest_ms=1)
    assert sink.on(ctx.topics.claims) == [] and sink.on(ctx.topics.verdicts) == []
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert dead.id == "a10" and "bytes, over" in dead.reason
    # Answered once, held for review, and never again by the gather deadline (no plan went out).
    [out] = sink.on(ctx.topics.corrected) + sink.on(ctx.topics.review)
    assert out.key == "a10"

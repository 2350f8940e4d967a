"""The extraction agent: validation, the sampler, fast path, plan + one claim message per claim, failures."""

from __future__ import annotations

from tests.agents.helpers import (
    FlakyPipeline,
    ListSink,
    answer,
    answer_bytes,
    light_pipeline,
    make_ctx,
    settings_for,
)
from workers.agents.extraction import handle_answer
from workers.messages import (
    ClaimMessage,
    Corrected,
    DeadLetter,
    Document,
    GatherKind,
    Route,
    VerdictMessage,
    read_output,
)

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


async def test_sampled_answers_send_a_plan_and_one_claim_per_claim() -> None:
    sink = ListSink()
    ctx = make_ctx(sink, rate=1.0)
    await handle_answer(ctx, answer_bytes("a2"), headers={}, ingest_ms=7)
    [plan_record] = sink.on(ctx.topics.verdicts)
    plan = VerdictMessage.from_json(plan_record.value)
    assert plan.kind is GatherKind.PLAN and plan_record.key == "a2"
    assert plan.plan is not None and plan.plan.answer == answer("a2")
    claims = [ClaimMessage.from_json(r.value) for r in sink.on(ctx.topics.claims)]
    assert len(claims) == plan.expected == len(plan.plan.tasks) >= 2
    assert [r.key for r in sink.on(ctx.topics.claims)] == [f"a2/{c.task.claim.id}" for c in claims]
    assert all(c.expected == plan.expected and c.ingest_ms == 7 and not c.shadow for c in claims)
    assert sink.on(ctx.topics.corrected) == []


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

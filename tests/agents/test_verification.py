"""The verification agent: one claim in, one verdict out, keyed by answer id; failures still answer."""

from __future__ import annotations

from tests.agents.helpers import FlakyPipeline, ListSink, answer_bytes, light_pipeline, make_ctx, settings_for
from workers.agents.extraction import handle_answer
from workers.agents.verification import handle_claim
from workers.messages import DeadLetter, GatherKind, Verdict, VerdictMessage


async def _claims(answer_id: str) -> list[bytes]:
    sink = ListSink()
    await handle_answer(make_ctx(sink), answer_bytes(answer_id), headers={}, ingest_ms=3)
    return [r.value for r in sink.take(make_ctx(sink).topics.claims)]


async def test_each_claim_gets_one_verdict_keyed_by_answer_id() -> None:
    raws = await _claims("v1")
    sink = ListSink()
    ctx = make_ctx(sink)
    for raw in raws:
        await handle_claim(ctx, raw, headers={})
    records = sink.on(ctx.topics.verdicts)
    verdicts = [VerdictMessage.from_json(r.value) for r in records]
    assert len(verdicts) == len(raws)
    assert {r.key for r in records} == {"v1"}
    assert all(v.kind is GatherKind.VERDICT and v.worker == "test:1" and v.ingest_ms == 3 for v in verdicts)
    by_claim = {v.checked.claim.id: v.checked.verdict for v in verdicts if v.checked}
    assert Verdict.CONTRADICTED in by_claim.values()


async def test_a_malformed_claim_message_is_dead_lettered() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    await handle_claim(ctx, b'{"schema_version": "claim.v1"}', headers={})
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.kind, dead.stage) == ("schema", "verification")
    assert sink.on(ctx.topics.verdicts) == []


async def test_a_claim_that_keeps_failing_is_answered_unverified_and_dead_lettered() -> None:
    [raw, *_] = await _claims("v2")
    sink = ListSink()
    ctx = make_ctx(sink, pipeline=FlakyPipeline(light_pipeline(settings_for()), fail="verify", times=99))
    await handle_claim(ctx, raw, headers={})
    [verdict] = [VerdictMessage.from_json(r.value) for r in sink.on(ctx.topics.verdicts)]
    assert verdict.checked is not None and verdict.checked.verdict is Verdict.UNVERIFIED
    assert "verification failed" in verdict.checked.reason
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.id, dead.stage, dead.kind) == ("v2", "verification", "retries_exhausted")

"""The verification agent: a claim record in, a verdict record out, keyed by answer id; failures answer."""

from __future__ import annotations

from collections.abc import Sequence

import orjson
import pytest

from tests.agents.helpers import FlakyPipeline, ListSink, answer_bytes, light_pipeline, make_ctx, settings_for
from workers.agents.extraction import handle_answer
from workers.agents.records import ClaimMessage, GatherKind, VerdictMessage
from workers.agents.verification import handle_claim
from workers.messages import Checked, ClaimTask, DeadLetter, Verdict


async def _claims(answer_id: str, *, per: int = 4) -> list[bytes]:
    sink = ListSink()
    ctx = make_ctx(sink, claims_per_record=per)
    await handle_answer(ctx, answer_bytes(answer_id), headers={}, ingest_ms=3)
    return [r.value for r in sink.take(ctx.topics.claims)]


@pytest.mark.parametrize("per", [1, 2, 4])
async def test_each_claim_record_gets_one_verdict_record_keyed_by_answer_id(per: int) -> None:
    raws = await _claims("v1", per=per)
    sink = ListSink()
    ctx = make_ctx(sink)
    for raw in raws:
        await handle_claim(ctx, raw, headers={})
    records = sink.on(ctx.topics.verdicts)
    verdicts = [VerdictMessage.from_json(r.value) for r in records]
    assert len(verdicts) == len(raws)
    assert {r.key for r in records} == {"v1"}
    assert all(v.kind is GatherKind.VERDICT and v.worker == "test:1" and v.ingest_ms == 3 for v in verdicts)
    sent = [t.claim.id for raw in raws for t in ClaimMessage.from_json(raw).tasks]
    by_claim = {c.claim.id: c.verdict for v in verdicts for c in v.checked or ()}
    assert list(by_claim) == sent
    assert Verdict.CONTRADICTED in by_claim.values()


async def test_a_claim_v1_record_from_an_older_worker_is_still_verified() -> None:
    [raw] = await _claims("v3", per=4)
    [task, *_] = ClaimMessage.from_json(raw).tasks
    old = orjson.loads(raw) | {"schema_version": "claim.v1", "task": task.model_dump(mode="json")}
    del old["tasks"]
    sink = ListSink()
    ctx = make_ctx(sink)
    await handle_claim(ctx, orjson.dumps(old), headers={})
    [verdict] = [VerdictMessage.from_json(r.value) for r in sink.on(ctx.topics.verdicts)]
    assert [c.claim.id for c in verdict.checked or ()] == [task.claim.id]
    assert sink.on(ctx.topics.deadletter) == []


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
    assert verdict.checked is not None and len(verdict.checked) == 3
    assert all(c.verdict is Verdict.UNVERIFIED for c in verdict.checked)
    assert all("verification failed" in c.reason for c in verdict.checked)
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.id, dead.stage, dead.kind) == ("v2", "verification", "retries_exhausted")


class _BreaksOn(FlakyPipeline):
    """The verifier raises on any call that holds claim `bad`, every time."""

    def __init__(self, bad: str) -> None:
        super().__init__(light_pipeline(settings_for()), fail="none", times=0)
        self.bad = bad

    def verify_each(self, groups: Sequence[tuple[Sequence[ClaimTask], float]]) -> list[Checked]:
        if any(t.claim.id == self.bad for tasks, _ in groups for t in tasks):
            raise RuntimeError(f"claim {self.bad} breaks the verifier")
        return self.inner.verify_each(groups)


async def test_a_claim_that_breaks_the_verifier_does_not_take_its_record_mates_with_it() -> None:
    [raw] = await _claims("v4", per=4)
    sink = ListSink()
    ctx = make_ctx(sink, pipeline=_BreaksOn("c1"))
    await handle_claim(ctx, raw, headers={})
    [verdict] = [VerdictMessage.from_json(r.value) for r in sink.on(ctx.topics.verdicts)]
    by_claim = {c.claim.id: c for c in verdict.checked or ()}
    assert list(by_claim) == ["c0", "c1", "c2"]
    assert "verification failed" in by_claim["c1"].reason and by_claim["c1"].verdict is Verdict.UNVERIFIED
    assert all("verification failed" not in by_claim[c].reason for c in ("c0", "c2"))
    assert Verdict.CONTRADICTED in {by_claim[c].verdict for c in ("c0", "c2")}
    [dead] = [DeadLetter.from_json(r.value) for r in sink.on(ctx.topics.deadletter)]
    assert (dead.id, dead.stage) == ("v4", "verification")


async def test_a_verdict_record_too_large_for_one_record_goes_in_halves() -> None:
    [raw] = await _claims("v5", per=4)
    whole = ListSink()
    await handle_claim(make_ctx(whole), raw, headers={})
    [one] = whole.on(make_ctx(whole).topics.verdicts)
    sink = ListSink()
    # Below the whole record by more than a run's timing digits can move it (a flake at - 1 under load).
    ctx = make_ctx(sink, max_record_bytes=len(one.value) - 100)
    await handle_claim(ctx, raw, headers={})
    verdicts = [VerdictMessage.from_json(r.value) for r in sink.on(ctx.topics.verdicts)]
    assert len(verdicts) == 2
    assert [c.claim.id for v in verdicts for c in v.checked or ()] == ["c0", "c1", "c2"]
    assert sink.on(ctx.topics.deadletter) == []

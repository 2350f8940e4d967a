"""The extraction agent: input answers in; the sampler, then route + extract + decompose + retrieve.

Usage::

    await handle_answer(ctx, raw_bytes, headers={}, ingest_ms=record_timestamp_ms)

Per answer it sends exactly one of:
- a pass-through on the output topic (sampled out; in shadow mode every answer),
- a finished answer (fast path, or no claims found),
- a plan to the verdicts topic (keyed by answer id; its documents by reference when it is too large)
  and one claim.v1 message per claim to the claims
  topic (keyed `answer id/claim id`, so one answer's claims spread over the verification replicas),
- a dead letter for bad input; a dead letter and the original (flagged for review) when processing fails.
"""

from __future__ import annotations

from collections.abc import Mapping

from workers.agents.context import AgentContext, emit_corrected, ingest_header, send_json
from workers.agents.deadletter import send_dead_letter, with_retries
from workers.errors import InvalidMessage
from workers.messages import Answer, ClaimMessage, Corrected, GatherKind, Plan, Route, Stats, VerdictMessage
from workers.pipeline import passthrough
from workers.validate import parse_answer

__all__ = ["fail_open", "handle_answer"]

STAGE = "extraction"


async def handle_answer(
    ctx: AgentContext, raw: bytes, *, headers: Mapping[str, bytes], ingest_ms: int
) -> None:
    """Validate, sample and prepare one input record; never raises for bad input or a failing pipeline."""
    ctx.counts["answers"] += 1
    try:
        answer = parse_answer(raw, limits=ctx.settings.limits)
    except InvalidMessage as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage="parse", headers=headers)
        return
    decision = ctx.sampler.decide(answer.id, tenant=answer.tenant)
    if decision.pass_original:
        await emit_corrected(ctx, passthrough(answer, Route.SAMPLED_OUT), shadow=False, ingest_ms=ingest_ms)
    if not decision.correct:
        return
    try:
        await _extract(ctx, answer, shadow=decision.shadow, ingest_ms=ingest_ms)
    except Exception as exc:
        await fail_open(
            ctx,
            raw,
            answer,
            exc=exc,
            stage=STAGE,
            shadow=decision.shadow,
            headers=headers,
            ingest_ms=ingest_ms,
        )


async def _extract(ctx: AgentContext, answer: Answer, *, shadow: bool, ingest_ms: int) -> None:
    policy = ctx.retry
    plan = await with_retries(
        lambda: ctx.blocking(ctx.pipeline.prepare, answer), policy=policy, what="prepare"
    )
    if not plan.tasks:  # a semantic-cache hit, a route that checks nothing, or no claims
        corrected = await with_retries(
            lambda: ctx.blocking(ctx.pipeline.finish, plan), policy=policy, what="finish"
        )
        await emit_corrected(ctx, corrected, shadow=shadow, ingest_ms=ingest_ms, answer=answer)
        return
    await _send_plan(ctx, plan, shadow=shadow, ingest_ms=ingest_ms)
    await _send_claims(ctx, plan, shadow=shadow, ingest_ms=ingest_ms)


async def _send_plan(ctx: AgentContext, plan: Plan, *, shadow: bool, ingest_ms: int) -> None:
    value = _plan_message(ctx, plan, shadow=shadow, ingest_ms=ingest_ms).to_json()
    if len(value) > ctx.settings.kafka.max_record_bytes:
        # The documents go by reference (tenant-scoped, with a TTL); correction reads them back, and
        # holds the answer for review if it cannot.
        slim = await ctx.blocking(ctx.pipeline.by_reference, plan)
        value = _plan_message(ctx, slim, shadow=shadow, ingest_ms=ingest_ms).to_json()
        ctx.counts["plans_by_reference"] += 1
    await send_json(
        ctx,
        ctx.topics.verdicts,
        key=plan.answer.id,
        value=value,
        schema="verdict.v1",
        headers=ingest_header(ingest_ms),
    )


def _plan_message(ctx: AgentContext, plan: Plan, *, shadow: bool, ingest_ms: int) -> VerdictMessage:
    return VerdictMessage(
        kind=GatherKind.PLAN,
        answer_id=plan.answer.id,
        expected=len(plan.tasks),
        shadow=shadow,
        ingest_ms=ingest_ms,
        plan=plan,
        worker=ctx.worker,
    )


async def _send_claims(ctx: AgentContext, plan: Plan, *, shadow: bool, ingest_ms: int) -> None:
    answer = plan.answer
    for task in plan.tasks:
        message = ClaimMessage(
            answer_id=answer.id,
            tenant=answer.tenant,
            expected=len(plan.tasks),
            task=task,
            shadow=shadow,
            ingest_ms=ingest_ms,
            llm_s=plan.ledger.llm_s,
        )
        key = f"{answer.id}/{task.claim.id}"
        await send_json(
            ctx,
            ctx.topics.claims,
            key=key,
            value=message.to_json(),
            schema="claim.v1",
            headers=ingest_header(ingest_ms),
        )
    ctx.counts["claims_sent"] += len(plan.tasks)


async def fail_open(
    ctx: AgentContext,
    raw: bytes,
    answer: Answer,
    *,
    exc: BaseException,
    stage: str,
    shadow: bool,
    headers: Mapping[str, bytes],
    ingest_ms: int,
) -> None:
    """Processing failed for good: dead-letter it, and still deliver the original, flagged for review.

    Consumers of the output topic wait for every id; in shadow mode the original has already gone out.
    """
    record = await send_dead_letter(ctx, raw, exc=exc, stage=stage, headers=headers, answer_id=answer.id)
    if shadow:
        return
    original = Corrected(
        id=answer.id,
        tenant=answer.tenant,
        original=answer.answer,
        corrected=answer.answer,
        route=Route.FULL,
        needs_review=True,
        review_reasons=(f"{stage} failed: {record.kind}",),
        stats=Stats(fallback=f"passthrough after {stage} failure"),
    )
    await emit_corrected(ctx, original, shadow=False, ingest_ms=ingest_ms, answer=answer)

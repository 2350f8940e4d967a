"""The extraction agent: input answers in; the sampler, then route + extract + decompose + retrieve.

Usage::

    await handle_answer(ctx, raw_bytes, headers={}, ingest_ms=record_timestamp_ms)

Per answer it sends exactly one of:
- a pass-through on the output topic (sampled out; in shadow mode every answer),
- a finished answer (fast path, or no claims found),
- a plan to the verdicts topic (keyed by answer id; its documents by reference when it is too large)
  and its claims in claim.v2 records of at most `kafka.claims_per_record` claims to the claims topic
  (keyed `answer id/first claim id`, so a long answer's claims spread over the verification replicas),
- a dead letter for bad input; a dead letter and the original (flagged for review) when processing fails.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from workers.agents.context import AgentContext, RecordTooLarge, emit_corrected, ingest_header, send_json
from workers.agents.deadletter import send_dead_letter, with_retries
from workers.agents.records import ClaimMessage, GatherKind, VerdictMessage
from workers.errors import InvalidMessage
from workers.messages import Answer, ClaimTask, Corrected, Plan, Route, Stats
from workers.pipeline import passthrough
from workers.validate import parse_answer

__all__ = ["claim_groups", "claim_records", "fail_open", "handle_answer"]

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
    records = claim_records(ctx, plan, shadow=shadow, ingest_ms=ingest_ms)  # sized before anything goes
    await _send_plan(ctx, plan, shadow=shadow, ingest_ms=ingest_ms)
    await _send_records(ctx, records, plan=plan, ingest_ms=ingest_ms)


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
        schema="verdict.v2",
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


def claim_records(ctx: AgentContext, plan: Plan, *, shadow: bool, ingest_ms: int) -> list[tuple[str, bytes]]:
    """The claim.v2 records of `plan`, (key, value), all built and sized before any is sent.

    RecordTooLarge for a claim too large alone, so an answer fails before its plan goes out (then it
    is answered once, by `fail_open`, never also by the gather deadline).
    """
    records: list[tuple[str, bytes]] = []
    for tasks in claim_groups(plan.tasks, per=ctx.settings.kafka.claims_per_record):
        records += _sized(ctx, plan, tasks, shadow=shadow, ingest_ms=ingest_ms)
    return records


def claim_groups(tasks: Sequence[ClaimTask], *, per: int) -> list[tuple[ClaimTask, ...]]:
    """`tasks` in order, in ceil(n / per) groups of near-equal size.

    Near-equal, so the records of one answer take about the same time on the replicas or calls that
    share it: 6 claims by 4 go as 3 and 3, not 4 and 2.

        >>> [len(g) for g in claim_groups(list(range(6)), per=4)]
        [3, 3]
    """
    count = -(-len(tasks) // per)
    if not count:
        return []
    bounds = [i * len(tasks) // count for i in range(count + 1)]
    return [tuple(tasks[a:b]) for a, b in pairwise(bounds)]


def _sized(
    ctx: AgentContext, plan: Plan, tasks: tuple[ClaimTask, ...], *, shadow: bool, ingest_ms: int
) -> list[tuple[str, bytes]]:
    answer, limit = plan.answer, ctx.settings.kafka.max_record_bytes
    value = ClaimMessage(
        answer_id=answer.id,
        tenant=answer.tenant,
        expected=len(plan.tasks),
        tasks=tasks,
        shadow=shadow,
        ingest_ms=ingest_ms,
        llm_s=plan.ledger.llm_s,
    ).to_json()
    if len(value) <= limit:
        return [(f"{answer.id}/{tasks[0].claim.id}", value)]
    if len(tasks) == 1:
        raise RecordTooLarge(
            f"claim {tasks[0].claim.id!r} of {answer.id!r} is {len(value)} bytes, over {limit}"
        )
    # Too large together (long windows): halves, down to one claim a record.
    half = len(tasks) // 2
    return [
        *_sized(ctx, plan, tasks[:half], shadow=shadow, ingest_ms=ingest_ms),
        *_sized(ctx, plan, tasks[half:], shadow=shadow, ingest_ms=ingest_ms),
    ]


async def _send_records(
    ctx: AgentContext, records: Sequence[tuple[str, bytes]], *, plan: Plan, ingest_ms: int
) -> None:
    for key, value in records:
        headers = ingest_header(ingest_ms)
        await send_json(ctx, ctx.topics.claims, key=key, value=value, schema="claim.v2", headers=headers)
    ctx.counts["claim_records"] += len(records)
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

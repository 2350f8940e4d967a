"""The verification agent: claim.v2 in, verdict.v2 out, a record's claims verified together.

Stateless, so it scales by adding replicas.

Usage::

    await handle_claim(ctx, raw_bytes, headers={})

A claim record whose verification keeps failing is dead-lettered and still answered: its claims are
tried once more each alone, and those that fail again are UNVERIFIED with the reason, so one claim
that breaks the verifier does not take its record-mates with it, and the answer completes instead of
waiting for the gather deadline.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial

from workers.agents.context import AgentContext, ingest_header, send_json
from workers.agents.deadletter import classify, send_dead_letter, with_retries
from workers.agents.records import ClaimMessage, GatherKind, VerdictMessage
from workers.errors import InvalidMessage
from workers.messages import Checked, ClaimTask, Ledger

__all__ = ["handle_claim"]

STAGE = "verification"


async def handle_claim(ctx: AgentContext, raw: bytes, *, headers: Mapping[str, bytes]) -> None:
    try:
        message = ClaimMessage.from_json(raw)
    except InvalidMessage as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers=headers)
        return
    checked = await _verify(ctx, message, raw=raw, headers=headers)
    await _send_verdicts(ctx, message, checked)
    ctx.counts["claims_verified"] += len(checked.claims)


async def _send_verdicts(ctx: AgentContext, message: ClaimMessage, checked: Checked) -> None:
    """One verdict record for the claim record, in halves where one would be too large."""
    verdict = VerdictMessage(
        kind=GatherKind.VERDICT,
        answer_id=message.answer_id,
        expected=message.expected,
        shadow=message.shadow,
        ingest_ms=message.ingest_ms,
        checked=checked.claims,
        ledger=checked.ledger,
        worker=ctx.worker,
    )
    value = verdict.to_json()
    if len(value) > ctx.settings.kafka.max_record_bytes and len(checked.claims) > 1:
        half = len(checked.claims) // 2  # correction gathers by claim, so any split is whole
        await _send_verdicts(ctx, message, Checked(claims=checked.claims[:half], ledger=checked.ledger))
        await _send_verdicts(ctx, message, Checked(claims=checked.claims[half:]))
        return
    headers = ingest_header(message.ingest_ms)
    await send_json(
        ctx, ctx.topics.verdicts, key=message.answer_id, value=value, schema="verdict.v2", headers=headers
    )


async def _verify(
    ctx: AgentContext, message: ClaimMessage, *, raw: bytes, headers: Mapping[str, bytes]
) -> Checked:
    try:
        return await with_retries(
            lambda: _verified(ctx, message.tasks, llm_s=message.llm_s), policy=ctx.retry, what="verify"
        )
    except Exception as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers=headers, answer_id=message.answer_id)
        if len(message.tasks) == 1:
            return _failed(ctx, message.tasks, exc)
    # One claim that breaks the verifier must not take its record-mates with it: each alone, once.
    parts = [await _alone(ctx, task, llm_s=message.llm_s) for task in message.tasks]
    ledger = sum((p.ledger for p in parts), Ledger())
    return Checked(claims=tuple(c for p in parts for c in p.claims), ledger=ledger)


async def _verified(ctx: AgentContext, tasks: Sequence[ClaimTask], *, llm_s: float) -> Checked:
    call, calls = partial(ctx.blocking, ctx.pipeline.verify_each), ctx.settings.kafka.verification_calls
    checked = await ctx.verify_queue.verify(tasks, llm_s=llm_s, call=call, calls=calls)
    if len(checked.claims) != len(tasks):
        raise RuntimeError(f"verify returned {len(checked.claims)} results for {len(tasks)} claims")
    return checked


async def _alone(ctx: AgentContext, task: ClaimTask, *, llm_s: float) -> Checked:
    try:
        return await _verified(ctx, (task,), llm_s=llm_s)
    except Exception as exc:
        return _failed(ctx, (task,), exc)


def _failed(ctx: AgentContext, tasks: Sequence[ClaimTask], exc: BaseException) -> Checked:
    return ctx.pipeline.unanswered(tasks, reason=f"verification failed: {classify(exc)[0]}", fallback=None)

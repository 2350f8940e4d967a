"""The verification agent: claim.v2 in, verdict.v2 out, a record's claims verified together.

Stateless, so it scales by adding replicas.

Usage::

    await handle_claim(ctx, raw_bytes, headers={})

A claim whose verification keeps failing is dead-lettered and still answered, as UNVERIFIED with the
reason, so the answer it belongs to completes instead of waiting for the gather deadline.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

from workers.agents.context import AgentContext, ingest_header, send_json
from workers.agents.deadletter import classify, send_dead_letter, with_retries
from workers.agents.records import ClaimMessage, GatherKind, VerdictMessage
from workers.errors import InvalidMessage
from workers.messages import Checked

__all__ = ["handle_claim"]

STAGE = "verification"


async def handle_claim(ctx: AgentContext, raw: bytes, *, headers: Mapping[str, bytes]) -> None:
    try:
        message = ClaimMessage.from_json(raw)
    except InvalidMessage as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers=headers)
        return
    checked = await _verify(ctx, message, raw=raw, headers=headers)
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
    await send_json(
        ctx,
        ctx.topics.verdicts,
        key=message.answer_id,
        value=verdict.to_json(),
        schema=verdict.schema_version,
        headers=ingest_header(message.ingest_ms),
    )
    ctx.counts["claims_verified"] += len(checked.claims)


async def _verify(
    ctx: AgentContext, message: ClaimMessage, *, raw: bytes, headers: Mapping[str, bytes]
) -> Checked:
    tasks = list(message.tasks)
    call, calls = partial(ctx.blocking, ctx.pipeline.verify_each), ctx.settings.kafka.verification_calls
    try:
        checked = await with_retries(
            lambda: ctx.verify_queue.verify(tasks, llm_s=message.llm_s, call=call, calls=calls),
            policy=ctx.retry,
            what="verify",
        )
        if len(checked.claims) != len(tasks):
            raise RuntimeError(f"verify returned {len(checked.claims)} results for {len(tasks)} claims")
        return checked
    except Exception as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers=headers, answer_id=message.answer_id)
        reason = f"verification failed: {classify(exc)[0]}"
        return ctx.pipeline.unanswered(tasks, reason=reason, fallback=None)

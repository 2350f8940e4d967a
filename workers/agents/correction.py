"""The correction agent: gathers an answer's verdicts in durable state, then corrects it exactly once.

Usage::

    state = GatherState(statuses=faust_table_or_dict, data=another_table_or_dict)
    await handle_verdict(ctx, state, raw_bytes, headers={})
    for answer_id in state.due(now_ms=ctx.now_ms(), deadline_s=60.0):   # the deadline timer
        await send_tick(ctx, answer_id)

State lives in two faust Tables (changelog-backed, co-partitioned with the verdicts topic, keyed by
answer id), so a restarted or rebalanced worker picks up half-gathered answers where they were:
- `statuses`: per answer, which claim ids have a verdict, whether the plan arrived, when it started;
- `data`: the plan and each verdict, under their own keys so one verdict never rewrites the others.

When all verdicts are in, the answer is corrected and emitted; a replayed verdict overwrites its own
key and never counts twice. The deadline works through the stream itself: a timer sends a `tick`
for overdue answers to the verdicts topic, and handling that tick corrects with the missing claims as
UNVERIFIED (and says so in `stats.fallback`). Finished answers keep a small `done` marker for a while,
so late duplicates are ignored instead of starting a second, emptier answer.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Any

import orjson
from pydantic import BaseModel, ConfigDict

from workers.agents.context import AgentContext, emit_corrected, ingest_header, send_json
from workers.agents.deadletter import send_dead_letter, with_retries
from workers.agents.extraction import fail_open
from workers.agents.records import GatherKind, VerdictMessage
from workers.errors import InvalidMessage
from workers.messages import Checked, Ledger, Plan
from workers.telemetry import consume_span

__all__ = ["GatherState", "GatherStatus", "TickThrottle", "handle_verdict", "retention_s", "send_tick"]

STAGE = "correction"
_TRACE_KEYS = frozenset({"traceparent", "tracestate"})
# An answer whose plan never came is given up (dead-lettered) after this many deadlines.
ORPHAN_DEADLINES = 10


class GatherStatus(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")
    expected: int = 0
    seen: tuple[str, ...] = ()
    has_plan: bool = False
    shadow: bool = False
    ingest_ms: int = 0
    first_ms: int = 0
    done_ms: int | None = None
    outcome: str | None = None
    # The plan's W3C trace context, so an answer completed by the deadline timer stays in its trace.
    trace: dict[str, str] = {}

    @property
    def complete(self) -> bool:
        return self.has_plan and len(self.seen) >= self.expected


def retention_s(deadline_s: float) -> float:
    """How long a `done` marker outlives its answer: long enough for any replay to arrive."""
    return max(300.0, 5.0 * deadline_s)


@dataclass(frozen=True)
class GatherState:
    """Two key-value stores (faust Tables in a worker, dicts in tests) holding the gather state."""

    statuses: MutableMapping[str, Any]
    data: MutableMapping[str, Any]

    def status(self, answer_id: str) -> GatherStatus | None:
        raw = self.statuses.get(answer_id)
        return None if raw is None else GatherStatus.model_validate(raw)

    def put_status(self, answer_id: str, status: GatherStatus) -> None:
        self.statuses[answer_id] = status.model_dump(mode="json")

    def put_plan(self, answer_id: str, plan: Plan) -> None:
        self.data[_plan_key(answer_id)] = plan.model_dump(mode="json", exclude_none=True)

    def plan(self, answer_id: str) -> Plan:
        return Plan.model_validate(self.data[_plan_key(answer_id)])

    def put_verdicts(self, answer_id: str, checked: Checked) -> None:
        """Each claim's verdict under its own key; the record's ledger (what it cost) with its first.

        So a replayed record overwrites its own keys and is never counted twice. Not covered: the same
        claims sent again grouped otherwise (`kafka.claims_per_record` changed while the answer was in
        flight); then one record's cost can be counted twice in `stats` (the verdicts are still right).
        """
        for i, claim in enumerate(checked.claims):
            one = Checked(claims=(claim,), ledger=checked.ledger if i == 0 else Ledger())
            self.data[_verdict_key(answer_id, claim.claim.id)] = one.model_dump(
                mode="json", exclude_none=True
            )

    def verdict(self, answer_id: str, claim_id: str) -> Checked | None:
        raw = self.data.get(_verdict_key(answer_id, claim_id))
        return None if raw is None else Checked.model_validate(raw)

    def close(self, answer_id: str, status: GatherStatus, *, now_ms: int, outcome: str) -> None:
        """Drop the bulky data, keep a small marker that says the answer went out."""
        for claim_id in status.seen:
            self.data.pop(_verdict_key(answer_id, claim_id), None)
        self.data.pop(_plan_key(answer_id), None)
        self.put_status(answer_id, GatherStatus(done_ms=now_ms, outcome=outcome, first_ms=status.first_ms))

    def forget(self, answer_id: str) -> None:
        self.statuses.pop(answer_id, None)

    def due(self, *, now_ms: int, deadline_s: float) -> Iterator[str]:
        """Answers past their deadline, and done markers past their retention."""
        for answer_id, raw in list(self.statuses.items()):
            status = GatherStatus.model_validate(raw)
            if now_ms >= _due_ms(status, deadline_s=deadline_s):
                yield answer_id


def _due_ms(status: GatherStatus, *, deadline_s: float) -> float:
    if status.done_ms is None:
        return status.first_ms + deadline_s * 1000
    return status.done_ms + retention_s(deadline_s) * 1000


def _trace_headers(headers: Mapping[str, bytes]) -> dict[str, str]:
    return {k: v.decode("latin-1") for k, v in headers.items() if k.lower() in _TRACE_KEYS}


def _plan_key(answer_id: str) -> str:
    return f"plan:{answer_id}"


def _verdict_key(answer_id: str, claim_id: str) -> str:
    # The length makes the key unambiguous whatever characters the ids hold.
    return f"verdict:{len(answer_id)}:{answer_id}:{claim_id}"


async def handle_verdict(
    ctx: AgentContext, state: GatherState, raw: bytes, *, headers: Mapping[str, bytes]
) -> None:
    try:
        message = VerdictMessage.from_json(raw)
    except InvalidMessage as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers=headers)
        return
    answer_id, now_ms = message.answer_id, ctx.now_ms()
    status = state.status(answer_id)
    if status is not None and status.done_ms is not None:
        _maybe_forget(ctx, state, answer_id, status, message=message, now_ms=now_ms)
        return
    status = _merge(state, status, message, now_ms=now_ms)
    if message.plan is not None:
        status = status.model_copy(update={"trace": _trace_headers(headers)})
    state.put_status(answer_id, status)
    if status.complete:
        await _complete(ctx, state, answer_id, status, missing=False)
    elif message.kind is GatherKind.TICK:
        await _on_deadline(ctx, state, answer_id, status, now_ms=now_ms)


def _maybe_forget(
    ctx: AgentContext,
    state: GatherState,
    answer_id: str,
    status: GatherStatus,
    *,
    message: VerdictMessage,
    now_ms: int,
) -> None:
    # Anything but a tick is a late duplicate of an answer already sent: ignored on purpose.
    keep_ms = retention_s(ctx.settings.kafka.gather_deadline_s) * 1000
    if message.kind is GatherKind.TICK and status.done_ms is not None and now_ms >= status.done_ms + keep_ms:
        state.forget(answer_id)
    else:
        ctx.counts["late_duplicates"] += message.kind is not GatherKind.TICK


def _merge(
    state: GatherState, status: GatherStatus | None, message: VerdictMessage, *, now_ms: int
) -> GatherStatus:
    base = status or GatherStatus(first_ms=now_ms, shadow=message.shadow, ingest_ms=message.ingest_ms)
    update: dict[str, Any] = {"expected": max(base.expected, message.expected)}
    if message.plan is not None:
        state.put_plan(message.answer_id, message.plan)
        update["has_plan"] = True
    if message.checked is not None:
        state.put_verdicts(
            message.answer_id, Checked(claims=message.checked, ledger=message.ledger or Ledger())
        )
        new = [c.claim.id for c in message.checked if c.claim.id not in base.seen]
        if new:
            update["seen"] = (*base.seen, *dict.fromkeys(new))
    return base.model_copy(update=update)


async def _on_deadline(
    ctx: AgentContext, state: GatherState, answer_id: str, status: GatherStatus, *, now_ms: int
) -> None:
    deadline_s = ctx.settings.kafka.gather_deadline_s
    if now_ms < status.first_ms + deadline_s * 1000:
        return
    if status.has_plan:
        with consume_span(STAGE, status.trace, answer_id=answer_id):
            await _complete(ctx, state, answer_id, status, missing=True)
    elif now_ms >= status.first_ms + ORPHAN_DEADLINES * deadline_s * 1000:
        reason = f"{len(status.seen)} verdict(s) arrived but the plan never did"
        raw = orjson.dumps({"id": answer_id, "status": status.model_dump(mode="json")})
        exc = InvalidMessage(reason, kind="plan_missing")
        await send_dead_letter(ctx, raw, exc=exc, stage=STAGE, headers={}, answer_id=answer_id)
        state.close(answer_id, status, now_ms=now_ms, outcome="plan_missing")


async def _complete(
    ctx: AgentContext, state: GatherState, answer_id: str, status: GatherStatus, *, missing: bool
) -> None:
    plan = state.plan(answer_id)
    checked = _checked_claims(ctx, state, plan, answer_id)
    try:
        corrected = await with_retries(
            lambda: ctx.blocking(ctx.pipeline.finish, plan, checked), policy=ctx.retry, what="finish"
        )
        await emit_corrected(
            ctx, corrected, shadow=status.shadow, ingest_ms=status.ingest_ms, answer=plan.answer
        )
    except Exception as exc:
        await fail_open(
            ctx,
            plan.answer.to_json(),
            plan.answer,
            exc=exc,
            stage=STAGE,
            shadow=status.shadow,
            headers={},
            ingest_ms=status.ingest_ms,
        )
    state.close(answer_id, status, now_ms=ctx.now_ms(), outcome="deadline" if missing else "complete")
    ctx.counts["gathered_after_deadline" if missing else "gathered"] += 1


def _checked_claims(ctx: AgentContext, state: GatherState, plan: Plan, answer_id: str) -> list[Checked]:
    """The verdicts that arrived, and the missing ones as UNVERIFIED with the deadline as the fallback."""
    found = [(task, state.verdict(answer_id, task.claim.id)) for task in plan.tasks]
    checked = [c for _, c in found if c is not None]
    absent = [task for task, c in found if c is None]
    if absent:
        deadline_s = ctx.settings.kafka.gather_deadline_s
        checked.append(
            ctx.pipeline.unanswered(
                absent,
                reason=f"no verdict within the {deadline_s:g} s gather deadline",
                fallback=f"gather deadline: {len(absent)} of {len(plan.tasks)} verdicts missing",
            )
        )
    return checked


async def send_tick(ctx: AgentContext, answer_id: str) -> None:
    """Ask the owner of `answer_id`'s partition to check its deadline, inside the stream."""
    message = VerdictMessage(kind=GatherKind.TICK, answer_id=answer_id, worker=ctx.worker)
    await send_json(
        ctx,
        ctx.topics.verdicts,
        key=answer_id,
        value=message.to_json(),
        schema=message.schema_version,
        headers=ingest_header(0),
    )


@dataclass
class TickThrottle:
    """Remembers recent ticks so an overdue answer is not ticked on every timer beat."""

    every_s: float
    _sent: dict[str, float] = field(default_factory=dict)

    def should_send(self, answer_id: str, *, now: float) -> bool:
        last = self._sent.get(answer_id)
        if last is not None and now - last < self.every_s:
            return False
        self._sent[answer_id] = now
        if len(self._sent) > 100_000:
            self._sent = {k: t for k, t in self._sent.items() if now - t < self.every_s}
        return True

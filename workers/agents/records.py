"""The stream's own records between the agents: claim.v2 (claims topic) and verdict.v2 (verdicts topic).

Usage::

    value = ClaimMessage(answer_id="a1", expected=3, tasks=plan.tasks[:2]).to_json()
    message = VerdictMessage.from_json(raw)    # raises InvalidMessage with a readable reason

Both are internal to the stream (`schemas/claim.v2.json`, `verdict.v2.json`), and each still reads the
v1 record before it (one claim a record), so records an older worker left in a topic are not lost in
a rolling upgrade.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Literal, Self

from pydantic import Field, model_validator

from workers.messages import (
    CheckedClaim,
    ClaimTask,
    Ledger,
    Plan,
    _Frozen,
    _NonNegFloat,
)

__all__ = ["STREAM_SCHEMA_VERSIONS", "ClaimMessage", "GatherKind", "VerdictMessage"]

STREAM_SCHEMA_VERSIONS = {"claim": "claim.v2", "verdict": "verdict.v2"}


def _upgrade(data: Any, *, old: str, new: str, one: str, many: str) -> Any:
    """A record of the version before (one claim per record, in `one`) read as `new` (`many`, a list).

    So a rolling upgrade loses nothing: records written by the old workers are still in the topics.
    """
    if not isinstance(data, dict) or data.get("schema_version") != old:
        return data
    out = {k: v for k, v in data.items() if k != one} | {"schema_version": new}
    if data.get(one) is not None:
        out[many] = [data[one]]
    return out


class ClaimMessage(_Frozen):
    """claim.v2 (claims topic, keyed `answer id/first claim id`): some of one answer's claims, each with
    all its verification needs; at most `kafka.claims_per_record` of them, so a long answer still
    spreads over the verification replicas. A claim.v1 record (one `task`) is read as one of these.
    """

    schema_version: Literal["claim.v2"] = "claim.v2"
    answer_id: str = Field(min_length=1, max_length=256)
    tenant: str | None = None
    expected: int = Field(ge=1)
    tasks: tuple[ClaimTask, ...] = Field(min_length=1)
    shadow: bool = False
    ingest_ms: int = Field(0, ge=0)
    # LLM seconds the answer already spent in extraction, so verification keeps to the answer's budget.
    llm_s: _NonNegFloat = 0.0

    @model_validator(mode="before")
    @classmethod
    def _read_v1(cls, data: Any) -> Any:
        return _upgrade(data, old="claim.v1", new="claim.v2", one="task", many="tasks")


class GatherKind(StrEnum):
    PLAN = "plan"
    VERDICT = "verdict"
    TICK = "tick"


class VerdictMessage(_Frozen):
    """verdict.v2 (verdicts topic, keyed by answer id): everything the correction agent gathers.

    `plan` comes from extraction once per answer, `verdict` from verification once per claim record
    (its claims' verdicts in `checked`), and `tick` from the correction agent's own deadline timer, so
    deadlines are handled in the stream. A verdict.v1 record (one claim's `checked`) is read as one.
    """

    schema_version: Literal["verdict.v2"] = "verdict.v2"
    kind: GatherKind
    answer_id: str = Field(min_length=1, max_length=256)
    expected: int = Field(0, ge=0)
    shadow: bool = False
    ingest_ms: int = Field(0, ge=0)
    plan: Plan | None = None
    checked: tuple[CheckedClaim, ...] | None = Field(None, min_length=1)
    # The verification phase's cost for these claims (kind verdict).
    ledger: Ledger | None = None
    worker: str | None = Field(None, max_length=256)

    @model_validator(mode="before")
    @classmethod
    def _read_v1(cls, data: Any) -> Any:
        return _upgrade(data, old="verdict.v1", new="verdict.v2", one="checked", many="checked")

    @model_validator(mode="after")
    def _payload_matches_kind(self) -> Self:
        if (self.plan is not None) != (self.kind is GatherKind.PLAN):
            raise ValueError("`plan` is required for kind plan and not allowed otherwise")
        if (self.checked is not None) != (self.kind is GatherKind.VERDICT):
            raise ValueError("`checked` is required for kind verdict and not allowed otherwise")
        if self.plan is not None and not self.plan.tasks:
            raise ValueError("a plan on the verdicts topic has at least one task")
        return self

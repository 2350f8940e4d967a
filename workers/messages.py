"""Frozen message models matching `schemas/*.json`, and the internal records the stages pass along.

Usage::

    answer = Answer.from_json(raw_bytes)      # raises InvalidMessage with a readable reason
    out: Corrected = pipeline.process(answer)
    producer.send(out.to_json())              # orjson bytes

Floats reject NaN and infinity everywhere, so every message is valid JSON.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Any, Literal, Self

import orjson
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from workers.citations import Found
from workers.errors import InvalidMessage

__all__ = [
    "SCHEMA_VERSIONS",
    "Action",
    "Answer",
    "CheckedClaim",
    "CitationAction",
    "CitationResult",
    "CitationSpan",
    "CitationVerdict",
    "Claim",
    "ClaimResult",
    "ClaimTask",
    "Corrected",
    "DeadLetter",
    "Document",
    "Evidence",
    "Judgement",
    "Query",
    "QueryKind",
    "ReviewRequest",
    "Route",
    "SlotFix",
    "StageUsage",
    "Stakes",
    "Stats",
    "Verdict",
    "read_output",
    "read_review",
]

SCHEMA_VERSIONS = {
    "answer": "answer.v1",
    "corrected": "corrected.v1",
    "deadletter": "deadletter.v1",
    "review": "review.v1",
}


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, use_enum_values=False)

    def to_json(self) -> bytes:
        return orjson.dumps(self.model_dump(mode="json", exclude_none=True))

    @classmethod
    def from_json(cls, raw: bytes | str) -> Self:
        try:
            return cls.model_validate(orjson.loads(raw))
        except orjson.JSONDecodeError as exc:
            raise InvalidMessage(f"invalid JSON: {exc}", kind="invalid_json") from exc
        except ValidationError as exc:
            raise InvalidMessage(f"schema violation: {_first_error(exc)}", kind="schema") from exc


def _first_error(exc: ValidationError) -> str:
    errors = exc.errors()
    first = errors[0]
    where = ".".join(str(p) for p in first["loc"]) or "<root>"
    more = f" (+{len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {first['msg']}{more}"


class Stakes(StrEnum):
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"


class Verdict(StrEnum):
    """A claim's final status: VERIFIED needs both tiers to pass."""

    VERIFIED = "VERIFIED"
    CONTRADICTED = "CONTRADICTED"
    UNVERIFIED = "UNVERIFIED"


class Judgement(StrEnum):
    """Tier 2's verdict on one claim against its evidence."""

    SUPPORT = "SUPPORT"
    CONTRADICT = "CONTRADICT"
    NEUTRAL = "NEUTRAL"
    INSUFFICIENT = "INSUFFICIENT"


class Action(StrEnum):
    KEEP = "KEEP"
    REPLACE = "REPLACE"
    REMOVE = "REMOVE"
    FLAG = "FLAG"


class Route(StrEnum):
    FULL = "full"
    FAST_PATH = "fast_path"
    SAMPLED_OUT = "sampled_out"
    SEMANTIC_CACHE = "semantic_cache"
    REVIEW_APPROVED = "review_approved"


class QueryKind(StrEnum):
    DIRECT = "direct"
    CONTEXT = "context"
    CONTRADICTION = "contradiction"


# ---- input -------------------------------------------------------------------------------------


class Document(_Frozen):
    id: str = Field(min_length=1, max_length=256)
    text: str
    title: str | None = None
    source: str | None = None


class CitationSpan(_Frozen):
    """A structured citation: `answer[start:end]` rests on the documents `doc_ids`."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    doc_ids: tuple[Annotated[str, Field(min_length=1, max_length=256)], ...] = Field(min_length=1)


class Answer(_Frozen):
    """answer.v1: a generated answer with the documents it was generated from."""

    id: str = Field(min_length=1, max_length=256)
    query: str
    answer: str
    documents: tuple[Document, ...] = ()
    tenant: str | None = Field(None, max_length=128)
    domain: str | None = Field(None, max_length=64)
    stakes: Stakes | None = None
    metadata: dict[str, Any] | None = None
    # Optional (answer.v1 is unchanged for producers that do not cite); inline markers need no field.
    citations: tuple[CitationSpan, ...] = ()


# ---- stage records -----------------------------------------------------------------------------


class Claim(_Frozen):
    """An atomic claim; `answer[start:end] == text`. `sentence` groups claims corrected as a unit."""

    id: str
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    sentence: int = Field(0, ge=0)
    sentence_start: int = Field(0, ge=0)
    sentence_end: int = Field(0, ge=0)
    claim_type: str = "general"
    # The claim readable on its own ("It orbits ..." -> "The Hubble Space Telescope orbits ..."), for
    # retrieval and checking only; offsets and corrections always use `text`. None: `text` stands alone.
    standalone: str | None = None


class Query(_Frozen):
    kind: QueryKind
    text: str


class Evidence(_Frozen):
    """A window of one document; `document.text[start:end] == text`."""

    doc_id: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    score: float = 0.0


class ClaimTask(_Frozen):
    """Everything verification needs for one claim, so verification is stateless."""

    claim: Claim
    queries: tuple[Query, ...] = ()
    candidates: tuple[Evidence, ...] = ()
    similarity: float = 0.0
    threshold: float = 0.82


class SlotFix(_Frozen):
    """A supported value to put in place of `claim.text[start:end]`."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    wrong: str
    right: str
    evidence_doc_id: str | None = None


class CheckedClaim(_Frozen):
    """A claim after both verification tiers."""

    claim: Claim
    verdict: Verdict
    judgement: Judgement
    similarity: float
    evidence: tuple[Evidence, ...] = ()
    reason: str
    fixes: tuple[SlotFix, ...] = ()
    confidence: float = Field(0.5, ge=0.0, le=1.0)
    verifier: str = "offline"


# ---- output ------------------------------------------------------------------------------------


class ClaimResult(_Frozen):
    id: str
    text: str
    start: int = Field(ge=0)
    end: int = Field(ge=0)
    verdict: Verdict
    judgement: Judgement
    similarity: float
    evidence: tuple[Evidence, ...] = ()
    reason: str
    action: Action
    replacement: str | None = None


_NonNegFloat = Annotated[float, Field(ge=0.0)]
_NonNegInt = Annotated[int, Field(ge=0)]


class StageUsage(_Frozen):
    """One stage's LLM spend for one answer: requests sent, tokens from each response's usage, cost."""

    calls: _NonNegInt = 0
    tokens_in: _NonNegInt = 0
    tokens_out: _NonNegInt = 0
    cost_usd: _NonNegFloat = 0.0

    def __add__(self, other: StageUsage) -> StageUsage:
        return StageUsage(
            calls=self.calls + other.calls,
            tokens_in=self.tokens_in + other.tokens_in,
            tokens_out=self.tokens_out + other.tokens_out,
            cost_usd=round(self.cost_usd + other.cost_usd, 8),
        )


class Stats(_Frozen):
    stage_ms: dict[str, _NonNegFloat] = Field(default_factory=dict)
    llm_calls: _NonNegInt = 0
    tokens_in: _NonNegInt = 0
    tokens_out: _NonNegInt = 0
    cost_usd: _NonNegFloat = 0.0
    cache_hits: dict[str, _NonNegInt] = Field(default_factory=dict)
    fallback: str | None = None
    # Per stage (extraction, verification, correction); absent when no LLM stage ran.
    llm_stages: dict[str, StageUsage] | None = None
    # Claims sent to the LLM verifier (all of them, or those in the offline verifier's uncertain band).
    escalated: _NonNegInt = 0


class CitationVerdict(StrEnum):
    """Whether a citation's documents support the span it is attached to, as written."""

    SUPPORTED = "SUPPORTED"
    PARTIAL = "PARTIAL"
    UNSUPPORTED = "UNSUPPORTED"


class CitationAction(StrEnum):
    KEEP = "KEEP"
    REPOINT = "REPOINT"
    REMOVE = "REMOVE"
    ADD = "ADD"


class CitationResult(_Frozen):
    """One citation checked and repaired; `start:end` is its span in the original answer."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    # As cited; a reference that names no document is kept as written.
    doc_ids: tuple[str, ...] = ()
    verdict: CitationVerdict
    # Documents found to support the span as written, the cited ones first.
    supporting_doc_ids: tuple[str, ...] = ()
    action: CitationAction = CitationAction.KEEP
    # What the citation points to in the corrected answer; empty when removed.
    repaired_doc_ids: tuple[str, ...] = ()
    # The inline marker as written and what replaced it ("" when removed); absent for structured ones.
    marker: str | None = None
    replacement: str | None = None
    # The sentence was flagged because no document supports it.
    flagged: bool = False
    reason: str = ""


class Corrected(_Frozen):
    """corrected.v1: the answer as it reaches users, with every decision explained."""

    schema_version: Literal["corrected.v1"] = "corrected.v1"
    id: str
    tenant: str | None = None
    original: str
    corrected: str
    route: Route
    claims: tuple[ClaimResult, ...] = ()
    needs_review: bool = False
    review_reasons: tuple[str, ...] = ()
    stats: Stats = Stats()
    citations: tuple[CitationResult, ...] = ()


class ReviewRequest(_Frozen):
    """review.v1 (review topic, keyed by answer id): an answer held for a person, and what they need.

    The corrected answer plus the input's query, domain, stakes and documents, so a reviewer sees each
    evidence span inside its document. `documents` is empty when the record would be too large with them.
    Readers of the review topic also accept a bare corrected.v1 record (written before review.v1).
    """

    schema_version: Literal["review.v1"] = "review.v1"
    # Repeated from `corrected` so every record of the stream has a top-level `id` (consumers key on it).
    id: str
    tenant: str | None = None
    corrected: Corrected
    query: str = ""
    domain: str | None = None
    stakes: Stakes | None = None
    documents: tuple[Document, ...] = ()

    @model_validator(mode="after")
    def _ids_match(self) -> Self:
        if (self.id, self.tenant) != (self.corrected.id, self.corrected.tenant):
            raise ValueError("`id` and `tenant` must be those of `corrected`")
        return self

    @classmethod
    def for_answer(cls, corrected: Corrected, answer: Answer | None) -> ReviewRequest:
        if answer is None:
            return cls(id=corrected.id, tenant=corrected.tenant, corrected=corrected)
        return cls(
            id=corrected.id,
            tenant=corrected.tenant,
            corrected=corrected,
            query=answer.query,
            domain=answer.domain,
            stakes=answer.stakes,
            documents=answer.documents,
        )


def read_review(raw: bytes | str) -> ReviewRequest:
    """A review topic record: review.v1, or a bare corrected.v1 (no documents) as written before it."""
    try:
        obj = orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise InvalidMessage(f"invalid JSON: {exc}", kind="invalid_json") from exc
    if isinstance(obj, dict) and obj.get("schema_version") == "review.v1":
        return ReviewRequest.from_json(raw)
    return ReviewRequest.for_answer(Corrected.from_json(raw), None)


def read_output(raw: bytes | str) -> Corrected:
    """The corrected answer in a record of the output, shadow or review topic."""
    return read_review(raw).corrected


class DeadLetter(_Frozen):
    """deadletter.v1: why an input could not be processed, and the input itself."""

    schema_version: Literal["deadletter.v1"] = "deadletter.v1"
    id: str | None = None
    reason: str
    kind: str
    stage: str
    original: str
    original_encoding: Literal["utf-8", "base64"] = "utf-8"
    original_size: int = Field(0, ge=0)
    truncated: bool = False
    line: int | None = Field(None, ge=1)
    headers: dict[str, str] = Field(default_factory=dict)


# ---- what the pipeline's phases pass between agents (their records: workers/agents/records.py) ----

__all__ += [
    "Checked",
    "Ledger",
    "Plan",
    "RouteInfo",
]


class RouteInfo(_Frozen):
    """The routing decision as it travels between agents (`stages.route.RouteDecision` as data)."""

    route: Route
    complexity: float
    stakes: float
    reason: str = ""


class Ledger(_Frozen):
    """What one phase of one answer cost: `Pipeline.finish` adds the phases' ledgers up into `Stats`.

    Each phase returns its own, so an answer corrected on three replicas is accounted like one corrected
    in one process. `llm_s` is the wall-clock time the phase spent in LLM stages (the answer's budget).
    """

    stage_ms: dict[str, _NonNegFloat] = Field(default_factory=dict)
    cache_hits: dict[str, _NonNegInt] = Field(default_factory=dict)
    llm_stages: dict[str, StageUsage] = Field(default_factory=dict)
    fallbacks: tuple[str, ...] = ()
    escalated: _NonNegInt = 0
    llm_s: _NonNegFloat = 0.0

    def __add__(self, other: Ledger) -> Ledger:
        return Ledger(
            stage_ms=_sum_dicts(self.stage_ms, other.stage_ms, lambda a, b: round(a + b, 3)),
            cache_hits=_sum_dicts(self.cache_hits, other.cache_hits, lambda a, b: a + b),
            llm_stages=_sum_dicts(self.llm_stages, other.llm_stages, lambda a, b: a + b),
            fallbacks=self.fallbacks + other.fallbacks,
            escalated=self.escalated + other.escalated,
            llm_s=round(self.llm_s + other.llm_s, 6),
        )


def _sum_dicts(a: dict[str, Any], b: dict[str, Any], add: Any) -> dict[str, Any]:
    return {k: add(a[k], b[k]) if k in a and k in b else a.get(k, b.get(k)) for k in a | b}


class Plan(_Frozen):
    """`Pipeline.prepare`'s result: the route, one task per claim, the citations parsed once, the cost.

    `done` is set when the semantic cache already had the answer, or the route needs no verification
    (then `tasks` is empty). A plan too large for one record sends its documents by reference
    (`documents_ref`, a tenant-scoped cache key with a TTL) and `Pipeline.finish` resolves them.
    """

    answer: Answer
    route: RouteInfo
    tasks: tuple[ClaimTask, ...] = ()
    citations: Found | None = None
    ledger: Ledger = Ledger()
    done: Corrected | None = None
    documents_ref: str | None = Field(None, max_length=1024)


class Checked(_Frozen):
    """`Pipeline.verify`'s result: the verdicts of some tasks (any subset, any replica) and their cost."""

    claims: tuple[CheckedClaim, ...] = ()
    ledger: Ledger = Ledger()

"""Per-answer LLM accounting: calls, tokens and cost by stage, and why a stage fell back.

The LLM components record into the ledger of the current context; each pipeline phase opens its own
and returns it as a `messages.Ledger`, which `Pipeline.finish` folds into `Corrected.stats`. Without
an open ledger, recording is a no-op, so the components also work on their own. Light on purpose:
importing it does not import `openai`.

Usage::

    with usage_scope(fresh=True) as ledger:          # each pipeline phase opens its own
        ...                                          # components call record(...) / record_fallback(...)
    ledger.snapshot(stage_ms=ms, cache_hits=hits, spent_s=0.0)   # the phase's messages.Ledger
    with llm_stage(budget_s=120.0) as deadline: ...  # one stage timed against the answer's LLM budget

    warn_if_self_verifying(answer, models)           # logs a warning: verifier == the answer's generator
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from workers.messages import Answer, Ledger, StageUsage, Stats
from workers.settings import ModelSettings

__all__ = [
    "Usage",
    "UsageLedger",
    "current_ledger",
    "llm_stage",
    "price_of",
    "record",
    "record_escalated",
    "record_fallback",
    "usage_scope",
    "warn_if_self_verifying",
]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Usage:
    """What some LLM requests cost; `calls` counts requests sent, tokens come from the responses."""

    calls: int = 0
    tokens_in: int = 0
    tokens_out: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.calls + other.calls,
            self.tokens_in + other.tokens_in,
            self.tokens_out + other.tokens_out,
            self.cost_usd + other.cost_usd,
        )


def price_of(model: str, tokens_in: int, tokens_out: int, prices: Mapping[str, tuple[float, float]]) -> float:
    """USD for the tokens at the per-1M prices; 0.0 for an unknown model or a non-finite price."""
    p_in, p_out = prices.get(model, (0.0, 0.0))
    cost = (tokens_in * p_in + tokens_out * p_out) / 1_000_000
    return cost if math.isfinite(cost) and cost > 0 else 0.0


class UsageLedger:
    """Thread-safe: verification chunks may finish on other threads."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stages: dict[str, Usage] = {}
        self._fallbacks: list[str] = []
        self._escalated = 0
        self._llm_s = 0.0

    def escalate(self, claims: int) -> None:
        """Count claims sent to the LLM verifier."""
        with self._lock:
            self._escalated += claims

    @property
    def escalated(self) -> int:
        with self._lock:
            return self._escalated

    @property
    def llm_seconds(self) -> float:
        """Wall-clock seconds the answer's LLM stages have taken so far."""
        with self._lock:
            return self._llm_s

    def add_seconds(self, seconds: float) -> None:
        with self._lock:
            self._llm_s += max(0.0, seconds)

    def add(self, stage: str, usage: Usage) -> None:
        with self._lock:
            self._stages[stage] = self._stages.get(stage, Usage()) + usage

    def fallback(self, stage: str, reason: str) -> None:
        with self._lock:
            self._fallbacks.append(f"{stage}: {reason}")

    @property
    def total(self) -> Usage:
        with self._lock:
            return sum(self._stages.values(), Usage())

    @property
    def fallbacks(self) -> tuple[str, ...]:
        with self._lock:
            return tuple(self._fallbacks)

    def stages(self) -> dict[str, Usage]:
        with self._lock:
            return dict(self._stages)

    def merge_into(self, stats: Stats) -> Stats:
        """`stats` plus this ledger; unchanged when nothing was recorded."""
        stages, reasons, escalated = self.stages(), self.fallbacks, self.escalated
        if not stages and not reasons and not escalated:
            return stats
        total = sum(stages.values(), Usage())
        by_stage = dict(stats.llm_stages or {}) | {k: _stage_usage(v) for k, v in stages.items()}
        fallback = "; ".join(r for r in (stats.fallback, *reasons) if r) or None
        return stats.model_copy(
            update={
                "llm_calls": stats.llm_calls + total.calls,
                "tokens_in": stats.tokens_in + total.tokens_in,
                "tokens_out": stats.tokens_out + total.tokens_out,
                "cost_usd": round(stats.cost_usd + total.cost_usd, 8),
                "fallback": fallback,
                "llm_stages": by_stage or None,
                "escalated": stats.escalated + escalated,
            }
        )

    def snapshot(
        self, *, stage_ms: Mapping[str, float], cache_hits: Mapping[str, int], spent_s: float
    ) -> Ledger:
        """This phase's `Ledger`: what was recorded here, with the phase's timings and cache hits;
        `spent_s` (LLM seconds spent before the phase, added for the budget) is not counted again."""
        return Ledger(
            stage_ms=dict(stage_ms),
            cache_hits=dict(cache_hits),
            llm_stages={k: _stage_usage(v) for k, v in self.stages().items()},
            fallbacks=self.fallbacks,
            escalated=self.escalated,
            llm_s=round(max(0.0, self.llm_seconds - spent_s), 6),
        )


def _stage_usage(u: Usage) -> StageUsage:
    return StageUsage(
        calls=u.calls, tokens_in=u.tokens_in, tokens_out=u.tokens_out, cost_usd=round(u.cost_usd, 8)
    )


_CURRENT: ContextVar[UsageLedger | None] = ContextVar("woodpecker_llm_usage", default=None)


@contextmanager
def usage_scope(*, fresh: bool = False) -> Iterator[UsageLedger]:
    """Open a ledger for one answer; a scope nested inside another shares the outer ledger unless
    `fresh` (each pipeline phase keeps its own, and returns it in its ledger)."""
    outer = _CURRENT.get()
    if outer is not None and not fresh:
        yield outer
        return
    ledger = UsageLedger()
    token = _CURRENT.set(ledger)
    try:
        yield ledger
    finally:
        _CURRENT.reset(token)


def current_ledger() -> UsageLedger | None:
    return _CURRENT.get()


@contextmanager
def llm_stage(budget_s: float | None) -> Iterator[float | None]:
    """Time one LLM stage of the answer against the answer's budget; yields the `time.monotonic()`
    deadline for its requests (None: no budget, or no ledger open)."""
    ledger = _CURRENT.get()
    if ledger is None or budget_s is None:
        yield None
        return
    start = time.monotonic()
    try:
        yield start + budget_s - ledger.llm_seconds
    finally:
        ledger.add_seconds(time.monotonic() - start)


def record_escalated(claims: int) -> None:
    ledger = _CURRENT.get()
    if ledger is not None and claims:
        ledger.escalate(claims)


def record(stage: str, usage: Usage) -> None:
    ledger = _CURRENT.get()
    if ledger is not None and usage.calls:
        ledger.add(stage, usage)


def record_fallback(stage: str, reason: str) -> None:
    # "; " separates the stages in Stats.fallback (metrics split on it), so a reason never holds one.
    reason = " ".join(reason.replace(";", ",").split())[:300]
    log.warning("LLM %s fell back to the offline backend: %s", stage, reason)
    ledger = _CURRENT.get()
    if ledger is not None:
        ledger.fallback(stage, reason)


def warn_if_self_verifying(answer: Answer, models: ModelSettings) -> bool:
    """Warn when the LLM verifier is the model that generated the answer (it tends to agree with itself)."""
    if models.verification.backend != "openai":
        return False
    meta = answer.metadata or {}
    generator = meta.get("generator") or meta.get("model")
    if not isinstance(generator, str) or _bare(generator) != _bare(models.verification.model):
        return False
    log.warning(
        "answer %s: the verifier model %r is the answer's generator; use a different model to verify",
        answer.id,
        models.verification.model,
    )
    return True


def _bare(model: str) -> str:
    # "openai/gpt-4o-mini" and "GPT-4o-mini" name the same model.
    return model.strip().lower().rsplit("/", 1)[-1]

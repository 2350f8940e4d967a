"""The backend interfaces the stages are given. Stages import these, never a backend.

Usage::

    def retrieve(..., embedder: Embedder) -> ...:
        vectors = embedder.encode(["a sentence", "another"])   # (n, dim) float32, L2-normalised
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

from workers.messages import Answer, CheckedClaim, Claim, Evidence, Judgement, Query, SlotFix

__all__ = ["CheckResult", "ClaimExtractor", "ClaimRewriter", "Embedder", "Vectors", "VerdictComponent"]

Vectors = npt.NDArray[np.float32]


@runtime_checkable
class Embedder(Protocol):
    """Text to L2-normalised float32 vectors; the same text always gives the same vector."""

    @property
    def model_id(self) -> str: ...

    def encode(self, texts: Sequence[str]) -> Vectors: ...


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Tier 2 on one claim: the label, the span it rests on, why, and any supported values."""

    label: Judgement
    reason: str
    evidence: Evidence | None = None
    fixes: tuple[SlotFix, ...] = ()
    confidence: float = 0.5
    extra: dict[str, float] = field(default_factory=dict)


@runtime_checkable
class VerdictComponent(Protocol):
    """Judges claims against evidence windows; offline rules, a trained model or an LLM."""

    @property
    def name(self) -> str: ...

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]: ...


@runtime_checkable
class ClaimExtractor(Protocol):
    """Stages 1+2 for one answer: claims (`answer.answer[c.start:c.end] == c.text`) with their queries.
    The default is the pure extract + decompose stages; an LLM does both in one round trip."""

    def extract(self, answer: Answer) -> list[tuple[Claim, tuple[Query, ...]]]: ...


@runtime_checkable
class ClaimRewriter(Protocol):
    """Before correction: may add fixes to contradicted claims; returns the claims in the same order."""

    def rewrite(self, answer: Answer, checked: Sequence[CheckedClaim]) -> list[CheckedClaim]: ...

"""Stage 5, correction: REPLACE contradicted claims, REMOVE unsupported contradictions, FLAG unverified.

Pure. Edits apply from the end of the text so offsets hold; the claims of one sentence are corrected
as a unit so the result reads as prose.

Usage::

    outcome = correct(answer.answer, checked, settings=settings.correction, high_stakes=False)
    outcome.text, outcome.claims, outcome.needs_review
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workers.messages import CheckedClaim, ClaimResult
from workers.settings import CorrectionSettings

__all__ = ["CorrectionOutcome", "correct"]


@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    text: str
    claims: tuple[ClaimResult, ...]
    needs_review: bool
    review_reasons: tuple[str, ...] = ()


def correct(
    answer: str,
    checked: Sequence[CheckedClaim],
    *,
    settings: CorrectionSettings,
    high_stakes: bool = False,
) -> CorrectionOutcome:
    raise NotImplementedError

"""Stage 1, fact extraction: atomic, checkable claims with character offsets. Pure: no I/O.

Usage::

    claims = extract_claims("Revenue rose 12% in 2023. We recommend reviewing Section 4.", max_claims=50)
    # one claim; "We recommend ..." is procedural, not a claim
"""

from __future__ import annotations

from workers.messages import Claim

__all__ = ["extract_claims", "split_sentences"]


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; survives abbreviations, figures like "$4.2 bn." and lists."""
    raise NotImplementedError


def extract_claims(answer: str, *, max_claims: int = 200) -> list[Claim]:
    """Atomic claims, `answer[c.start:c.end] == c.text`, ids `c0, c1, ...` in text order."""
    raise NotImplementedError

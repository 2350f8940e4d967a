"""Stage 2, query decomposition: per claim a direct, a context and a contradiction query. Pure.

Usage::

    queries = decompose(claim, question="What was revenue growth?")
"""

from __future__ import annotations

from workers.messages import Claim, Query

__all__ = ["decompose"]


def decompose(claim: Claim, *, question: str = "") -> tuple[Query, ...]:
    """Direct lookup, context check, and a contradiction search with the key slot left open."""
    raise NotImplementedError

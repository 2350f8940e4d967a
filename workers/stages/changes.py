"""Whether a figure is a change, an increment or a difference rather than a level. Pure.

"rose by $10m to $110m" is not corrected to "from $100m", "Orion added 500,000 subscribers" is not
made the window's "11.9 million", "its deductible is $2,000 lower" is not made "$455": the aligner
(`stages.align`) pairs a change only with a change, and a figure the claim works out with a word
like these is its own (`stages.derived`).

Usage::

    read = align.Parsed.of("Revenue grew by roughly $510 million.")
    changed_by(read, read.values[0])    # True
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Protocol

from workers.stages.movements import movement_words
from workers.stages.slot_types import AMOUNTS, Slot


class Parsed(Protocol):
    """What is read of a text here: `stages.align.Parsed`, which imports this module."""

    @property
    def text(self) -> str: ...

    def anchor(self, slot: Slot) -> str | None: ...

    def segment_of(self, pos: int) -> tuple[int, int]: ...


__all__ = ["changed_by"]

# Before a figure that is a change or an increment: "rose by 2%", "added 500,000 subscribers", "another
# seven years", "an extra €21".
_ADDED = frozenset({"by", "added", "adds", "adding", "further", "extra", "additional"})
_ANOTHER = re.compile(r"\banother\s+\Z", re.IGNORECASE)
# After a figure, a word that makes it a difference: "$2,000 lower", "$74 more per month", "6 minutes 37
# seconds behind" (not a bound: "50 or more", "65 and older").
_COMPARED = re.compile(
    r"(?:\s+(?!(?:or|and|times|as)\b)[a-z]+){0,2}?\s+(?:more|less|fewer|lower|higher|cheaper|dearer|greater"
    r"|smaller|larger|bigger|longer|shorter|heavier|lighter|ahead|behind|earlier|faster|slower)\b"
    # ... said of the figure, not of a noun after it ("the 45% higher rate", "more severe symptoms")
    r"(?=\s*(?:[.,;:)]|\Z|(?:than|per|a|an|each|every|in|on|for|at|over|with|the|this|that|of|from|to)\b))",
    re.IGNORECASE,
)


def changed_by(read: Parsed, slot: Slot) -> bool:
    """Whether a figure is a change, not a level: after "by" or a verb of rising or falling ("rose by
    2%", "gained 150 points"; not "contracted 500 nurses"), or an increment ("added 500,000", "another
    seven years"); "rose from 100 to 110" gives two levels."""
    if slot.kind not in AMOUNTS:
        return False
    start = _past_hedge(read, slot).start
    if _ANOTHER.search(read.text, max(0, start - 12), start):  # a determiner, which `anchor` reads past
        return True
    if _COMPARED.match(read.text, slot.end):  # "$2,000 lower", "$74 more per month": a difference
        return True
    word = read.anchor(_past_hedge(read, slot))
    if word is None or word in _ADDED:
        return word is not None
    moved = movement_words(read.text, read.segment_of(slot.start)[0], slot.start)
    return bool(moved) and moved[-1].group(0).lower() == word


def _past_hedge(read: Parsed, slot: Slot) -> Slot:
    """The slot as if it began at its hedge's words ("by roughly $510 million": "by" is its anchor)."""
    words = slot.figure.hedge.words if slot.figure is not None else ""
    if not words or not read.text.startswith(words, slot.start - len(words)):
        return slot
    return replace(slot, start=slot.start - len(words))

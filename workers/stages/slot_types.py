"""The slot types: what the slot reader (`stages.slots`) finds in a sentence. Pure.

Usage::

    Slot(SlotKind.YEAR, "2023", 24, 28, "2023", when=When(2023, None, None, "y"))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from workers.stages.hedges import EXACT, Hedge

__all__ = ["AMOUNTS", "Figure", "Slot", "SlotKind", "When"]


class SlotKind(StrEnum):
    FIGURE = "figure"
    PERCENT = "percent"
    DATE = "date"
    YEAR = "year"
    ENTITY = "entity"
    NEGATION = "negation"
    QUANTIFIER = "quantifier"


# The kinds whose value is an amount: a figure (with its unit, if any) or a percentage.
AMOUNTS = frozenset({SlotKind.FIGURE, SlotKind.PERCENT})


@dataclass(frozen=True, slots=True)
class Figure:
    """A number as written: `prefix + digits + suffix`, so another value can be written the same way."""

    number: float  # with the scale applied: "4.2 bn" -> 4.2e9
    unit: str | None  # canonical: "USD", "%", "kg"; None for a bare count
    decimals: int
    scale: float
    prefix: str
    suffix: str
    grouped: bool  # written with thousands separators
    spelled: bool = False  # a count written as a word ("three managers"): a fix is written so too
    hedge: Hedge = EXACT  # "about 5,000", "over 12,000": a range, not a point (`stages.hedges`)


@dataclass(frozen=True, slots=True)
class When:
    year: int | None
    month: int | None
    day: int | None
    style: str  # "mdy", "dmy", "md", "dm", "my", "iso", "y"


@dataclass(frozen=True, slots=True)
class Slot:
    kind: SlotKind
    value: str
    start: int
    end: int
    text: str
    figure: Figure | None = None
    when: When | None = None

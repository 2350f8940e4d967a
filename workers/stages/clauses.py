"""What a claim's clause and a window's clause share: its words, its dates, its polarity. Pure.

A word said the other way round ("upheld" against "overturned", `stages.outcomes`; "rose" against
"fell", `stages.directions`) contradicts the claim only where the window's clause is about the same
thing at the same time and neither clause denies it; these are those three tests.

Usage::

    claim, window = Parsed.of("Revenue rose in 2023."), Parsed.of("In 2023 revenue fell.")
    restated(claim, window, (0, 22), at=8), same_time(claim, window, (0, 22))   # True, True
    negated(Parsed.of("Revenue did not rise."), (0, 21))                          # True
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from workers.stages.align import Parsed, covered
from workers.stages.slots import SlotKind

__all__ = ["negated", "restated", "same_time", "stems_between"]


def negated(read: Parsed, span: tuple[int, int]) -> bool:
    """Whether a "not" (or "never", "no") stands in `span`."""
    return any(s.kind is SlotKind.NEGATION and span[0] <= s.start < span[1] for s in read.slots)


def same_time(
    claim: Parsed,
    ev: Parsed,
    segment: tuple[int, int],
    *,
    within: tuple[int, int] | None = None,
    fixed: Collection[int] = (),
) -> bool:
    """Whether the window's clause states every year and date of the claim: "convicted in 2015" is
    not the "acquitted in 2017" of a retrial. `within`: the part of the claim whose times count, where
    it gives its own ("Sales fell in January but rose in March": March for the rise); `fixed`: the
    starts of the claim's times a conflict already fixes with the window's (the same event's)."""
    times = {SlotKind.YEAR, SlotKind.DATE}
    theirs = {s.value for s in ev.slots if s.kind in times and segment[0] <= s.start < segment[1]}
    mine = [s for s in claim.slots if s.kind in times and s.start not in fixed]
    own = [s for s in mine if within and within[0] <= s.start < within[1]]
    return all(s.value in theirs for s in own or mine)


def restated(
    claim: Parsed,
    ev: Parsed,
    segment: tuple[int, int],
    *,
    at: int,
    framed: Sequence[tuple[int, int]] = (),
    unsaid: Collection[int] = (),
    within: tuple[int, int] | None = None,
) -> bool:
    """Whether the window's clause holds every content word of the claim's clause but the word at `at`
    (the outcome or the movement said the other way), the words at `unsaid` (the "compared" of
    "Compared with 2021,", which a window says with "than") and the claim's figures and dates;
    `framed`, phrases that frame the clause ("In March,"), count as part of it; `within`, the part
    of the claim's clause to restate where it says more than one thing ("Revenue rose as costs fell")."""
    mine = stems_between(claim, *(within or claim.segment_of(at)), skip=(at, *unsaid))
    spans = [segment, *framed]
    theirs = [t.stem for t in ev.terms if any(lo <= t.start < hi for lo, hi in spans)]
    # a part that says nothing but its movement ("... but fell in 2024") restates trivially
    return covered(mine, theirs) == 1.0 or (within is not None and not mine)


def stems_between(
    read: Parsed, lo: int, hi: int, *, values: bool = False, skip: Collection[int] = ()
) -> list[str]:
    """The content words of read.text[lo:hi] but those at the offsets `skip`, leaving out figures and
    dates (said in other guises) unless `values`."""
    figures = [] if values else [s for s in read.values if s.kind is not SlotKind.ENTITY]
    return [
        t.stem
        for t in read.terms
        if lo <= t.start < hi
        and not any(t.start <= at < t.end for at in skip)
        and not any(s.start <= t.start < s.end for s in figures)
    ]

"""Spans of figures in a claim ("5,000 to 6,000", "rose from 4% to 5%") fixed whole or not at all. Pure.

A claim is fixed whole or not at all in two more ways. Another name of the claim at odds with the
window in a clause like its own, which no rule can fix, leaves every fix a flag (`fixed_whole`):
"signed by John Smith, the CFO" against "signed by Jane Doe, the CEO" was made "Jane Doe, the CFO".
A plain figure outside the range the window gives in its place (`outside_ranges`) is a conflict no
fix can mend ("enrolled 400 patients" against "between 200 and 300"): which end, or the range, is a
guess, so it is flagged. A word of a closed set said as another (`swaps_whole`, `stages.swaps`) is
fixed only where every figure of the claim is found or fixed: "The minimum investment is $5,000"
against "The maximum investment is $1,000" is not made "The maximum investment is $5,000".

The rule checker fixes a claim's figures one by one; a span's two figures are one statement. A fix
of one of them stands only where the other is fixed too or found as stated, both come from one span
of the window, and a range stays in order: "aged 12 to 17" against "6 to 12" (where only the 17
reads as wrong) is flagged, not made "12 to 12".

Usage::

    kept = whole_spans(broken, pairs, claim, window)   # the pairs whose value fixes may stand
    conflicts = fixed_whole(conflicts, pairs, claim, segment, min_context=0.5)  # a value left: no fixes
    outside_ranges(pairs, window, segment, min_context=0.5)  # [Conflict("figure 400 in claim, ...")]
"""

from __future__ import annotations

import itertools
from dataclasses import replace

from workers.backends.shapes import Conflict, fixed_starts, swap_conflicts
from workers.stages.align import Pair, Parsed, next_figure
from workers.stages.hedges import unread_second
from workers.stages.kinds import same_kind
from workers.stages.movements import movement_words
from workers.stages.slots import Slot, SlotKind, values_match
from workers.stages.swaps import denied_nearby

__all__ = ["denied_elsewhere", "fixed_whole", "outside_ranges", "swaps_whole", "whole_spans"]

_RANGES = (("[", "]"), ("(", ")"))


def whole_spans(broken: list[Pair], pairs: list[Pair], claim: Parsed, ev: Parsed) -> list[Pair]:
    """The conflicts whose fixes leave every span of the claim one span of the window's: each figure
    fixed or found (or with no counterpart at all: "5 to 6 percent", the bare 5), both from one span,
    and a range in order. "aged 12 to 17" against "6 to 12" is not made "12 to 12", "lost 98 to 104"
    against "beat them 110 to 98" not "98 to 98", repeat offences' "£2,000 to £4,000" not the first
    offences' "£500 to £1,000", nor "aged 18-65" against "21-70" (65, 70 unread) "21-65"."""
    fixed = {p.slot.start: p.other.figure.number for p in broken if p.other and p.other.figure}
    found = {p.slot.start for p in pairs if p.equal or p.other is None}
    counterpart = {p.slot.start: p.other for p in pairs if p.other is not None}
    ends = [s for s in claim.values if s.figure is not None and s.figure.hedge.mode in "[]()"]
    spoiled = {s.start for s in ends if not _hyphen_whole(s, counterpart.get(s.start), claim, ev)}
    for first, second in itertools.pairwise(ends):
        assert first.figure is not None and second.figure is not None
        kinds = (first.figure.hedge.mode, second.figure.hedge.mode)
        at, to = first.start, second.start
        if kinds not in _RANGES or not {at, to} & fixed.keys():
            continue
        theirs = counterpart.get(at), counterpart.get(to)
        whole = {at, to} <= fixed.keys() | found and _one_span(*theirs, ev)
        whole = whole and not _another_agrees(first, second, theirs, ev)
        ordered = kinds == ("(", ")") or fixed.get(at, first.figure.number) < fixed.get(
            to, second.figure.number
        )
        if not (whole and ordered):
            spoiled |= {at, to}
    return [p for p in broken if p.slot.start not in spoiled]


def _hyphen_whole(slot: Slot, other: Slot | None, claim: Parsed, ev: Parsed) -> bool:
    """Where a hyphen leaves a span's second figure unread (on either side), whether the two second
    figures agree, read from the text: "$5-6 million" against "$4 million to $6 million" may be fixed
    at its first figure, "aged 18-65" against "21-70" may not."""
    mine_lone = slot.figure is not None and slot.figure.hedge.lone
    theirs_lone = other is not None and other.figure is not None and other.figure.hedge.lone
    if not (mine_lone or theirs_lone):
        return True
    if other is None:
        return False
    mine = unread_second(claim.text, slot.end) if mine_lone else _second_of(claim, slot)
    theirs = unread_second(ev.text, other.end) if theirs_lone else _second_of(ev, other)
    return mine is not None and theirs is not None and abs(mine - theirs) <= 1e-9 * max(abs(mine), 1.0)


def _second_of(read: Parsed, slot: Slot) -> float | None:
    second = next_figure(read, slot)
    return second.figure.number if second is not None and second.figure is not None else None


def _one_span(first: Slot | None, second: Slot | None, ev: Parsed) -> bool:
    """Whether two window figures are the two ends of one span (or one of them is missing, or they
    are single figures: "9 votes against and 4 in favour")."""
    if first is None or second is None or "=" in (_mode(first), _mode(second)):
        return True
    values = list(ev.values)
    return first in values and second in values and values.index(second) == values.index(first) + 1


def _mode(slot: Slot) -> str:
    return slot.figure.hedge.mode if slot.figure is not None else "="


def _another_agrees(first: Slot, second: Slot, theirs: tuple[Slot | None, Slot | None], ev: Parsed) -> bool:
    """Whether another span of the window has one of the claim span's figures in its place: the
    claim speaks of that one ("repeat offences ... £2,000 to £4,000" against "£500 to £1,000 ...
    and £2,000 to £5,000"), so the span its fixes come from is the wrong one."""
    spans = [
        (a, b)
        for a, b in itertools.pairwise(ev.values)
        if (_mode(a), _mode(b)) in _RANGES and not {a, b} & {t for t in theirs if t is not None}
    ]
    return any(_same(a, first) or _same(b, second) for a, b in spans)


def _same(a: Slot, b: Slot) -> bool:
    return a.figure is not None and b.figure is not None and a.figure.number == b.figure.number


def fixed_whole(
    conflicts: list[Conflict],
    pairs: list[Pair],
    claim: Parsed,
    segment: tuple[int, int],
    *,
    min_context: float,
) -> list[Conflict]:
    """The conflicts, fixed only where no other name of the claim stays at odds with a name of its kind
    in the window's clause `segment`, read in words like its own (context at least `min_context`);
    else flagged, with the name left named. The subject's name is no such name ("Abraham Weinberg"
    for "Abe Weinberg"), nor a figure or date the aligner would not swap: another unit, another event
    ("served from 2017" and "elected in 2016")."""
    fixes = [f for c in conflicts for f in c.fixes]
    left = [
        p
        for p in pairs
        if p.other is not None
        and segment[0] <= p.other.start < segment[1]
        and p.slot.kind is SlotKind.ENTITY
        and values_match(p.slot, p.other) is False
        and same_kind(p.slot.text, p.other.text)
        and p.context >= min_context
        and not claim.in_subject(p.slot)
        and not any(f.start <= p.slot.start < f.end for f in fixes)
    ]
    if not (fixes and left):
        return conflicts
    odd = ", ".join(f"{p.slot.kind.value} {p.slot.text} in claim, {_text(p.other)} in evidence" for p in left)
    return [replace(c, fixes=()) for c in conflicts] + [Conflict(f"not corrected: {odd}", 0.0)]


def outside_ranges(
    pairs: list[Pair], ev: Parsed, segment: tuple[int, int], *, min_context: float
) -> list[Conflict]:
    """A plain figure of the claim paired with an end of the only range of its unit in the window's
    clause `segment`, and outside it: "enrolled 400 patients" against "between 200 and 300 patients"."""
    found = []
    for p in pairs:
        span = _range_of(p, ev, segment) if p.context >= min_context and not p.equal else None
        if span is None or p.slot.figure is None or span[0].figure is None or span[1].figure is None:
            continue
        mine, lo, hi = p.slot.figure, span[0].figure.number, span[1].figure.number
        step = 10.0**-mine.decimals * mine.scale / 2
        if mine.number < lo - step or mine.number > hi + step:
            said = f"{span[0].text} to {span[1].text}"
            found.append(
                Conflict(f"figure {p.slot.text} in claim, outside {said} in evidence", 0.5 + 0.5 * p.context)
            )
    return found


def _range_of(pair: Pair, ev: Parsed, segment: tuple[int, int]) -> tuple[Slot, Slot] | None:
    """The window's range one of whose ends `pair` found, where it is the only range and holds the only
    figures of the claim figure's unit in the clause (its first end may leave the unit to the second:
    "10 to 20 mg"), and the claim's figure is plain."""
    mine, other = pair.slot.figure, pair.other
    if mine is None or mine.hedge.mode != "=" or other is None:
        return None
    lo, hi = segment
    figures = [s for s in ev.values if s.figure is not None and lo <= s.start < hi]
    ranges = [
        (a, b)
        for a, b in itertools.pairwise(figures)
        if (_mode(a), _mode(b)) in _RANGES and _unit(b) == mine.unit and _unit(a) in (None, mine.unit)
    ]
    alike = [s for s in figures if _unit(s) == mine.unit]
    if len(ranges) != 1 or other not in ranges[0] or not set(alike) <= set(ranges[0]):
        return None
    # "rose from $3 billion to $4 billion" is a change: two levels, each said of its own time
    return None if movement_words(ev.text, lo, ranges[0][0].start) else ranges[0]


def _unit(slot: Slot) -> str | None:
    return slot.figure.unit if slot.figure is not None else None


def _text(slot: Slot | None) -> str:
    return slot.text if slot is not None else ""


def swaps_whole(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], pairs: list[Pair], found: list[Conflict]
) -> list[Conflict]:
    """The claim's words of a closed set said as others in the window's clause `segment`, fixed only
    where every figure of the claim is found or fixed by the conflicts `found`."""
    fixed = fixed_starts(found)
    swaps = swap_conflicts(claim, ev, segment, fixed)
    figures = (SlotKind.FIGURE, SlotKind.PERCENT)
    if any(p.slot.kind in figures and not p.equal and p.slot.start not in fixed for p in pairs):
        return [replace(c, fixes=()) for c in swaps]
    return swaps


def denied_elsewhere(claim: Parsed, ev: Parsed, segment: tuple[int, int], found: list[Conflict]) -> bool:
    """Whether the conflicts `found` fix something while the window denies another word of the claim
    by a prefix where no fix can stand (`stages.swaps.denied_nearby`): "The loan is secured and was
    made in 2010" against "The loan, made on 2 May 2011, is unsecured" is flagged, not made "... in
    2011"; "The loan is secured" against "The loan is unsecured" is fixed."""
    fixed = fixed_starts(found)
    return bool(fixed) and denied_nearby(claim, ev, segment=segment, fixed=fixed)

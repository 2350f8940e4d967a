"""Spans of figures in a claim ("5,000 to 6,000", "rose from 4% to 5%") fixed whole or not at all. Pure.

The rule checker fixes a claim's figures one by one; a span's two figures are one statement. A fix
of one of them stands only where the other is fixed too or found as stated, both come from one span
of the window, and a range stays in order: "aged 12 to 17" against "6 to 12" (where only the 17
reads as wrong) is flagged, not made "12 to 12".

Usage::

    kept = whole_spans(broken, pairs, claim, window)   # the pairs whose value fixes may stand
"""

from __future__ import annotations

import itertools

from workers.stages.align import Pair, Parsed, next_figure
from workers.stages.hedges import unread_second
from workers.stages.slots import Slot

__all__ = ["whole_spans"]


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
        if kinds not in (("[", "]"), ("(", ")")) or not {at, to} & fixed.keys():
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
        if (_mode(a), _mode(b)) in (("[", "]"), ("(", ")"))
        and not {a, b} & {t for t in theirs if t is not None}
    ]
    return any(_same(a, first) or _same(b, second) for a, b in spans)


def _same(a: Slot, b: Slot) -> bool:
    return a.figure is not None and b.figure is not None and a.figure.number == b.figure.number

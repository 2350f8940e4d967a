"""Figures and dates an answer works out from those it was given, and dates no window gives. Pure.

An answer often states what its document implies rather than what it says: "Of the group's 4,860
staff, 1,944 were based outside the UK" against "4,860 people, of whom 2,916 were based in the UK and
the remainder overseas"; "Only 39 of the 52 weeks are paid, so the last 13 weeks carry no SMP";
"36 monthly payments of £412.50, £14,850 in total". The worked-out figure is in no window, so the
aligner paired it with the nearest figure of its kind and a swap made "4,860 were based outside the
UK" and "the last 33 weeks". Such a figure is the claim's own: it is never swapped (where wrong it
is flagged).

A figure is worked out when it is, to the precision it is written in (5% where it is hedged: "roughly
$510 million"), the sum or the difference of two figures of its unit (or, for counts, of the thing it
counts where both say it) that one sentence of the window gives, or that the claim itself gives; or
the product of a bare count and an amount of its unit ("36 payments of £412.50"); and its clause says
it is worked out: a change ("by"), a total, a rest ("the remainder", "outside", "the last"). Without
such a word, "Wealth Management generated 46%" against "Commercial Banking 31% and Wealth Management
15%" is a misquote, not a sum. A date is worked out when it is a date of one window sentence plus a
period that sentence gives: "work must begin by 9 January 2027" from "within 3 years of the decision
date of 9 January 2024". A date with its month that no window gives with that month and day (a bare
year is no date: "2026" is not "6 April 2026") keeps a claim from SUPPORT (`stages.decide`).

Usage::

    claim = Parsed.of("Revenue grew by $510 million year on year, to $4.82 billion.")
    worked_out(claim, claim.values[0], [Parsed.of("Revenue was $4.82 billion, up from $4.31 billion.")])
    # True
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterator, Sequence
from itertools import combinations

from workers.stages.align import Parsed, covered
from workers.stages.changes import changed_by
from workers.stages.durations import RACE_TIME
from workers.stages.slot_types import AMOUNTS, Figure, Slot, SlotKind, When
from workers.stages.slots import NUMBER_WORDS, terms_match
from workers.stages.terms import stems_before

__all__ = ["date_worked_out", "unseen_date", "worked_out"]

# A word that says the figure is worked out, in its clause: a total, a rest ("the remainder", "outside
# the UK", "the last 13 weeks"), a move ("was down £6 million"); or "by" right before it ("grew by
# $510 million", `align.changed_by`). Without one, "Wealth Management generated 46%" is a misquote, not
# a sum of the window's 31% and 15%; "brought by the tenant within 4 years" is no change.
_WORKED = re.compile(
    r"\b(?:totals?|totall?ing|together|combined|altogether|in\s+all|overall|difference|gap|net|sum"
    r"|remaining|remainder|rest|others?|outside|last|extra|additional|further|more|fewer|less|left"
    r"|leaving|adds?\s+up|comes?\s+to|works?\s+out|beyond|(?:up|down)(?!\s+to\b))\b",
    re.IGNORECASE,
)
# A window figure of the claim's unit with this share of the claim's words around it is what the
# window states for the claim: the figure is then the aligner's to check ("The total fee is £1,500"
# against "... the total fee is £1,200").
_STATED_FOR = 0.6
# "from 1978 until his retirement in 1996", "between 1991 and 2006", "1894-1968"
_SPAN_OPEN = re.compile(r"\b(?:from|since|between)\b", re.IGNORECASE)
_SPAN_JOIN = re.compile(r"\b(?:to|until|till|through|and)\b|[-–]", re.IGNORECASE)
_SECONDS = {"second": 1, "sec": 1, "minut": 60, "min": 60, "hour": 3600}  # by the noun's stem
_HEDGED = 0.05  # "roughly $510 million" for $510m +- 5%


def worked_out(claim: Parsed, slot: Slot, windows: Sequence[Parsed]) -> bool:
    """Whether the claim's figure is a sum, difference or product of two figures one window sentence
    (or the claim) gives, and no window states another figure for it."""
    if slot.kind not in AMOUNTS or slot.figure is None or slot.figure.hedge.mode in "[]()":
        return False
    if _years_between(claim, slot, windows):
        return True
    # a product of a count and a price needs no word to say so: "$54.6 million" is no misquote of
    # "1.2 million shares at $45.50" by chance
    cued = changed_by(claim, slot) or _WORKED.search(claim.text, *claim.segment_of(slot.start)) is not None
    sources = [(claim, [s for s in _amounts(claim, (0, len(claim.text))) if s is not slot])]
    sources += [(ev, _amounts(ev, seg)) for ev in windows for seg in ev.segments]
    # race times from the whole window: "6.18 seconds behind" the winner's 27:43.12, a sentence away
    sources += [(ev, [s for s in _amounts(ev, (0, len(ev.text))) if _raced(s)]) for ev in windows]
    found = [
        (kind, numbers)
        for read, figures in sources
        for value, numbers, kind in _results(claim, slot, read, figures)
        if (cued or kind != "cued") and _close(slot, value)
    ]
    # a gap to the hundredth of a second between two race times is the claim's: another gap the window
    # states ("the silver medallist 1.85 seconds behind") is another's, so no swap (a wrong gap that a
    # chance pair of times gives is flagged, not fixed)
    if any(kind == "race" for kind, _ in found):
        return True
    operands = {number for _, numbers in found for number in numbers}
    return bool(operands) and not _stated_for(claim, slot, windows, operands)


def _years_between(claim: Parsed, slot: Slot, windows: Sequence[Parsed]) -> bool:
    """Whether a count of years is the span between two years one window sentence, or the claim, gives
    ("owned it for 74 years, from 1894 until 1968"; "spent 18 years teaching" from "taught from 1978
    until his retirement in 1996"): no word needs to say so, two years that far apart being no chance,
    unless a window states another count of years for the claim's words ("a limitation period of 6
    years" for "The Act, passed in 1990 and amended in 2000, sets a limitation period of 10 years")."""
    f = slot.figure
    if f is None or f.unit is not None or not f.number.is_integer() or claim.noun_after(slot) != "year":
        return False
    spans = [(claim, (0, len(claim.text)))] + [(ev, seg) for ev in windows for seg in ev.segments]
    for read, (lo, hi) in spans:
        years = [
            e for e in read.values if e.when is not None and e.when.year is not None and lo <= e.start < hi
        ]
        for first, last in combinations(years, 2):
            if _spanned(read, first, last, f.number):
                return not _stated_for(claim, slot, windows, {float(f.number)})
    return False


def _spanned(read: Parsed, first: Slot, last: Slot, count: float) -> bool:
    """Whether two years of a sentence are a span ("from 1978 until 1996", "between 1991 and 2006",
    "1894-1968") `count` years long."""
    if first.when is None or last.when is None or last.when.year is None or first.when.year is None:
        return False
    opened = _SPAN_OPEN.search(read.text, max(0, first.start - 40), first.start)
    return (
        last.when.year - first.when.year == count
        and _SPAN_JOIN.search(read.text, first.end, last.start) is not None
        and (opened is not None or last.start - first.end <= 3)
    )


def _stated_for(claim: Parsed, slot: Slot, windows: Sequence[Parsed], operands: set[float]) -> bool:
    """Whether a window states another figure of the claim's unit than those it is worked out from,
    among most of the claim's words ("the total fee is £1,200" for "The total fee is £1,500")."""
    unit, around = slot.figure.unit if slot.figure else None, claim.near(slot)
    return any(
        e.figure is not None
        and e.figure.unit == unit
        and e.figure.number not in operands
        and covered(around, ev.near(e)) >= _STATED_FOR
        for ev in windows
        for e in ev.values
    )


def _amounts(read: Parsed, segment: tuple[int, int]) -> list[Slot]:
    lo, hi = segment
    return [s for s in read.values if s.kind in AMOUNTS and s.figure is not None and lo <= s.start < hi]


def _results(
    claim: Parsed, slot: Slot, read: Parsed, figures: list[Slot]
) -> Iterator[tuple[float, tuple[float, float], str]]:
    """Each sum, difference, product and share (an amount over a count) of two of `figures`, with the
    two figures' values and its kind: "race" (`_race_results`), "product" (no word needs to say it is
    worked out) or "cued" (one must)."""
    unit = slot.figure.unit if slot.figure else None
    for a, b in combinations(figures, 2):
        x, y = a.figure, b.figure
        if x is None or y is None:
            continue
        pair = (x.number, y.number)
        if RACE_TIME in (x.unit, y.unit, unit):
            yield from ((value, pair, "race") for value in _race_results(claim, slot, read, (a, b)))
        elif x.unit == y.unit == unit and _alike(claim, slot, read, (a, b)):
            yield x.number + y.number, pair, "cued"
            yield abs(x.number - y.number), pair, "cued"
        elif (
            unit is not None and {x.unit, y.unit} == {None, unit} and _bare_count(x if x.unit is None else y)
        ):
            count, amount = (x, y) if x.unit is None else (y, x)
            yield x.number * y.number, pair, "product"
            yield amount.number / count.number, pair, "cued"  # "£1,650, equal to five weeks' rent": £330


def _race_results(claim: Parsed, slot: Slot, read: Parsed, operands: tuple[Slot, Slot]) -> Iterator[float]:
    """A gap in seconds between two race times ("43 seconds ahead": 2:20:31 less 2:19:48), or a race
    time a gap in seconds from another ("finished in 27:44.97": 27:43.12 and "1.85 seconds behind").
    Seconds only: "5 minutes behind" is too coarse to tell a gap from a chance."""
    a, b = operands
    unit = slot.figure.unit if slot.figure else None
    if a.figure is None or b.figure is None:
        return
    x, y = a.figure, b.figure
    if x.unit == y.unit == RACE_TIME and unit is None and _in_seconds(claim, slot) == 1:
        yield abs(x.number - y.number)
    elif unit == RACE_TIME and {x.unit, y.unit} == {None, RACE_TIME}:
        t, gap, g = (x, b, y) if x.unit == RACE_TIME else (y, a, x)
        if _in_seconds(read, gap) == 1:
            yield t.number + g.number
            yield t.number - g.number


def _raced(slot: Slot) -> bool:
    return slot.figure is not None and slot.figure.unit == RACE_TIME


def _in_seconds(claim: Parsed, slot: Slot) -> int | None:
    """How many seconds one of the claim's count is, where it counts seconds, minutes or hours."""
    noun = claim.noun_after(slot)
    return _SECONDS.get(noun) if noun else None


def _alike(claim: Parsed, slot: Slot, read: Parsed, operands: tuple[Slot, Slot]) -> bool:
    """Whether counts count one thing where each says what ("13 weeks", "52 weeks", "39 weeks")."""
    if slot.figure is None or slot.figure.unit is not None:
        return True
    nouns = [claim.noun_after(slot)] + [read.noun_after(s) for s in operands]
    said = [n for n in nouns if n is not None]
    return all(terms_match(said[0], n) for n in said[1:])


def _bare_count(figure: Figure) -> bool:
    """A whole count of more than one ("36 payments", "1.2 million shares")."""
    return figure.number.is_integer() and figure.number > 1


def _close(slot: Slot, value: float) -> bool:
    figure = slot.figure
    if figure is None or value <= 0:
        return False
    if figure.hedge.mode == "~":
        return abs(figure.number - value) <= _HEDGED * value
    return abs(figure.number - value) <= 0.5 * 10.0 ** (-figure.decimals) * figure.scale + 1e-9


# A period a sentence gives and what it counts from: "within 3 years of the decision date of 9 January
# 2024", "a year after 1 March 2024" (not "starts on 1 January 2024 and runs for 2 years": the date
# is the start, said for itself).
_FROM = re.compile(
    r"\b(\d{1,3}|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[- ]"
    r"(day|week|month|year)s?\s+(?:of|after|from|following)\b[^.;]{0,40}?\Z",
    re.IGNORECASE,
)
_ONE = {"a": 1, "an": 1}


def date_worked_out(claim: Parsed, slot: Slot, windows: Sequence[Parsed]) -> bool:
    """Whether a full date of the claim is a window date plus the period that counts from it, and not
    what the window's words before it say the claim's is ("The decision date was 9 January 2027"
    against "within 3 years of the decision date of 9 January 2024")."""
    when = slot.when
    if when is None or when.year is None or when.month is None or when.day is None:
        return False
    target = (when.year, when.month, when.day)
    return any(
        e.when is not None
        and (period := _counted_from(ev, e)) is not None
        and _plus(e.when, *period) == target
        and not _named_alike(claim, slot, ev, e)
        for ev in windows
        for e in ev.values
    )


def _counted_from(ev: Parsed, date: Slot) -> tuple[int, str] | None:
    lo = ev.segment_of(date.start)[0]
    m = _FROM.search(ev.text, lo, date.start)
    if m is None:
        return None
    count = m.group(1).lower()
    n = int(count) if count.isdigit() else _ONE.get(count) or NUMBER_WORDS.index(count)
    return (n, m.group(2).lower()) if n > 0 else None


def _named_alike(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether the two content words before each date share one ("decision date was" / "decision date of")."""
    mine, theirs = stems_before(claim.terms, slot.start), stems_before(ev.terms, other.start)
    return any(terms_match(a, b) for a in mine for b in theirs)


def _plus(when: When, n: int, unit: str) -> tuple[int, int, int] | None:
    """The date `n` days, weeks, months or years after `when`; a month's end is kept ("31 January" +
    1 month is 29 February in 2024)."""
    if when.year is None or when.month is None or when.day is None:
        return None
    if unit in ("year", "month"):
        months = when.year * 12 + when.month - 1 + (n * 12 if unit == "year" else n)
        year, month = divmod(months, 12)
        return year, month + 1, min(when.day, calendar.monthrange(year, month + 1)[1])
    try:
        then = dt.date(when.year, when.month, when.day) + dt.timedelta(days=n * (7 if unit == "week" else 1))
    except (ValueError, OverflowError):
        return None
    return then.year, then.month, then.day


def unseen_date(claim: Parsed, evs: Sequence[Parsed]) -> bool:
    """Whether the claim gives a date with its month ("6 April 2026", "April 2026") no window states
    with that month and day (a bare "2026" in the window is not "6 April 2026")."""
    dates = [s.when for s in claim.values if s.kind is SlotKind.DATE and s.when is not None and s.when.month]
    said = [e.when for ev in evs for e in ev.values if e.when is not None and e.when.month]
    return any(not any(_same_day(d, e) for e in said) for d in dates if d is not None)


def _same_day(mine: When, theirs: When) -> bool:
    """The same month, day and year where the claim gives them (a window's year may be left unsaid)."""
    years = None in (mine.year, theirs.year) or mine.year == theirs.year
    return mine.month == theirs.month and mine.day in (None, theirs.day) and years

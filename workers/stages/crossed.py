"""Two values of one claim given to each other's things: "CVs are kept for 2 years and right-to-work
documents for 6 months" against "CVs ... are retained for 6 months. Right-to-work documents ... for 2
years." Pure.

Each value is found in the window, so value by value the claim checks out, and its words are all the
window's: the rules and the model read support. What is wrong is whose value is whose. Here two
values of a claim's sentence, of one unit and different, each stated once in the window, are crossed
when the words that lead to each in the claim (since the value before it in its clause: "keeps
unsuccessful candidates' CVs for") are the words around the other's value in the window, at least
half of them for each, and the crossed reading beats the straight one by half a clause's words or
more. A correct claim in another order ("CVs for 6 months and right-to-work documents for 2 years")
reads straight, so it is never crossed.

It is flagged, never fixed: swapping the two values back mends the claim only where nothing else
of the two things crossed with them ("Rivaroxaban is given as 5 mg twice daily, while apixaban is
taken as 20 mg once daily" has the frequencies crossed too), and counts of different things ("2
years", "6 months") would need their nouns moved.

Usage::

    claim = Parsed.of("Fenwick keeps CVs for 2 years and right-to-work documents for 6 months.")
    window = Parsed.of("CVs are retained for 6 months. Right-to-work documents are retained for 2 years.")
    [c] = crossed_values(claim, window)
    c.a.text, c.for_a.text      # "2", "6": the window's value for the claim's "2" is its 6
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import combinations

from workers.stages.align import Parsed, covered
from workers.stages.slot_types import AMOUNTS, Slot
from workers.stages.slots import same_unit, values_match

__all__ = ["Crossed", "crossed_values"]

_TIMES = frozenset({"minut", "hour", "day", "week", "month", "year"})  # stems
_HALF = 0.5  # each crossed value's words found around the other's at least this much
_BEATS = 0.5  # the crossed reading's two coverages beat the straight one's by this much


@dataclass(frozen=True, slots=True)
class Crossed:
    """The claim's values `a` and `b`, stated in the window as `for_a` (which is `b`'s value) and
    `for_b`."""

    a: Slot
    b: Slot
    for_a: Slot
    for_b: Slot


def crossed_values(claim: Parsed, ev: Parsed) -> list[Crossed]:
    """Every pair of the claim's values the window gives to each other's things."""
    return list(_crossed(claim, ev))


def _crossed(claim: Parsed, ev: Parsed) -> Iterator[Crossed]:
    amounts = [s for s in claim.values if s.kind in AMOUNTS and s.figure is not None]
    for a, b in combinations(amounts, 2):
        apart = claim.segment_of(a.start) != claim.segment_of(b.start)
        if apart or values_match(a, b) or not same_unit(a, b) or not _count_alike(claim, a, b):
            continue
        ea, eb = _stated_once(a, ev), _stated_once(b, ev)
        wa, wb = _leading(claim, a), _leading(claim, b)
        if ea is None or eb is None or not wa or not wb:
            continue
        straight = (covered(wa, ev.near(ea)), covered(wb, ev.near(eb)))
        cross = (covered(wa, ev.near(eb)), covered(wb, ev.near(ea)))
        beaten = cross[0] > straight[0] and cross[1] > straight[1] and sum(cross) >= sum(straight) + _BEATS
        if min(cross) >= _HALF and beaten:
            yield Crossed(a, b, eb, ea)


def _count_alike(claim: Parsed, a: Slot, b: Slot) -> bool:
    """Amounts in a unit are alike; bare figures where they count one thing, or two spans of time ("2
    years", "6 months"), not "six months" and "3.0 mmHg"."""
    if a.figure is not None and a.figure.unit is not None:
        return True
    nouns = {claim.noun_after(a), claim.noun_after(b)}
    return None not in nouns and (len(nouns) == 1 or nouns <= _TIMES)


def _stated_once(slot: Slot, ev: Parsed) -> Slot | None:
    found = [e for e in ev.values if values_match(slot, e)]
    return found[0] if len(found) == 1 else None


def _leading(read: Parsed, slot: Slot) -> list[str]:
    """The content words from the amount before `slot` in its clause (or the clause's start) to it,
    names' words included ("keeps unsuccessful candidates' CVs for")."""
    lo = read.segment_of(slot.start)[0]
    amounts = [v for v in read.values if v.kind in AMOUNTS]
    lo = max([lo, *(v.end for v in amounts if lo <= v.end <= slot.start)])
    inside = [(v.start, v.end) for v in amounts]
    return [
        t.stem
        for t in read.terms
        if lo <= t.start and t.end <= slot.start and not any(s <= t.start < e for s, e in inside)
    ]

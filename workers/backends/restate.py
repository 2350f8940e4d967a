"""The window as the cross-encoder reads it: the claim's value, where the window plainly states it,
spelled as the claim spells it. Pure.

The cross-encoder was trained on pairs where a changed figure or date is what makes a contradiction,
and a respelled one looks much the same to it: "Route 495 is a 3.45-mile freeway" against "Route
495 is a 3.45 mi freeway" read P(contradict) 0.81, "born December 6, 1975" against "( born 6 December
1975 )" 0.97, "£289" against a tokenized "£ 289" 0.93, and such a reading withholds SUPPORT from a
claim the source states word for word (FaithBench `train` summaries; the veto in `stages.decide`).
The rule checks read values, not spellings. Where they pair a figure, percentage or date of the
claim with the window's, the model reads the window with the claim's spelling of it, but only where
the window plainly states the claim's value:

- the same value, exactly, in digits on both sides: not "about 5,000" against 4,900, "1,200"
  against "about 1200", "March 2001" against "3 March 2001", nor a count in words;
- no other value of its kind and unit in the window ("sought $1,200,000; the jury awarded $300,000":
  which is the claim's is the model's to read, not the rules' pairing's);
- and in a clause of the claim's polarity: "did not increase by 5 per cent" does not state
  "increased by 5%".

A count of time the rules find as the claim's in another unit ("14 days" for "two weeks",
`stages.durations.same_span`) is read with the claim's count and unit, where both clauses have one
polarity. Everything else stays as written, so a changed value still reads as one.

Usage::

    restated("Route 495 is a 3.45-mile freeway.", "Route 495 is a 3.45 mi freeway in Hudson County .")
    # 'Route 495 is a 3.45-mile freeway in Hudson County .'
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.stages.align import Pair, Parsed
from workers.stages.durations import same_span
from workers.stages.guises import paired_values
from workers.stages.hedges import EXACT
from workers.stages.slots import Slot, SlotKind, polarity

__all__ = ["restated", "restated_all"]

_RESPELLED = frozenset({SlotKind.FIGURE, SlotKind.PERCENT, SlotKind.DATE})


def restated(claim: str, window: str) -> str:
    """`window`, each figure, percentage or date in it that plainly is `claim`'s written as `claim` has it."""
    return restated_all(claim, [window])[0]


def restated_all(claim: str, windows: Sequence[str]) -> list[str]:
    """`restated` for each of a claim's windows, the claim read once."""
    read = Parsed.of(claim)
    names = [s for s in read.values if s.kind is SlotKind.ENTITY]
    return [_restated(read, Parsed.of(window, entities=names)) for window in windows]


def _restated(read: Parsed, ev: Parsed) -> str:
    paired = paired_values(read, ev)
    pairs = [p for p in paired if _respelled(p, ev.values)]
    spans = {
        (p.other.start, p.other.end, p.slot.text)
        for p in pairs
        if p.other and _alike(read, p.slot, ev, p.other)
    }
    spans |= {span for p in paired if (span := _same_span(read, p, ev)) is not None}
    out, bound = ev.text, len(ev.text)
    for start, end, text in sorted(spans, reverse=True):  # from the end, so earlier offsets hold
        if end <= bound:
            out, bound = out[:start] + text + out[end:], start
    return out


def _same_span(read: Parsed, pair: Pair, ev: Parsed) -> tuple[int, int, str] | None:
    """The window's count of time with its unit ("14 days") to be read as the claim's ("two weeks"),
    where the rules found them one span (`stages.durations.same_span`)."""
    mine, other = pair.slot, pair.other
    if not pair.equal or other is None or mine.figure is None or other.figure is None:
        return None
    if mine.figure.hedge.mode != "=" or other.figure.hedge.mode != "=":
        return None  # an end of a range ("2 to 3 weeks") would be respelled alone
    a, b = read.term_after(mine), ev.term_after(other)
    if (
        a is None
        or b is None
        or a.stem == b.stem
        or not same_span(mine.figure.number, a.stem, other.figure.number, b.stem)
    ):
        return None
    return (other.start, b.end, read.text[mine.start : a.end]) if _alike(read, mine, ev, other) else None


def _respelled(pair: Pair, window: Sequence[Slot]) -> bool:
    """The window states the claim's value exactly and alone of its kind, but writes it another way."""
    mine, other = pair.slot, pair.other
    if not pair.equal or other is None or mine.kind not in _RESPELLED or other.kind is not mine.kind:
        return False
    if other.value != mine.value or other.text == mine.text or not (_digits(mine) and _digits(other)):
        return False
    return _exact(mine) and _exact(other) and not any(_rival(s, other) for s in window)


def _alike(claim: Parsed, mine: Slot, ev: Parsed, stated: Slot) -> bool:
    """Whether the two values stand in clauses of one polarity (a "not" in one only says otherwise)."""
    return _polarity(claim, mine) == _polarity(ev, stated)


def _polarity(read: Parsed, slot: Slot) -> bool:
    lo, hi = read.segment_of(slot.start)
    return polarity([s for s in read.slots if lo <= s.start < hi])


def _digits(slot: Slot) -> bool:
    return any(ch.isdigit() for ch in slot.text)


def _exact(slot: Slot) -> bool:
    return slot.figure is None or slot.figure.hedge == EXACT


def _rival(slot: Slot, stated: Slot) -> bool:
    """Another value of the stated one's kind and unit in the window."""
    if slot.kind is not stated.kind or slot.value == stated.value:
        return False
    return slot.figure is None or stated.figure is None or slot.figure.unit == stated.figure.unit

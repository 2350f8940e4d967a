"""Claim values no rule may swap for a window's: which of the claim's slots are locked. Pure.

The rule checker corrects a claim's value with the window's value it pairs it with
(`stages.align`). Some values are the claim's own whatever a window says beside them, so a swap
would turn a correct answer wrong:

- every value of a comparison ("rose faster than in 2019"): not checkable value by value;
- a name some window spells out as written: the claim is about it, even where another window names
  another;
- a date some window gives in a sentence naming one of the claim's names: "appointed by Reagan in
  1981" against "During the 1980 campaign, Reagan promised ... He made good on that promise in
  1981, when he announced O'Connor's nomination" (the 1980 is another event's); unless a window
  gives another date with the claim's own verb ("elected ... in 1980. Reagan took office in 1981");
- every amount of a claim with two or more, where the windows state each of them: "At the end of 2023
  the Group had 4,850 employees, 3,120 of them in the UK" against "employed 4,850 people, of whom
  3,120 were in the UK and 1,730 overseas" was made "3,120 employees, 1,730 of them in the UK"
  (another window, or another pairing, may read them otherwise: whose is whose is a guess);
- a figure the claim gives for several things joined by "and" and summed ("Commercial Banking and
  Wealth Management together generated 46%" against "Commercial Banking 31% and Wealth Management
  15%"): a sum, which no one of the window's parts corrects (where the window sums them too, its
  sum does);
- a figure the claim works out from two the window (or the claim) gives, a sum, a difference or a
  product ("1,944 were based outside the UK" from "4,860 people, of whom 2,916 were based in the UK",
  `stages.derived`), which no window states, and a date that is a window's date plus a period its
  sentence gives ("by 9 January 2027" from "within 3 years of ... 9 January 2024").

Usage::

    locked_slots(Parsed.of("A and B together made 46%."), [Parsed.of("A made 31% and B 15%.")])
    # frozenset({...}): the start of "46%"
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from workers.backends.segments import states_every
from workers.stages.align import Parsed, is_comparative
from workers.stages.derived import date_worked_out, worked_out
from workers.stages.slot_types import AMOUNTS, Slot, SlotKind
from workers.stages.slots import values_match

__all__ = ["locked_slots"]

# "A and B together made 46%": two or more things joined, then the word that sums them (not "together
# with food", "a combined ratio").
_TOGETHER = re.compile(
    r"\band\b[^.;]{1,80}?\b(?:together|combined|between\s+them|jointly|altogether)\b(?!\s+with\b)"
    # "$8.5 million in total: $6 million in redress plus a $2.5 million penalty"
    r"|\b(?:in\s+total|altogether)\b[^.;]{0,80}?\bplus\b",
    re.IGNORECASE,
)


def locked_slots(claim: Parsed, windows: Sequence[Parsed]) -> frozenset[int]:
    """The starts of the claim's slots never to be swapped for a window's value."""
    if is_comparative(claim.text):
        return frozenset(s.start for s in claim.values)
    names = [s for s in claim.values if s.kind is SlotKind.ENTITY]
    dates = [s for s in claim.values if s.kind in (SlotKind.DATE, SlotKind.YEAR)]
    locked = [s for s in names if any(values_match(s, e) for ev in windows for e in ev.values)]
    locked += [
        s
        for s in dates
        if any(_dated_with(s, names, ev) for ev in windows) and not _own_event_elsewhere(claim, s, windows)
    ]
    amounts = [s for s in claim.values if s.kind in AMOUNTS]
    summed = _TOGETHER.search(claim.text) and not any(_TOGETHER.search(ev.text) for ev in windows)
    said = [e for ev in windows for e in ev.values]
    if summed or states_every(amounts, said):
        locked += amounts
    return frozenset(s.start for s in locked) | worked_slots(claim, windows)


def worked_slots(claim: Parsed, windows: Sequence[Parsed]) -> frozenset[int]:
    """The starts of the claim's amounts that no window states and that the claim works out from the
    figures it or a window gives, and of its dates that are a window's date plus a period
    (`stages.derived`)."""
    said = [e for ev in windows for e in ev.values]
    unsaid = [s for s in claim.values if s.kind in AMOUNTS and not any(values_match(s, e) for e in said)]
    worked = [s for s in unsaid if worked_out(claim, s, windows)]
    dates = [s for s in claim.values if s.kind in (SlotKind.DATE, SlotKind.YEAR)]
    worked += [s for s in dates if date_worked_out(claim, s, windows)]
    return frozenset(s.start for s in worked)


def _own_event_elsewhere(claim: Parsed, date: Slot, windows: Sequence[Parsed]) -> bool:
    """Whether a window gives another date in a sentence saying the claim's own verb: "Reagan was
    elected in 1981" against "elected president in 1980. Reagan took office in 1981" (the 1980 is
    the election's, so the claim's 1981 is wrong, and fixed)."""
    event = claim.event_word(date)
    if event is None:
        return False
    for ev in windows:
        for other in (e for e in ev.values if e.when is not None and values_match(date, e) is False):
            lo, hi = ev.segment_of(other.start)
            if any(t.stem == event for t in ev.terms if lo <= t.start < hi):
                return True
    return False


def _dated_with(date: Slot, names: Sequence[Slot], ev: Parsed) -> bool:
    """Whether `ev` gives `date` in a sentence that names one of `names`."""
    for other in (e for e in ev.values if values_match(date, e)):
        lo, hi = ev.segment_of(other.start)
        said = [e for e in ev.values if e.kind is SlotKind.ENTITY and lo <= e.start < hi]
        if any(values_match(n, e) for n in names for e in said):
            return True
    return False

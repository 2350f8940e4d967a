"""Conflicts the rule checks read from one narrow shape of text, each with the fix the window gives. Pure.

The slot aligner (`workers.stages.align`) pairs a claim's values with a window's by the words around
them; these read what that pairing cannot: a charge the claim denies and the window attaches
(`stages.conditions`), a condition the claim drops or a group it widens past the window's "only"
(`stages.restrictions`, `stages.narrowing`), an item it states that the window excepts
(`stages.exceptions`), a figure the window bounds the other way round ("over 65" against "under
65"), a role the window gives another holder (`stages.roles`), a nationality said in another order
(`stages.nationality`), an outcome said the other way round (`stages.outcomes`), a movement or
result said the other way round (`stages.directions`), a rank said otherwise (`stages.ranks`), one
word of a closed set said as another (`stages.swaps`), another frequency (`stages.frequency`), money
for another period (`stages.periods`). Each stage module decides when to speak; here its finding
becomes a `Conflict` the checker weighs like a value conflict.

Usage::

    [conflict] = nationality_conflicts(Parsed.of("French Montana is a Hungarian rapper."),
                                       Parsed.of("... by American rapper French Montana."), set())
    conflict.reason, conflict.fixes    # "nationality before 'rapper': Hungarian in claim, ...", (SlotFix,)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from workers.messages import SlotFix
from workers.stages._text import same_case, sentence_around
from workers.stages.align import Pair, Parsed, covered
from workers.stages.conditions import charge_clashes
from workers.stages.crossed import crossed_values
from workers.stages.directions import direction_clashes
from workers.stages.duties import moved_duties
from workers.stages.exceptions import excepted, qualified
from workers.stages.frequency import frequency_clashes
from workers.stages.generic import overgeneral
from workers.stages.hedges import EXACT
from workers.stages.modality import modal_clashes
from workers.stages.nationality import nationality_clashes
from workers.stages.outcomes import outcome_clashes
from workers.stages.periods import period_clashes
from workers.stages.ranks import rank_clashes
from workers.stages.restrictions import DroppedCondition, dropped_conditions
from workers.stages.roles import role_clashes
from workers.stages.slot_types import Slot
from workers.stages.slots import values_match
from workers.stages.swaps import swap_clashes

__all__ = [
    "Conflict",
    "bound_conflicts",
    "charge_conflicts",
    "condition_conflicts",
    "denial_conflicts",
    "direction_conflicts",
    "duty_conflicts",
    "exception_conflicts",
    "fixed_starts",
    "frequency_conflicts",
    "modal_conflicts",
    "nationality_conflicts",
    "outcome_conflicts",
    "overgeneral_conflicts",
    "period_conflicts",
    "rank_conflicts",
    "role_conflicts",
    "swap_conflicts",
]


@dataclass(frozen=True, slots=True)
class Conflict:
    """A reason the window contradicts the claim, how strongly, and the fixes it gives (none: remove).
    A doubt is a reason it may: the claim is then neither supported nor contradicted by the window.
    Unstated: the window says more than the claim ("All" for "Most"), so the claim is not found as said."""

    reason: str
    strength: float
    fixes: tuple[SlotFix, ...] = ()
    doubt: bool = False
    unstated: bool = False  # the window says something stronger: not a conflict, but not found either
    # The window excludes the claim's item ("Theft is excluded."): it outranks another window's support
    # that does not name the item (the checker's `_excluded_over`).
    excludes: bool = False


def fixed_starts(conflicts: Collection[Conflict]) -> set[int]:
    """Where in the claim the conflicts' fixes begin: the values and words they already replace."""
    return {f.start for c in conflicts for f in c.fixes}


# The words of a bound after its figure ("65 and older", "50 or more"): the figure's, not its group's.
_BOUND_WORDS = frozenset(
    {"older", "younger", "over", "under", "above", "below", "more", "less", "fewer", "up"}
)
# A group named by its side of a bound: "older patients", "younger workers".
_SIDES = re.compile(r"\b(?:older|younger|elder)\b(?!\s+than)", re.IGNORECASE)
# ... not a bound after a figure: "aged 18 and older", "six months or older".
_AFTER_FIGURE = re.compile(r"(?:\d|\byears?|\bmonths?)\s+(?:and|or)\s+\Z", re.IGNORECASE)
# A shape read whole is as sure as a value conflict with every word around it shared.
_STRENGTH = 0.8
# A movement's conflict weighs as it did when the checker read it alone.
_MOVED = 0.6


def bound_conflicts(
    claim: Parsed, ev: Parsed, pairs: Sequence[Pair], *, fixes: Collection[SlotFix], min_context: float
) -> list[Conflict]:
    """A figure the window bounds the other way round, in words like the claim's ("Patients over 65"
    against "Adults under 65", "under 21" against "at least 21"), that no value conflict fixes already:
    another group than the claim's, so never fixed (`stages.decide` flags). Not where the window's
    sentence also states the claim's group (its bound: "had been below 7% before it rose above 7%";
    "older", "younger": "Adults under 65 take 10 mg. Older patients take 5 mg."), states other
    figures than the claim's, or excepts or denies where the claim does not, or the other way round
    ("everyone except children under 5")."""
    return [
        Conflict(
            f"bound: {_side(p.slot)} {p.slot.text} in claim, {_side(p.other)} {p.other.text} in evidence",
            _STRENGTH,
        )
        for p in pairs
        if p.other is not None
        and not p.equal
        and not any(f.start < p.slot.end and p.slot.start < f.end for f in fixes)
        and p.context >= min_context
        and _opposite_bounds(p.slot, p.other)
        and not _other_group(claim, ev, p.slot, p.other.start)
        and not _went_to(claim.text, p.slot)
    ]


# "goes up to 57", "went up to $45": where something went, as likely as a bound.
_WENT_UP_TO = re.compile(r"\b(?:go|goes|went|gone|going)\s+up\s+to\s+\Z", re.IGNORECASE)


def _went_to(text: str, slot: Slot) -> bool:
    """Whether the claim's figure follows "goes up to" ("the minimum age goes up to 57" against "the
    minimum age rises to 57"): no bound to read the other way round."""
    return _WENT_UP_TO.search(text, max(0, slot.start - 20), slot.start) is not None


def _opposite_bounds(a: Slot, b: Slot) -> bool:
    """Whether two figures bound one value the other way round ("over 65" against "under 65", "18 and
    over" against "18 and under"): broken however loosely worded, and no fix of one figure mends it."""
    if a.figure is None or b.figure is None or {a.figure.hedge.mode, b.figure.hedge.mode} != {"<", ">"}:
        return False
    return bool(
        values_match(
            replace(a, figure=replace(a.figure, hedge=EXACT)),
            replace(b, figure=replace(b.figure, hedge=EXACT)),
        )
    )


def _other_group(claim: Parsed, ev: Parsed, slot: Slot, at: int) -> bool:
    """Whether the window's sentence around `at` (its clauses after a ";" included) may be about
    another group than the claim's, or name the claim's too: it states the claim's bound as well
    ("18 and over can vote; people under 18 cannot"), an "older" or "younger" group, a figure of the
    claim's otherwise or words after the figure it does not say ("Drivers under 18 must be
    accompanied ..."), or excepts or denies where the claim does not, or the other way round
    ("Travellers younger than 70 do not need a certificate" against "older than 70 need one")."""
    lo, hi = sentence_around(ev.text, at, at)
    values = [v for v in ev.values if lo <= v.start < hi]
    sides = (m for m in _SIDES.finditer(ev.text, lo, hi) if not _AFTER_FIGURE.search(ev.text, lo, m.start()))
    if any(values_match(slot, v) for v in values) or next(sides, None):
        return True
    # what the sentence says of its group after the figure must be the claim's: "Drivers under 18
    # must be accompanied by an adult" says nothing of "Drivers must be at least 18"
    after = [
        t.stem
        for t in ev.terms
        if at < t.start < hi
        and not any(v.start <= t.start < v.end for v in values)
        and ev.text[t.start : t.end].lower() not in _BOUND_WORDS
    ]
    if after and covered(after, [t.stem for t in claim.terms]) < 1.0:
        return True
    if not all(any(values_match(c, v) for v in values) for c in claim.values if c is not slot):
        return True
    return qualified(ev.text[lo:hi]) != qualified(claim.text)


def _side(slot: Slot) -> str:
    return "over" if slot.figure is not None and slot.figure.hedge.mode == ">" else "under"


def charge_conflicts(claim: Parsed, ev: Parsed) -> list[Conflict]:
    """A charge the claim denies and the window attaches (`stages.conditions`); its words are the fix."""
    return [
        _fixed(
            f"condition: claim says {c.denial!r}, evidence says {c.condition!r}",
            SlotFix(start=c.start, end=c.end, wrong=c.denial, right=c.fix),
        )
        for c in charge_clashes(claim.text, ev.text)
    ]


def condition_conflicts(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> list[Conflict]:
    """What the claim states plainly and the window's clause `segment` only under a condition, or
    only of a narrower group (`stages.restrictions`). Never fixed: the claim is flagged
    (`stages.decide`)."""
    return [
        Conflict(f"condition: the claim drops it, evidence says {d.condition!r}", _STRENGTH)
        for d in dropped_conditions(claim, ev, segment=segment)
    ]


def exception_conflicts(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> list[Conflict]:
    """What the claim states of an item that the window's clause `segment` states of everything but it
    (`stages.exceptions`). Never fixed: the claim is flagged (`stages.decide`)."""
    span = excepted(claim, ev, segment=segment)
    said = ev.text[span[0] : span[1]] if span else ""
    return [Conflict(f"exception: evidence says {said!r}", _STRENGTH, excludes=True)] if span else []


def denial_conflicts(denial: DroppedCondition | None) -> list[Conflict]:
    """A claim that denies what the window allows only under a condition, or only of part of a group
    ("Tenants may not sublet" against "... may sublet only with consent"): removing its "not" would
    drop the condition, so it is flagged, never fixed; none where the claim's group is the other
    part, whose denial the window states (`stages.restrictions.denied_condition`)."""
    if denial is None or denial.other_part:
        return []
    return [Conflict(f"condition: the claim denies what evidence allows {denial.condition!r}", _STRENGTH)]


def role_conflicts(claim: Parsed, ev: Parsed) -> list[Conflict]:
    """The claim's role (by ordinal, year or a one-off role) given to another holder in the window:
    the holder is what the claim got wrong (`workers.stages.roles`)."""
    return [
        _fixed(
            f"role {c.role!r}: {c.holder.text} in claim, {c.other.text} in evidence",
            SlotFix(start=c.holder.start, end=c.holder.end, wrong=c.holder.text, right=c.other.text),
        )
        for c in role_clashes(claim.text, ev.text)
    ]


def nationality_conflicts(claim: Parsed, ev: Parsed, fixed: frozenset[int] | set[int]) -> list[Conflict]:
    """A nationality the window gives otherwise for the claim's subject and describing word
    (`stages.nationality`), unless another conflict already fixes it or another window states it."""
    return [
        _fixed(
            f"nationality before {c.word!r}: {c.wrong} in claim, {c.right} in evidence",
            SlotFix(start=c.start, end=c.end, wrong=c.wrong, right=c.right),
        )
        for c in nationality_clashes(claim.text, ev.text)
        if c.start not in fixed
    ]


def outcome_conflicts(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> list[Conflict]:
    """The claim's decision or verdict against its opposite in the window's clause `segment` that
    restates the rest of the claim (`stages.outcomes`). Never fixed: who decided what, and when, is
    more than one word can carry, so the claim is flagged (`stages.decide`)."""
    return [
        Conflict(f"outcome: {c.word!r} in claim, {c.fix!r} in evidence", _STRENGTH)
        for c in outcome_clashes(claim, ev, segment=segment)
    ]


def direction_conflicts(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> list[Conflict]:
    """The claim's rise or fall, profit or loss, the other way round in the window's clause `segment`
    (`stages.directions`); fixed with the window's word where it fits the claim's grammar."""
    return [
        _fixed(
            f"direction: {c.word!r} in claim, {c.other!r} in evidence",
            None if c.fix is None else SlotFix(start=c.start, end=c.end, wrong=c.word, right=c.fix),
            strength=_MOVED,
        )
        for c in direction_clashes(claim, ev, segment=segment)
    ]


def frequency_conflicts(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], found: Sequence[Conflict]
) -> list[Conflict]:
    """The claim's frequency against another in the window's clause `segment` ("twice a year" against
    "quarterly", `stages.frequency`), fixed with the window's phrase; none where another conflict
    already fixes a word of the claim's phrase ("twice daily" against "once daily": `stages.swaps`)."""
    return [
        _fixed(
            f"frequency: {c.word!r} in claim, {c.other!r} in evidence",
            None
            if c.fix is None
            else SlotFix(start=c.start, end=c.end, wrong=c.word, right=same_case(c.word, c.fix)),
            strength=_MOVED,
        )
        for c in frequency_clashes(claim, ev, segment=segment)
        if not _fixed_over(found, c.start, c.end)
    ]


def period_conflicts(claim: Parsed, ev: Parsed, found: Sequence[Conflict]) -> list[Conflict]:
    """The claim's amount of money for another period than the window's same amount ("£1,200 per
    year" against "the monthly rent is £1,200", `stages.periods`), fixed with the window's period in
    the claim's words; none where another conflict already fixes those words."""
    return [
        _fixed(
            f"period: {c.word!r} in claim, {c.other!r} in evidence",
            SlotFix(start=c.start, end=c.end, wrong=c.word, right=c.fix),
            strength=_MOVED,
        )
        for c in period_clashes(claim, ev)
        if not _fixed_over(found, c.start, c.end)
    ]


def modal_conflicts(claim: Parsed, ev: Parsed, found: Sequence[Conflict]) -> list[Conflict]:
    """The claim's "is required to", "may", "need not" said under another force of the same action in
    the window (`stages.modality`), where no conflict already fixes that word. Never fixed: the claim is
    flagged (`stages.decide`)."""
    return [
        Conflict(f"modality: {c.claim!r} in claim, {c.window!r} in evidence", _STRENGTH)
        for c in modal_clashes(claim.text, ev.text)
        if not _fixed_over(found, c.start, c.end)
    ]


def overgeneral_conflicts(claim: Parsed, ev: Parsed, found: Sequence[Conflict]) -> list[Conflict]:
    """The claim's opening group said whole where the window's sentence says "some", "many" or "most"
    of it (`stages.generic`), where no conflict already fixes those words: flagged, never fixed."""
    return [
        Conflict(f"group: evidence says {g.part!r} of it", _STRENGTH)
        for g in overgeneral(claim.text, ev.text)
        if not _fixed_over(found, g.start, g.end)
    ]


def duty_conflicts(claim: Parsed, ev: Parsed, found: Sequence[Conflict]) -> list[Conflict]:
    """An item the claim gives one party ("the buyer") that the window gives the other
    (`stages.duties`), where no conflict already fixes its words: flagged, never fixed; it outranks
    another window's support that leaves the item out ("The Buyer shall pay the fees")."""
    return [
        Conflict(
            f"party: {d.item!r} is the {d.other}'s in evidence, not the {d.party}'s", _STRENGTH, excludes=True
        )
        for d in moved_duties(claim.text, ev.text)
        if not _fixed_over(found, d.start, d.end)
    ]


def crossed_conflicts(claim: Parsed, ev: Parsed, found: Sequence[Conflict]) -> list[Conflict]:
    """Two values of the claim the window gives to each other's things (`stages.crossed`): flagged,
    never fixed; none where a conflict already fixes them."""
    return [
        Conflict(f"crossed: {c.a.text} and {c.b.text} in claim, each the other's in evidence", _STRENGTH)
        for c in crossed_values(claim, ev)
        if not any(_fixed_over(found, s.start, s.end) for s in (c.a, c.b))
    ]


def rank_conflicts(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> list[Conflict]:
    """The claim's ranked superlative ranked otherwise in the window's clause `segment` ("largest"
    against "second-largest", `stages.ranks`); the window's words are the fix."""
    return [
        _fixed(
            f"rank: {c.word!r} in claim, {c.other!r} in evidence",
            None if c.fix is None else SlotFix(start=c.start, end=c.end, wrong=c.word, right=c.fix),
        )
        for c in rank_clashes(claim, ev, segment=segment)
    ]


def swap_conflicts(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], fixed: Collection[int] = ()
) -> list[Conflict]:
    """The claim's word of a closed set ("Tuesday", "twice", "plaintiff") as another of its set in the
    window's clause `segment` (`stages.swaps`); the window's word is the fix. `fixed`: the starts of
    the claim's times other conflicts fix."""
    return [
        _fixed(
            f"word: {c.word!r} in claim, {c.other!r} in evidence" + ("" if c.fix else " under a condition"),
            None if c.fix is None else SlotFix(start=c.start, end=c.end, wrong=c.word, right=c.fix),
        )
        for c in swap_clashes(claim, ev, segment=segment, fixed=fixed)
    ]


def _fixed_over(found: Sequence[Conflict], start: int, end: int) -> bool:
    """Whether a conflict of `found` already fixes words of the claim's `start`:`end`."""
    return any(f.start < end and start < f.end for c in found for f in c.fixes)


def _fixed(reason: str, fix: SlotFix | None, *, strength: float = _STRENGTH) -> Conflict:
    """A conflict with the window's words as its fix; None: a flag, no word fixes it."""
    return Conflict(reason, strength, () if fix is None else (fix,))

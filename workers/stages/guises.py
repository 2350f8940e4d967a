"""Values a window states in another guise than the claim's, and counts told apart. Pure.

A claim's value is found, not missing, when the window writes it another way: a count spelled out
("3-year deal" against "three-year deal"), the same number in another kind of slot, a name as plain
words. And a count written as a word is only a rival to a count of the same thing.

Usage::

    pairs = paired_values(claim, ev)
    rivals = [p for p in pairs if counts_alike(p, claim, ev)]
"""

from __future__ import annotations

import re
from dataclasses import replace

from workers.stages._text import is_verb
from workers.stages.align import Pair, Parsed, covered, pair_slots
from workers.stages.clock import CLOCKS
from workers.stages.durations import same_span
from workers.stages.slots import NUMBER_WORDS, Slot, SlotKind, content_terms, terms_match, values_match

__all__ = [
    "counted_alone",
    "counts_alike",
    "loosened",
    "paired_values",
    "stated_elsewhere",
    "unpaired_if_counted_apart",
]

# Numbers compared across kinds when the aligner paired them with nothing.
_NUMERIC = frozenset({SlotKind.FIGURE, SlotKind.YEAR})
# ... and taken for the claim's only where half the words around them are the claim's.
_LOOSE_CONTEXT = 0.5
_WORD_VALUES = frozenset(float(i) for i in range(len(NUMBER_WORDS)))


def paired_values(claim: Parsed, ev: Parsed) -> list[Pair]:
    """Each claim slot with its counterpart in the window, as the rule checks read them: a count
    stands for the claim's only if it counts the same thing, and a value in another guise is found."""
    pairs = [loosened(unpaired_if_counted_apart(p, claim, ev), claim, ev) for p in pair_slots(claim, ev)]
    return [stated_elsewhere(p, claim, ev) for p in pairs]


def stated_elsewhere(pair: Pair, claim: Parsed, ev: Parsed) -> Pair:
    """The pair with `equal_context`: how like the claim's are the words around the claim's own figure
    where the window states it beside the value paired with it ("4,860 people, of whom 2,916 ..." for
    "4,860 staff"). Not where a year binds the other value to the claim's ("$3.9 bn in 2023" against
    "$4.2 billion in 2023 and $3.9 billion in 2022"), nor where the other counts what the claim's does
    and the value another thing ("3 offices" against "4 offices ... and three warehouses")."""
    slot, other = pair.slot, pair.other
    if other is None or pair.equal or slot.kind not in (SlotKind.FIGURE, SlotKind.PERCENT):
        return pair
    key = claim.key_near(slot)
    if pair.tied and key is not None and key.kind in (SlotKind.DATE, SlotKind.YEAR):
        return pair
    mine, theirs = claim.noun_after(slot), ev.noun_after(other)
    counted = mine is not None and theirs is not None and terms_match(mine, theirs)
    same = [e for e in ev.values if e is not other and values_match(slot, e)]
    same = [e for e in same if not counted or _counts(ev, e, mine)]
    held = max((covered(claim.near(slot), [*ev.near(e), *ev.name_words(e)]) for e in same), default=None)
    return replace(pair, equal_context=held)


def _counts(read: Parsed, slot: Slot, noun: str | None) -> bool:
    """Whether `slot` counts `noun`, or says nothing of what it counts."""
    theirs = read.noun_after(slot)
    return theirs is None or noun is None or terms_match(noun, theirs)


def loosened(pair: Pair, claim: Parsed, ev: Parsed) -> Pair:
    """A value the window states all the same counts as found (never as a rival): in another guise
    when it has no counterpart, or spelled out in words like its own ("3-year deal", "three-year
    deal") however the digits paired."""
    if pair.equal:
        return pair
    slot = pair.slot
    found = _spelled(slot, claim, ev, beat=pair.context if pair.other is not None else 0.0)
    if found is None and pair.other is None and slot.kind in _NUMERIC:
        found = next(
            (e for e in ev.slots if _same_number(slot, e, claim, ev) and _alike(claim, slot, ev, e)), None
        )
    elif found is None and pair.other is None and slot.kind is SlotKind.ENTITY:
        found = _name_in_words(slot, ev)
    return pair if found is None else replace(pair, other=found, equal=True)


def _spelled(slot: Slot, claim: Parsed, ev: Parsed, *, beat: float) -> Slot | None:
    """The claim's small bare count written as a word in the window, among words at least as like
    the claim's as those around the counterpart it was paired with (`beat`)."""
    number = _number(slot) if slot.kind is SlotKind.FIGURE else None
    if number is None or number[1] is not None or number[0] not in _WORD_VALUES:
        return None
    word = NUMBER_WORDS[int(number[0])]
    for m in re.finditer(rf"\b{word}\b", ev.text, re.IGNORECASE):
        spelled = Slot(SlotKind.FIGURE, slot.value, m.start(), m.end(), m.group(0))
        around = claim.near(slot)
        if not around or covered(around, ev.near(spelled)) >= max(beat + 1e-9, _LOOSE_CONTEXT):
            return spelled
    return None


def _alike(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether the words around a number read alike: "2014" in another sentence is another 2014."""
    around = claim.near(slot)
    return not around or covered(around, ev.near(other)) >= _LOOSE_CONTEXT


def _number(slot: Slot) -> tuple[float, str | None] | None:
    if slot.kind is SlotKind.YEAR and slot.when is not None and slot.when.year is not None:
        return float(slot.when.year), None
    if slot.kind is SlotKind.FIGURE and slot.figure is not None and slot.figure.unit not in CLOCKS:
        return slot.figure.number, slot.figure.unit
    return None  # a time of day is minutes after midnight, no number in another guise


def _same_number(slot: Slot, other: Slot, claim: Parsed, ev: Parsed) -> bool:
    """The same number, neither unit contradicting the other; two bare counts of different things
    ("20 patients", "20 sites") are not the same figure unless the number reads as a year."""
    mine, theirs = _number(slot), _number(other)
    if mine is None or theirs is None or abs(mine[0] - theirs[0]) > 1e-9 * max(abs(mine[0]), 1.0):
        return False
    if mine[1] and theirs[1] and mine[1] != theirs[1]:
        return False
    if not (slot.kind is other.kind is SlotKind.FIGURE) or mine[1] or theirs[1]:
        return True
    if mine[0].is_integer() and 1000 <= mine[0] <= 2099:
        return True
    # "77,984 confirmed cases" and "77,984 cases have been confirmed" count the same thing.
    a, b = _next_terms(claim, slot), _next_terms(ev, other)
    return not a or not b or any(terms_match(x, y) for x in a for y in b)


def _next_terms(read: Parsed, slot: Slot, n: int = 2) -> list[str]:
    """The first `n` content words after `slot` in its clause: what a bare count counts."""
    end = read.segment_of(slot.start)[1]
    return [t.stem for t in read.terms if slot.end <= t.start < end][:n]


def counts_alike(pair: Pair, claim: Parsed, ev: Parsed) -> bool:
    """Whether a count written as a word may be told apart from its counterpart: only a count of the
    same thing, named right after both ("three managers" against "five managers"), never "section 4"
    against "two propositions"."""
    other = pair.other
    if other is None or not any(s.figure is not None and s.figure.spelled for s in (pair.slot, other)):
        return True
    mine, theirs = _counted(claim, pair.slot), _counted(ev, other)
    if mine is None or theirs is None:
        return False
    # "two weeks" against "14 days" (`stages.durations.same_span`): one span, said in other units
    a, b = pair.slot.figure, other.figure
    spans = pair.equal and a is not None and b is not None and same_span(a.number, mine, b.number, theirs)
    return terms_match(mine, theirs) or bool(spans)


def unpaired_if_counted_apart(pair: Pair, claim: Parsed, ev: Parsed) -> Pair:
    """An equal count written as a word stands for the claim's only when it counts the same thing:
    "four female justices" is not found in "Four are currently serving" (the pair is undone, and the
    count is looked for again as any other value)."""
    if pair.equal and not counts_alike(pair, claim, ev):
        return replace(pair, other=None, equal=False, context=0.0)
    return pair


def counted_alone(pair: Pair, ev: Parsed) -> bool:
    """Whether the window also states the claim's bare count with nothing counted after it, only a
    verb or a stop ("The trial enrolled twelve patients. Two died.", "acquitted four."): the claim's
    "Two patients died" may be that count, so the total is no fix for it."""
    figure = pair.slot.figure
    if figure is None or figure.unit is not None or figure.scale != 1 or not figure.number.is_integer():
        return False
    n = int(figure.number)
    spelled = [str(n)] + ([NUMBER_WORDS[n]] if n < len(NUMBER_WORDS) else [])
    for m in re.finditer(rf"\b(?:{'|'.join(spelled)})\b(?![-.,]\w)[ \t]*(\w*)", ev.text, re.IGNORECASE):
        word = m.group(1).lower()
        # What a count counts is a plural ("three warehouses"); "Three left", "Two died" count nothing.
        if not word.endswith("s") or is_verb([word], 0):
            return True
    return False


def _counted(read: Parsed, slot: Slot) -> str | None:
    """The content word right after a count, the thing it counts ("three new managers": "new")."""
    after = next((t for t in read.terms if t.start >= slot.end), None)
    return after.stem if after is not None and not read.text[slot.end : after.start].strip() else None


def _name_in_words(slot: Slot, ev: Parsed) -> Slot | None:
    """Where the window has the name's content words in a row, if it does."""
    want = [t.stem for t in content_terms(slot.text) if len(t.stem) > 1]
    terms = [t for t in ev.terms if len(t.stem) > 1]
    for i in range(len(terms) - len(want) + 1 if want else 0):
        run = terms[i : i + len(want)]
        if all(terms_match(w, t.stem) for w, t in zip(want, run, strict=True)):
            start, end = run[0].start, run[-1].end
            return Slot(SlotKind.ENTITY, slot.value, start, end, ev.text[start:end])
    return None

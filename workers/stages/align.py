"""Slot alignment: a claim's values paired one to one with an evidence window's. Pure.

A text is read once (`Parsed`): its slots, content words and clauses. Each claim slot is paired with the
window slot whose clause reads most like its own. A pair also says whether the window's value could
stand in for the claim's (`swappable`): figures only in the same unit, names only in the same role
("headquartered in X" <-> "head office is in Y": the same word before them, neither one the subject).
A window name that is its sentence's subject or that the claim itself mentions is never a counterpart.

Usage::

    claim, window = Parsed.of("Acme is based in Mumbai."), Parsed.of("Acme's office is in Delhi.")
    [(p.slot.text, p.other and p.other.text, p.swappable) for p in pair_slots(claim, window)]
    # [("Mumbai", "Delhi", True)]: both after "in", and Delhi is not what the window is about
    is_comparative("Arthur's Magazine was started first.")   # True: no value swap can check it
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from workers.stages._text import (
    AUX,
    DETERMINERS,
    FUNCTION_WORDS,
    STOPWORDS,
    in_compound,
    is_verb,
    lower_words,
)
from workers.stages.changes import changed_by
from workers.stages.dated import elsewhere
from workers.stages.durations import same_span
from workers.stages.kinds import same_kind
from workers.stages.measures import Amount, apart, denominator, firm_name, rate_and_total, short_for
from workers.stages.movements import DIRECTION
from workers.stages.slot_types import AMOUNTS
from workers.stages.slots import Slot, SlotKind, extract_slots, hedged, left_open, same_unit, values_match
from workers.stages.terms import Term, content_terms, stem, terms_match
from workers.stages.units import is_currency

__all__ = [
    "KEYS",
    "Pair",
    "Parsed",
    "covered",
    "is_comparative",
    "next_figure",
    "pair_slots",
]

_VALUES = frozenset({SlotKind.FIGURE, SlotKind.PERCENT, SlotKind.DATE, SlotKind.YEAR, SlotKind.ENTITY})
KEYS = frozenset({SlotKind.DATE, SlotKind.YEAR, SlotKind.ENTITY})
_WHEN = frozenset({SlotKind.DATE, SlotKind.YEAR})
# Pairing scores: the same value beats a slightly better context; a figure bound to the same date or
# name ("$4.2 bn in 2023") beats the same value bound to another one; a name after the same word
# ("in London" / "in New York City") beats one with more shared words around it.
_EQUAL_BONUS = 0.5
_BOUND_BONUS = 0.6
_ANCHOR_BONUS = 0.5
# A count of the same thing ("5 goals" / "five goals") beats a figure bound only by a name: in "Smith,
# 21, ... has five goals" the 21 is his age.
_COUNTED_BONUS = 0.5
# Claims with more slots than this are paired greedily instead of by exhaustive search.
_MAX_SEARCH = 6
# A clause ends after a full stop, "!", "?" or ";" ...
_SEGMENT_END = re.compile(r"(?<=[.!?;])\s+")
# ... unless the full stop ends an abbreviation and a lower-case word follows ("U.S. bank", "Inc. said"),
# or a title before a name ("Dr. Lee").
_TITLE = re.compile(r"\b(?:Dr|Mr|Mrs|Ms|Prof|Sen|Rep|Gov|Gen|Col|Capt|Lt|Sgt|Rev|Hon)\.\Z")
_ABBREVIATED = re.compile(r"(?:\b[A-Za-z]\.){2,}\Z|\b(?:Inc|Corp|Co|Ltd|Bros|approx|vs|etc|No|Nos)\.\Z")
# Words that are never a date's event: auxiliaries, prepositions and other function words.
_NOT_EVENTS = AUX | FUNCTION_WORDS
# A relative clause opening after a comma: its verbs are not the main clause's.
_RELATIVE = re.compile(r",\s*(?:where|which|who|whom|whose|when)\b", re.IGNORECASE)
# Where a clause joins another with its own subject: ", while", ", whereas", ", and", " but" ...
_JOIN = re.compile(
    r",\s+(?:while|whereas|and|but|compared (?:with|to))\b|\s+(?:while|whereas)\s+"
    r"|(?<!\ball)\s+but\s+|\s+[-–—]\s+"
)
_TOKEN = re.compile(r"\w+(?:['’-]\w+)*(?:[.,]\d+)*%?")
_PREV_WORD = re.compile(r"([A-Za-z][\w'’-]*)\s+\Z")
_SUPERLATIVES = (
    "first|last|earliest|latest|oldest|newest|youngest|largest|biggest|smallest|highest|lowest|longest"
    "|shortest|greatest|best|worst|most|least"
)
# "the first year", "the last five quarters": a period, not a ranking.
_PERIODS = r"(?:years?|quarters?|half|months?|weeks?|days?|decades?|times?|phases?|rounds?)\b"
# A comparison or ranking ("started first", "larger than", "the oldest") is true or false of two
# things at once: swapping one value for another cannot correct it.
_COMPARATIVE = re.compile(
    rf"\bthan\b|\bthe\s+(?:\w+\s+)?(?:{_SUPERLATIVES})\b(?!\s+(?:\w+\s+)?{_PERIODS})"
    r"|\b(?:first|last|earlier|later|earliest|latest|older|newer|sooner|before|after)\s*(?=[.,;:!?)]|\Z)",
    re.IGNORECASE,
)


def is_comparative(text: str) -> bool:
    """Whether the claim compares or ranks ("was started first", "more than", "the largest")."""
    return _COMPARATIVE.search(text) is not None


@dataclass(frozen=True, slots=True)
class Parsed:
    """A text read once: slots, content terms and clause segments."""

    text: str
    slots: tuple[Slot, ...]
    terms: tuple[Term, ...]
    segments: tuple[tuple[int, int], ...]
    # Where joined clauses (`_JOIN`) and relative clauses (`_RELATIVE`) start and end, found once: the
    # pairing asks for a slot's clause part once per candidate counterpart.
    joins: tuple[tuple[int, int], ...] = ()
    relatives: tuple[tuple[int, int], ...] = ()

    @classmethod
    def of(cls, text: str, *, entities: Sequence[Slot] = ()) -> Parsed:
        slots = extract_slots(text)
        return cls(
            text,
            slots + _mentions(text, entities, slots),
            tuple(content_terms(text)),
            _segments(text),
            tuple(m.span() for m in _JOIN.finditer(text)),
            tuple(m.span() for m in _RELATIVE.finditer(text)),
        )

    @property
    def values(self) -> list[Slot]:
        return [s for s in self.slots if s.kind in _VALUES]

    def context(self) -> list[str]:
        """Content words outside value slots and direction words: what the text is about (a word of a
        compound, "double-header", is what it is about)."""
        return [
            t.stem
            for t in self.terms
            if not _inside(t, self.values)
            and not (
                DIRECTION.fullmatch(self.text[t.start : t.end]) and not in_compound(self.text, t.start, t.end)
            )
        ]

    def near(self, slot: Slot, *, n: int = 4) -> list[str]:
        """Up to n content words either side of `slot` in its clause, leaving out other slots' words."""
        lo, hi = self.segment_of(slot.start)
        words = [t for t in self.terms if lo <= t.start < hi and not _inside(t, self.values)]
        if not words:  # "The CEO is John Smith": the other names are all the context there is
            words = [t for t in self.terms if lo <= t.start < hi and not _inside(t, [slot])]
        before = [t.stem for t in words if t.end <= slot.start][-n:]
        return before + [t.stem for t in words if t.start >= slot.end][:n]

    def name_words(self, slot: Slot) -> list[str]:
        """The words of the other names in `slot`'s clause: "The Hubble telescope" says "Hubble" and
        "telescope" as plain words, which "The Hubble Space Telescope has ..." holds inside a name."""
        lo, hi = self.segment_of(slot.start)
        names = [s for s in self.values if s.kind is SlotKind.ENTITY and s is not slot]
        return [t.stem for t in self.terms if lo <= t.start < hi and _inside(t, names)]

    def event_word(self, slot: Slot) -> str | None:
        """The verb closest before `slot` in its clause ("joined" of "joined the company in 1990"),
        auxiliaries left out; None when the clause has none before it. A relative clause is a clause
        of its own: in "leaves Arbroath, where he had been since 2002" the year is not when he leaves."""
        lo = self.segment_of(slot.start)[0]
        lo = max([lo, *(end for start, end in self.relatives if lo <= start and end <= slot.start)])
        ws = [t.group(0) for t in _TOKEN.finditer(self.text, lo, slot.start)]
        # A participle after an auxiliary ("was born", "has grown") is the event too; "was from" is not.
        verbs = [
            w
            for i, w in enumerate(ws)
            if w.lower() not in _NOT_EVENTS and (is_verb(ws, i) or (i > 0 and ws[i - 1].lower() in AUX))
        ]
        return stem(verbs[-1].lower()) if verbs else None

    def noun_after(self, slot: Slot) -> str | None:
        """The word right after a figure, stemmed: what it counts ("1,200 patients")."""
        term = self.term_after(slot)
        return term.stem if term else None

    def term_after(self, slot: Slot) -> Term | None:
        return next((t for t in self.terms if 0 < t.start - slot.end <= 2), None)

    def key_near(self, slot: Slot) -> Slot | None:
        """The date or name closest to `slot` in its clause: what a figure is a figure of. Its own part
        of a joined clause first: in "UKIP, which won May's election, spent £2.9m, while the Tories
        spent £3.0m" UKIP's figure is nearer "Tories" than its own part's names, but "while" parts them."""
        lo, hi = self.segment_of(slot.start)
        keys = [k for k in self.values if k.kind in KEYS and lo <= k.start < hi and k is not slot]
        part_lo, part_hi = self.part_of(slot)
        own = [k for k in keys if part_lo <= k.start < part_hi]
        return min(
            own or keys, key=lambda k: min(abs(k.start - slot.end), abs(slot.start - k.end)), default=None
        )

    def part_of(self, slot: Slot) -> tuple[int, int]:
        """The part of `slot`'s clause between the joins around it (", while", ", and" ...)."""
        lo, hi = self.segment_of(slot.start)
        joins = [start for start, end in self.joins if lo <= start and end <= hi]
        return max((j for j in joins if j <= slot.start), default=lo), min(
            (j for j in joins if j >= slot.end), default=hi
        )

    def anchor(self, slot: Slot) -> str | None:
        """The word right before `slot`, past determiners ("in" of "in the Hague"); None after
        punctuation or at the start of its clause, where no word ties the slot to a role."""
        lo, pos = self.segment_of(slot.start)[0], slot.start
        while (m := _PREV_WORD.search(self.text, lo, pos)) is not None:
            word = m.group(1).lower()
            if word not in DETERMINERS:
                return word
            pos = m.start()
        return None

    def in_subject(self, slot: Slot) -> bool:
        """Whether `slot` stands before its clause's first verb (all of a clause without one): what
        the clause is about, not a value it states."""
        return slot.start < self.subject_end(slot.start)

    def subject_end(self, pos: int) -> int:
        """Where the first verb of the clause at `pos` begins (its end, where it has none)."""
        lo, hi = self.segment_of(pos)
        tokens = list(_TOKEN.finditer(self.text, lo, hi))
        ws = [t.group(0) for t in tokens]
        return next((t.start() for i, t in enumerate(tokens) if is_verb(ws, i)), hi)

    def segment_of(self, pos: int) -> tuple[int, int]:
        return next((s for s in self.segments if s[0] <= pos < s[1]), (0, len(self.text)))


@dataclass(frozen=True, slots=True)
class Pair:
    """A claim slot and its best counterpart in the window (None when the window has none)."""

    slot: Slot
    other: Slot | None = None
    equal: bool = False
    context: float = 0.0
    rivals: int = 0
    # The window's value may replace the claim's: same unit, and for names the same role.
    swappable: bool = False
    # The window's value hangs on the date or name the claim's hangs on ("$4.2 bn in 2023").
    tied: bool = False
    # How far this counterpart's score is ahead of the best free one left (the claim's own value
    # stated elsewhere in the window included; inf when none is left or none was chosen).
    margin: float = math.inf
    # Another free counterpart hangs on the same date or name ("revenue $4.2bn in 2023, costs $3.9bn").
    tied_rival: bool = False
    # Another free counterpart is the claim's own value ("in 1981" against "the 1980 campaign ... in 1981").
    equal_rival: bool = False
    # The same little word or the date's own verb leads both ("founded in 1991" / "founded in 1994").
    led: bool = False
    # How much of the claim's words stand around the claim's own figure where the window states it
    # too, whatever it counts ("4,860 staff" / "4,860 people"); None where it does not
    # (`guises.stated_elsewhere`).
    equal_context: float | None = None


def pair_slots(claim: Parsed, ev: Parsed) -> list[Pair]:
    """Each claim slot with its counterpart, one to one: dates and names first, then the figures."""
    keys = [s for s in claim.values if s.kind in KEYS]
    paired = _pair_group(claim, ev, keys, {})
    # Only a name or date the window states as the claim's binds a figure: "the Conservatives"
    # paired with the window's "May" (no match) says nothing about whose figure is whose.
    bound = {p.slot.start: p.other for p in paired if p.other is not None and p.equal}
    figures = [s for s in claim.values if s.kind not in KEYS]
    paired += _pair_group(claim, ev, figures, bound)
    return sorted(paired, key=lambda p: p.slot.start)


def _pair_group(claim: Parsed, ev: Parsed, slots: list[Slot], bound: Mapping[int, Slot]) -> list[Pair]:
    options = [_options(claim, ev, slot, bound) for slot in slots]
    chosen = _assign([[(score, id(p.other)) for score, p in opts[:4]] for opts in options])
    out = []
    for slot, opts, pick in zip(slots, options, chosen, strict=True):
        # Rivals: the counterparts no other claim slot took.
        free = [(score, p) for score, p in opts if id(p.other) == pick or id(p.other) not in chosen]
        score, found = next(((sc, p) for sc, p in opts if id(p.other) == pick), (0.0, Pair(slot)))
        others = [(sc, p) for sc, p in free if id(p.other) != pick]
        margin = score - max((sc for sc, _ in others), default=-math.inf) if pick is not None else math.inf
        tied_rival, equal_rival = any(p.tied for _, p in others), any(p.equal for _, p in others)
        out.append(
            replace(found, rivals=len(free), margin=margin, tied_rival=tied_rival, equal_rival=equal_rival)
        )
    return out


def _options(claim: Parsed, ev: Parsed, slot: Slot, bound: Mapping[int, Slot]) -> list[tuple[float, Pair]]:
    """Every comparable window slot as a scored candidate counterpart, best first."""
    around = claim.near(slot)
    key = claim.key_near(slot) if slot.kind not in KEYS else None
    rivals = _rivals(claim, ev, slot)
    event = claim.event_word(slot) if slot.kind in _WHEN else None
    scored = []
    any_equal = any(values_match(slot, e) for e in rivals)
    changed = changed_by(claim, slot)
    money = is_currency(slot.figure.unit if slot.figure else None)
    for e in rivals:
        # A word the claim says plainly counts wherever the window says it, in a name too.
        said = ev.near(e) if slot.kind is SlotKind.ENTITY else [*ev.near(e), *ev.name_words(e)]
        # "two weeks" against "14 days": found where they convert exactly, never a fix either way
        span = _span_of_time(claim, slot, ev, e)
        context, equal = covered(around, said), bool(values_match(slot, e)) if span is None else span
        tied = key is not None and _bound(ev.key_near(e), bound.get(key.start), key)
        anchored = slot.kind is SlotKind.ENTITY and _same_anchor(claim, slot, ev, e)
        # The same little word before a figure too: "revenue of $4.8 bn" is "revenue of $4.2 billion",
        # not "up from $3.9 billion" (a verb says less: "X spent" and "Y spent" are every party's); and a
        # date's own verb: "defeated ... in 1994", not "served from 1991".
        led = slot.kind in (SlotKind.FIGURE, SlotKind.PERCENT) and _same_anchor(
            claim, slot, ev, e, among=FUNCTION_WORDS
        )
        led = led or (event is not None and _own_event(event, ev, e))
        counted = slot.kind is SlotKind.FIGURE and _counts_alike(claim, slot, ev, e)
        # A hedged figure is found in a range of values, so finding it says less about whose it is.
        # ... but the same end of two ranges is read exactly ("aged 50 to 64" / "aged 50 to 64").
        plain = equal and (not (hedged(slot) or hedged(e)) or _same_end(slot, e))
        score = context + _EQUAL_BONUS * plain + _BOUND_BONUS * tied + _ANCHOR_BONUS * (anchored or led)
        score += _COUNTED_BONUS * counted
        swappable = span is None and same_unit(slot, e) and (slot.kind is not SlotKind.ENTITY or anchored)
        swappable = swappable and not (slot.kind is SlotKind.ENTITY and claim.in_subject(slot))
        # A county is not corrected to a hamlet's name: a name replaces only a name of its kind.
        swappable = swappable and (slot.kind is not SlotKind.ENTITY or same_kind(slot.text, e.text))
        # "£500 a month" is not "£6,000 per year", nor "1,260 units per hour" "18 units/kg/hour"; "EU"
        # is not corrected to "Union" (`stages.measures`).
        swappable = swappable and not apart(claim.text, slot.end, ev.text, e.end, money=money)
        # "880 litres over 20,000 km" is not made "per 100 km": that figure counts what a rate is per
        swappable = swappable and denominator(claim.text, slot.start) == denominator(ev.text, e.start)
        swappable = swappable and not _total_of_rate(claim, slot, ev, e)
        # "the £1,650 deposit ... works out at £330" is not made "£1,650": the claim states that value
        # already, as another of its figures, so it is that figure's, not this one's.
        swappable = swappable and not (slot.kind in AMOUNTS and _states_elsewhere(claim, slot, ev, e))
        swappable = swappable and not (slot.kind is SlotKind.ENTITY and short_for(slot.text, e.text))
        # "rose by $10m to $110m" is not corrected to "from $100m": a change only for a change.
        swappable = swappable and changed == changed_by(ev, e)
        # "France's economy grew 0.9%" is not corrected to Germany's "contracted 0.3%" where the window
        # states 0.9% too: a value of a part that names only others, the claim's stated elsewhere.
        swappable = swappable and (equal or not _anothers(claim, ev, e) or not any_equal)
        # "born in 1968" is not corrected to the year a lawsuit was filed: a date of the same event only.
        swappable = swappable and (event is None or _same_event(event, ev, e))
        # "Cravath, Swaine & Moore" is one firm: its first name alone is no value to swap, either way.
        swappable = swappable and not (
            slot.kind is SlotKind.ENTITY and (firm_name(claim.text, slot.end) or firm_name(ev.text, e.end))
        )
        # "12,000" against "more than 11,000": the hedge leaves it open, so it is no wrong value.
        swappable = swappable and not left_open(slot, e)
        # "Smith was appointed in 2010" is not made the year Jones was; "late 2019" is not made "late
        # 2020" for "3 March 2020": a date of someone else, or of a part of the year the window says.
        swappable = swappable and not (slot.kind in _WHEN and elsewhere(claim, slot, ev, e))
        scored.append((score, Pair(slot, e, equal, context, len(rivals), swappable, tied, led=led)))
    return sorted(scored, key=lambda sp: -sp[0])


def _same_end(a: Slot, b: Slot) -> bool:
    modes = {s.figure.hedge.mode for s in (a, b) if s.figure is not None}
    return len(modes) == 1 and modes <= set("[]")


def _rivals(claim: Parsed, ev: Parsed, slot: Slot) -> list[Slot]:
    rivals = [
        e
        for e in ev.values
        if values_match(slot, e) is not None
        and (_same_noun(claim, slot, ev, e) or _span_of_time(claim, slot, ev, e) is not None)
    ]
    if slot.kind is not SlotKind.ENTITY:
        return rivals
    if any(values_match(slot, e) for e in rivals):
        # A name the window spells out is found, whatever role the words around it suggest.
        return [e for e in rivals if values_match(slot, e)]
    # What the window's sentence is about, or a name the claim already uses, is no other value for this one.
    return [e for e in rivals if not ev.in_subject(e) and not _named_in(claim, e)]


def _same_anchor(
    claim: Parsed, slot: Slot, ev: Parsed, other: Slot, *, among: Collection[str] | None = None
) -> bool:
    mine = claim.anchor(slot)
    return mine is not None and mine == ev.anchor(other) and (among is None or mine in among)


_CAPITALIZED = re.compile(r"\b[A-Z][\w&-]*")


def _anothers(claim: Parsed, ev: Parsed, other: Slot) -> bool:
    """Whether the part of the window's clause before `other` names someone and the claim names none of
    them ("Germany's economy contracted 0.3%" for "France's economy grew 0.9%")."""
    lo, _ = ev.segment_of(other.start)
    lo = max([lo, *(start for start, _ in ev.joins if start <= other.start)])
    names = {m.group(0).lower() for m in _CAPITALIZED.finditer(ev.text, lo, other.start)} - STOPWORDS
    return bool(names) and not names & lower_words(claim.text)


def _total_of_rate(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """ "€21 for two people staying three nights" against "€3.50 per person per night" (`measures`)."""
    if slot.figure is None or other.figure is None:
        return False
    mine = Amount(claim.text, slot.end, slot.figure.number)
    return rate_and_total(mine, Amount(ev.text, other.end, other.figure.number))


def _states_elsewhere(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether another figure of the claim is the window's `other`, which the window states once: it is
    that figure's ("the £1,650 deposit"), not this one's. A value the window states twice ("5% in 2022
    and 5% in 2023") may be both."""
    once = sum(bool(values_match(other, e)) for e in ev.values) == 1
    return once and any(
        s is not slot and s.kind is slot.kind and values_match(s, other) for s in claim.values
    )


def _same_event(event: str, ev: Parsed, other: Slot) -> bool:
    """Whether the claim's event word for its date ("born", "founded": `Parsed.event_word`) is near
    the window's date too; a date with no such word is left to the other checks."""
    return any(terms_match(event, w) for w in ev.near(other))


def _own_event(event: str, ev: Parsed, other: Slot) -> bool:
    """Whether the window's date has the claim's event word as its own (the verb closest before it)."""
    theirs = ev.event_word(other)
    return theirs is not None and terms_match(event, theirs)


def _named_in(claim: Parsed, name: Slot) -> bool:
    if any(values_match(name, s) for s in claim.values if s.kind is SlotKind.ENTITY):
        return True
    return re.search(rf"\b{re.escape(name.text)}\b", claim.text, re.IGNORECASE) is not None


def _same_noun(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Bare counts compare only when they count the same thing: "1,200 patients" is not "40 sites"."""
    if slot.kind is not SlotKind.FIGURE:
        return True
    # The first figure of a span counts what follows the second ("1 to 2 years", "12 to 24 months").
    slot, other = _counted_at(claim, slot), _counted_at(ev, other)
    mine, theirs = claim.noun_after(slot), ev.noun_after(other)
    return mine is None or theirs is None or terms_match(mine, theirs)


def _span_of_time(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool | None:
    """Whether bare counts of two units of time, hedged alike, are one span (`durations.same_span`)."""
    a, b = slot.figure, other.figure
    if a is None or b is None or a.unit is not None or b.unit is not None or a.hedge.mode != b.hedge.mode:
        return None
    mine, theirs = claim.noun_after(_counted_at(claim, slot)), ev.noun_after(_counted_at(ev, other))
    return same_span(a.number, mine, b.number, theirs)


def _counts_alike(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether both figures say what they count, and it is the same thing ("5 goals", "five goals")."""
    mine, theirs = claim.noun_after(_counted_at(claim, slot)), ev.noun_after(_counted_at(ev, other))
    return mine is not None and theirs is not None and terms_match(mine, theirs)


def _counted_at(read: Parsed, slot: Slot) -> Slot:
    """The slot whose noun a figure counts: the second figure of its span for the first."""
    if slot.figure is None or slot.figure.hedge.mode not in "[(":
        return slot
    return next_figure(read, slot) or slot


def next_figure(read: Parsed, slot: Slot) -> Slot | None:
    """The figure after `slot` among the text's values (a span's second figure, for its first)."""
    values = list(read.values)
    later = values[values.index(slot) + 1 :] if slot in values else []
    return next((s for s in later if s.figure is not None), None)


def _bound(their_key: Slot | None, paired_key: Slot | None, my_key: Slot) -> bool:
    """Whether a window figure hangs on the date or name the claim's figure hangs on."""
    if their_key is None:
        return False
    return their_key is paired_key or bool(values_match(my_key, their_key))


def _assign(options: list[list[tuple[float, int]]]) -> list[int | None]:
    """The one-to-one choice with the highest total score; options[i] = (score, candidate) for slot i."""
    if len(options) > _MAX_SEARCH:
        return _greedy(options)
    best: tuple[float, list[int | None]] = (-1.0, [])

    def walk(i: int, used: frozenset[int], total: float, chosen: list[int | None]) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, (total, chosen), key=lambda b: b[0])
            return
        for score, c in options[i]:
            if c not in used:
                walk(i + 1, used | {c}, total + score, [*chosen, c])
        walk(i + 1, used, total, [*chosen, None])

    walk(0, frozenset(), 0.0, [])
    return best[1]


def _greedy(options: list[list[tuple[float, int]]]) -> list[int | None]:
    used: set[int] = set()
    picks: list[int | None] = []
    for opts in options:
        pick = next((c for _, c in opts if c not in used), None)
        if pick is not None:
            used.add(pick)
        picks.append(pick)
    return picks


def covered(needles: Sequence[str], hay: Collection[str]) -> float:
    """The share of `needles` matched (`terms_match`) by some word of `hay`."""
    if not needles:
        return 0.0
    exact = set(hay)
    hits = sum(1 for n in needles if n in exact or any(terms_match(n, h) for h in exact))
    return hits / len(needles)


def _inside(term: Term, slots: Sequence[Slot]) -> bool:
    return any(s.start <= term.start < s.end for s in slots)


def _segments(text: str) -> tuple[tuple[int, int], ...]:
    bounds, start = [], 0
    for m in _SEGMENT_END.finditer(text):
        if (
            text[m.end() : m.end() + 1].islower() and _ABBREVIATED.search(text, 0, m.start())
        ) or _TITLE.search(text, 0, m.start()):
            continue  # "the largest U.S. bank by deposits", "Dr. Lee said" are one clause
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return tuple(bounds)


def _mentions(text: str, entities: Sequence[Slot], taken: Sequence[Slot]) -> tuple[Slot, ...]:
    """The claim's names wherever the window spells them, even where they were not read as names."""
    found: list[Slot] = []
    for entity in entities:
        for m in re.finditer(rf"\b{re.escape(entity.text)}\b", text, re.IGNORECASE):
            if not any(m.start() < s.end and s.start < m.end() for s in (*taken, *found)):
                found.append(Slot(SlotKind.ENTITY, entity.value, m.start(), m.end(), m.group(0)))
    return tuple(found)

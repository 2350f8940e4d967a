"""Whether a window's full date may stand for a claim's year: the same event, of the same one. Pure.

A claim's year against a window's full date of another year is a conflict the rules fix with the
date's year ("The name was changed in 2001" against "On 30 December 1996 the name was changed": "in
1996"; `stages.slots.same_unit`). A year against a year, and a date against a date, are paired as they
always were (`stages.align`); only this newer pairing is held to the guards below, under which the
fix would say something no document does:

- another event's, by the verb before the date, where neither names the other's event just before
  its date ("The company was founded on 30 December 1996 and renamed the following year" for
  "renamed in 1997"; but "Smith made his debut in 2012" dates "Smith debuted");
- someone else's: the subjects (the words before each clause's first verb) differ in a word each
  ("The larger fund" for "The smaller fund", "Judge Green" for "Judge Brown"), the window's is
  someone's ("Ms Lee's deputy", "His successor"), or they share none and the date's part of the
  window's sentence does not name the claim's subject where both are names or both are roles
  ("Jones was appointed" for "Smith was appointed", "The defendant appealed" for "The plaintiff
  appealed"), or names the claim's other party as its subject ("Jones replaced Smith"); a pronoun,
  a generic noun for a name ("The series" for "The Millers") or a passive's agent is read;
- reported, planned or expected where the claim is not ("The union alleged that the factory closed
  on 3 May 2013", "The merger was expected to close on 30 December 2016"), or dated from another
  thing in the sentence ("two years after", "the following year");
- a bound ("by 1997", "before 2000", "since", "between", "within") or a span ("2020-21") on either
  side, a fiscal label, a year that names a thing ("The 2019 annual report"), a part of a year
  ("late 2019", "late in 2019", "Q3 2019", "the end of 2019");
- a window sentence that does not say the rest of the claim: a name or a content word it lacks
  ("approved for children in 2019" against "approved for adults on 20 November 2018"; "approved in
  Europe" against "in the United States"), or a "not" the claim lacks.

Usage::

    elsewhere(claim, slot, ev, other)   # True: no fix from this date (`stages.align` pairs them)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from workers.stages._text import AUX, MONTHS, REPORTED, STOPWORDS, WEEKDAYS, is_verb, wordset
from workers.stages.slots import Slot, SlotKind, values_match
from workers.stages.terms import Term, stem, terms_match

__all__ = ["elsewhere"]


class Parsed(Protocol):
    """What is read here of `stages.align.Parsed` (which imports this module)."""

    @property
    def text(self) -> str: ...
    @property
    def slots(self) -> tuple[Slot, ...]: ...
    @property
    def values(self) -> Sequence[Slot]: ...
    @property
    def terms(self) -> tuple[Term, ...]: ...
    def segment_of(self, pos: int) -> tuple[int, int]: ...
    def part_of(self, slot: Slot) -> tuple[int, int]: ...
    def subject_end(self, pos: int) -> int: ...
    def event_word(self, slot: Slot) -> str | None: ...
    def context(self) -> list[str]: ...


# Before a date, a word that makes it a bound or a span's end; after a year, a span's other end.
_BOUND = re.compile(
    r"\b(?:before|after|by|until|till|since|prior\s+to|between|from|through|to|and|than|as\s+of|pre|post"
    r"|within|ending|ended)(?:\s+(?:early|mid|late|the\s+end\s+of))?[\s-]+\Z",
    re.IGNORECASE,
)
_SPAN = re.compile(r"\s*[-–/]\s*\d")
# A part of a year before the claim's year: "late 2019", "late in 2019", "Q3 2019", "mid-2019".
_PART_OF_YEAR = re.compile(
    r"\b(?:(?:early|earlier|mid|late|later|spring|summer|autumn|fall|winter|q[1-4]|h[12])(?:\s+in)?"
    r"|(?:end|beginning|start|middle|close|half|quarter)\s+of(?:\s+the)?(?:\s+(?:fiscal\s+)?year)?)[\s-]+\Z",
    re.IGNORECASE,
)
# A year that names a thing, not when it happened: "The 2019 annual report", "its 2020 accounts".
_LABEL = re.compile(r"\b(?:the|a|an|its|their|his|her|our)\s+\Z", re.IGNORECASE)
_NEAR = 4
_WORD = re.compile(r"[A-Za-z][\w&'’-]*")
# A sentence that dates one thing from another: what it dates is not what the date says.
_RELATIVE = re.compile(
    r"\b(?:later|earlier|afterwards?|subsequently|ago"
    r"|(?:following|next|previous|preceding|prior)\s+(?:year|month|spring|summer|autumn|fall|winter|week|day|decade)"
    r"|(?:years?|months?|weeks?|days?|decades?)\s+(?:after|before|on))\b",
    re.IGNORECASE,
)
# A plan, an expectation or a possibility: no date of what happened ("the will" and "3 May" are none).
_UNREAL = re.compile(
    r"(?-i:\b(?:will|would|may|might|could|shall|should)\b)(?<!\bthe\swill)(?!\s+\d)"
    r"|\b(?:expect(?:s|ed)?|plan(?:s|ned)?|scheduled|set|intend(?:s|ed)?|aim(?:s|ed)?|hop(?:e|es|ed)|due)\s+to\b"
    r"|\b(?:forecast\w*|anticipat\w*)\b",
    re.IGNORECASE,
)
_FISCAL = re.compile(r"\b(?:fiscal|financial|FY)\s*(?:year\s+)?\Z", re.IGNORECASE)
# A passive's agent: "by CBS", "by the Senate".
_AGENT = re.compile(r"\bby\s+(?:the\s+)?([A-Za-z][\w&'’-]*)", re.IGNORECASE)
# A clause about someone's someone: "His successor", "Her deputy", "Their rival".
_OWNER = re.compile(r"\s*(?:his|her|their)\s+[a-z]", re.IGNORECASE)
# A possessive before another word of a subject: "Ms Lee's deputy", "Barclays' former chief".
_POSSESSIVE = re.compile(r"\b([A-Za-z][\w&-]*?)(?:['’]s|['’])\s+([A-Za-z][\w-]*)")
# Pronouns that name a person: "he" is not "she". "it", "they", "there" may be anything, so are no subject.
_PERSONS = wordset("he she i you")
_NOT_WHO = (STOPWORDS | set(MONTHS) | set(WEEKDAYS)) - _PERSONS


def elsewhere(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether the window's full date `other` is not the one to give the claim's year `slot` (see the
    module); a year against a year, or a date against a date, is `stages.align`'s as before."""
    if slot.kind is not SlotKind.YEAR or other.kind is not SlotKind.DATE:
        return False
    lo, hi = ev.segment_of(other.start)
    if _other_event(claim, slot, ev, other) or _someone_else(claim, slot, ev, other):
        return True
    if _RELATIVE.search(ev.text, lo, hi) or _unsaid(claim, ev, lo, other.start):
        return True
    sides = ((claim, slot), (ev, other))
    if any(_BOUND.search(r.text, 0, s.start) or _SPAN.match(r.text, s.end) for r, s in sides):
        return True
    before = claim.text[: slot.start]
    if _FISCAL.search(before) or _LABEL.search(before) or _PART_OF_YEAR.search(before):
        return True
    return _said_otherwise(claim, ev, other)


def _other_event(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether the window's date has its own verb for another event and neither names the other's
    just before its date ("made his debut in 2012" dates "debuted"; "After Arbroath's relegation in
    2013-14" the window's "relegated")."""
    event, theirs = _event(claim, slot), ev.event_word(other)
    if event is None or theirs is None or terms_match(event, theirs):
        return False
    near = [t.stem for t in ev.terms if t.start < other.start][-_NEAR:]
    start = claim.segment_of(slot.start)[0]
    mine = [t.stem for t in claim.terms if start <= t.start < slot.start][-_NEAR:]
    return not any(terms_match(event, w) for w in near) and not any(terms_match(theirs, w) for w in mine)


def _unsaid(claim: Parsed, ev: Parsed, lo: int, hi: int) -> bool:
    """Whether the window reports, plans or expects what its date dates and the claim does not
    ("The union alleged that the factory closed on 3 May 2013", "was expected to close on")."""
    return any(p.search(ev.text, lo, hi) and not p.search(claim.text) for p in (REPORTED, _UNREAL))


def _event(claim: Parsed, slot: Slot) -> str | None:
    """The claim's verb for its date: the one before it, or after it where the date comes first ("In
    2020, the patient was readmitted")."""
    before = claim.event_word(slot)
    if before is not None:
        return before
    hi = claim.segment_of(slot.start)[1]
    ws = _WORD.findall(claim.text, slot.end, hi)
    verbs = [w.lower() for i, w in enumerate(ws) if is_verb(ws, i) and w.lower() not in AUX]
    return stem(verbs[0]) if verbs else None


def _someone_else(claim: Parsed, slot: Slot, ev: Parsed, other: Slot) -> bool:
    """Whether the window's clause is about someone else: its subject (the words before its first verb)
    has a word the claim's has not and lacks one it has ("The larger fund" for "The smaller fund",
    "Judge Green" for "Judge Brown"), or is someone's ("Ms Lee's deputy" for "Ms Lee"); or, where
    the two share no word, the window's clause does not say the claim's subject and both are names
    or both are not, or its subject is another the claim names ("Jones replaced Smith" for "Smith
    replaced Jones"); for pronouns alone, "he" against "she". A pronoun may be anyone named: "The lawsuit was
    settled in 2016" against "In 2015 it was settled" is read, and so is "The dividend was cut"
    against "The board cut the dividend"."""
    mine, theirs = _who(claim, slot.start), _who(ev, other.start)
    if not mine or not theirs:
        return False
    if _OWNER.match(ev.text, ev.segment_of(other.start)[0]) and not mine & theirs:
        return True  # "His successor, Jones," for "He": someone's
    if mine <= _PERSONS or theirs <= _PERSONS:
        return mine <= _PERSONS and theirs <= _PERSONS and not mine & theirs
    if mine & theirs:
        return bool(mine - theirs and theirs - mine) or _owned(ev, other, mine)
    lo, hi = ev.part_of(other)
    clause = {_plain(w) for w in _WORD.findall(ev.text, lo, hi)}
    named = {w for w in mine if w in _capitalised(claim.text)}
    if not mine & clause:
        # a name for a name, or a role for a role ("The plaintiff" for "The defendant"); "The series"
        # may be "The Millers", and "Acme" what "The company" is
        return bool(named) == bool(theirs & _capitalised(ev.text[lo:hi]))
    # a passive's agent is no reversal: "canceled by CBS", "approved by shareholders"
    if mine & {_plain(m.group(1)) for m in _AGENT.finditer(ev.text, lo, hi)}:
        return False
    agents = {_plain(m.group(1)) for m in _AGENT.finditer(claim.text)}
    return bool(theirs & {_plain(w) for w in _WORD.findall(claim.text)} - agents)


def _owned(ev: Parsed, other: Slot, mine: set[str]) -> bool:
    """Whether the window's subject is something of the claim's subject's: "Ms Lee's deputy"."""
    lo = ev.segment_of(other.start)[0]
    m = _POSSESSIVE.search(ev.text, lo, ev.subject_end(other.start))
    return m is not None and m.group(1).lower() in mine and m.group(2).lower() not in mine


def _who(read: Parsed, pos: int) -> set[str]:
    """The words of the clause at `pos` before its first verb, pronouns included, lowercased."""
    lo, hi = read.segment_of(pos)[0], read.subject_end(pos)
    return {_plain(m.group(0)) for m in _WORD.finditer(read.text, lo, hi)} - _NOT_WHO


def _plain(word: str) -> str:
    return re.sub(r"['’]s?\Z", "", word.lower())


def _capitalised(text: str) -> set[str]:
    return {_plain(w) for w in _WORD.findall(text) if w[:1].isupper()}


def _said_otherwise(claim: Parsed, ev: Parsed, other: Slot) -> bool:
    """Whether the window's sentence of `other` lacks a name or a content word of the claim, or has a
    "not" the claim does not."""
    lo, hi = ev.segment_of(other.start)
    names = [s for s in claim.values if s.kind is SlotKind.ENTITY]
    theirs = [e for e in ev.values if lo <= e.start < hi]
    if any(not any(values_match(s, e) for e in theirs) for s in names):
        return True
    said = {t.stem for t in ev.terms if lo <= t.start < hi}
    if any(w not in said for w in claim.context()):
        return True
    negations = [s for s in ev.slots if s.kind is SlotKind.NEGATION and lo <= s.start < hi]
    return bool(negations) and not any(s.kind is SlotKind.NEGATION for s in claim.slots)

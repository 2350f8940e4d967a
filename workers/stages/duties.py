"""Which party does what: an item the claim gives one party that the window gives the other. Pure.

"The buyer will cover stamp duty land tax, registration fees and the agent's commission" against
"The Seller shall bear all agent's commission and the cost of discharging any existing mortgage. The
Buyer shall pay the stamp duty land tax and registration fees": every word of the claim is in the
window and the model reads support, yet the claim moves a cost from the seller to the buyer. Who
pays, repairs, insures or notifies is the point of a contract, a tenancy or a policy.

Read narrowly, so that a correct answer in other words is never flagged:

- a party is one of a pair that excludes the other ("buyer" and "seller", "landlord" and "tenant",
  "lender" and "borrower", "insurer" and "policyholder" ...), as the subject of its clause: at the
  start of a sentence or after ", while", "whereas", "and", "but" or ";" (an article between), and
  followed by what it does for the other ("pays", "bears", "provides", "is responsible for", "shall
  <verb>"), never what it receives or takes from the other ("receives", "gets", "shall be paid",
  "will be eligible for", "will have access to", "will charge VAT", "will take a deposit"), never a
  possessive ("the seller's solicitor"), a compound ("Employee benefits"), an object ("shall
  reimburse the Buyer for ...") or one of a joint subject ("The Landlord and the Tenant shall each");
- a party's clause runs to the next party that is a subject, or its clause's end (a full stop, a
  semicolon, ", and", ", while", "whereas" ...), and is read in items: the parts between commas
  (not a figure's) and "and"/"or";
- an item of the claim's party is the window's other party's where two or more of its content words
  (those the window has at all, the verbs of a duty aside: "pay", "bear", "cover" ...) are all in a
  clause of the other party, no sentence that names the claim's party in any role says half of them
  ("check renal and thyroid function" may be "thyroid tests" in other words; "payable by the Buyer";
  a semicolon ends no such sentence), and neither clause names the other party but as an owner ("the
  lender's valuation"), holds a "not", or excepts ("all repairs except changing light bulbs");
- a window that speaks to "you", gives a duty to "each party", "either party" or "the parties", or
  says "likewise" or "the same" is not read: whose duty an item is may be said without a name.

Flagged, never fixed: moving an item between parties changes two clauses.

Usage::

    [d] = moved_duties("The buyer pays the agent's commission.",
                       "The Seller shall bear the agent's commission. The Buyer shall pay the fees.")
    d.party, d.other, d.item    # "buyer", "seller", "the agent's commission"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import sentence_around, wordset
from workers.stages.polarity import negations
from workers.stages.terms import content_terms, stem

__all__ = ["MovedDuty", "moved_duties"]


@dataclass(frozen=True, slots=True)
class MovedDuty:
    """The claim's `item` (`start`, `end` in the claim), said of `party`, the window's `other`'s."""

    party: str
    other: str
    item: str
    start: int
    end: int


_PAIRS = (
    ("buyer", "seller"),
    ("purchaser", "vendor"),
    ("landlord", "tenant"),
    ("lessor", "lessee"),
    ("employer", "employee"),
    ("lender", "borrower"),
    ("creditor", "debtor"),
    ("insurer", "policyholder"),
    ("licensor", "licensee"),
    ("claimant", "defendant"),
    ("plaintiff", "defendant"),
    ("contractor", "client"),
    ("specialist", "gp"),
)
_OTHERS: dict[str, set[str]] = {}
for _a, _b in _PAIRS:
    _OTHERS.setdefault(_a, set()).add(_b)
    _OTHERS.setdefault(_b, set()).add(_a)
_PARTY = "|".join(sorted(_OTHERS, key=len, reverse=True))
# What a party does for the other: pays, bears, provides ..., or a duty ("shall", "must", "is
# responsible for"), never what it receives ("shall receive", "is paid", "is covered", "gets").
_DOES = (
    r"pays?|bears?|covers?|meets?|provides?|arranges?|prepares?|deals?\s+with|handles?|carries\s+out"
    r"|settles?|discharges?|funds?|supplies|supply|maintains?|insures?|obtains?|submits?|serves?|notifies"
    r"|notify|(?:is|are)\s+(?:responsible|liable)|(?:has|have|needs?)\s+to"
)
# After a modal: what a party receives or takes from the other ("shall receive", "will be eligible",
# "will have access", "will charge VAT", "will take a deposit"), not what it does for the other.
_RECEIVES = (
    r"receive|get|collect|keep|retain|benefit|be(?!\s+(?:responsible|liable)\b)|have(?!\s+to\b)|charge"
    r"|take|hold|deduct|invoice|bill|require|ask|request|demand|accept|withhold|normally|usually|typically"
    r"|also\s+(?:receive|get|be|have|charge|take)"
)
# A party opening its clause, then what it does: "The Seller shall bear", "the tenant pays".
_SUBJECT = re.compile(
    r"(?:^|(?<=[.;!?]\s)|(?<=,\s)|(?<=\bwhile\s)|(?<=\bwhereas\s)|(?<=\band\s)|(?<=\bbut\s))"
    rf"(?:(?:the|a|an|each|any|every|your|our|their|its)\s+)?(?P<party>{_PARTY})s?\b(?!['’])"
    rf"(?=\s+(?:\w+ly\s+)?(?:{_DOES}|(?:shall|will|must|should)\s+(?:also\s+|then\s+)?(?!(?:{_RECEIVES})\b)\w+)\b)",
    re.IGNORECASE,
)
# A party of a joint subject: "The Landlord and the Tenant shall each keep a copy".
_JOINT = re.compile(rf"\b(?:{_PARTY})s?\s+(?:and|or)\s+(?:the\s+)?\Z", re.IGNORECASE)
# The verbs of a duty, which the other party's clause says in its own words: no item's words ("shall",
# "will", "must" are no content words at all).
_DUTY_WORDS = wordset(
    "pay bear cover meet provid arrang responsibl liabl deal handl carry settl discharg fund supply cost"
)
# Where a party's clause ends: its sentence's end, or a clause of another subject ("..., while packaging
# is at the seller's cost"; an Oxford comma's "and" ends it too, the price of never reading past one).
_CLAUSE_END = re.compile(
    r"[.;!?](?=\s|\Z)|,\s+(?:and|but|while|whereas|whilst|although|though|which|who)\b"
    r"|\s+(?:while|whereas|whilst)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.;!?](?=\s|\Z)")
_ITEM_SPLIT = re.compile(r",(?!\d)\s*(?:and\s+|or\s+)?|\s+(?:and|or|as\s+well\s+as|plus)\s+", re.IGNORECASE)
_LEAST = 2  # content words an item needs to be told from another


@dataclass(frozen=True, slots=True)
class _Clause:
    """A party's clause (`start`, `end`) and how far its sentence goes before another party (`stop`)."""

    party: str
    start: int
    end: int
    stop: int


# A window that gives duties to "you", to both parties, or to the party "likewise": whose duty an
# item is may be said without the party's name.
_UNNAMED = re.compile(
    r"\b(?:you|your|each\s+party|either\s+party|both\s+parties|the\s+parties|likewise|the\s+same)\b",
    re.IGNORECASE,
)
# A clause that excepts ("all repairs except changing light bulbs"): its words are not all its items.
_EXCEPTS = re.compile(
    r"\b(?:except|excepting|excluding|apart\s+from|other\s+than|save\s+for|but\s+not|unless)\b",
    re.IGNORECASE,
)


def moved_duties(claim: str, window: str) -> list[MovedDuty]:
    """The claim's items the window gives its party's counterpart and never its party."""
    if _UNNAMED.search(window):
        return []
    theirs = _clauses(window)
    said = _stems(window, 0, len(window))
    moved = []
    for mine in _clauses(claim):
        others = _OTHERS[mine.party]
        if any(_names(claim, mine, o) for o in others) or negations(claim[mine.start : mine.end]):
            continue
        # the party's own sentences, whole; the other party's clauses, up to their clause's end
        own = [_stems(window, c.start, c.stop) for c in theirs if c.party == mine.party]
        own += [_stems(window, lo, hi) for lo, hi in _naming(window, mine.party)]
        given = [
            (c.party, _stems(window, c.start, c.end))
            for c in theirs
            if c.party in others
            and not _names(window, c, mine.party)
            and not negations(window[c.start : c.stop])
            and not _EXCEPTS.search(window, c.start, c.stop)
        ]
        for lo, hi in _items(claim, mine):
            words = _words(claim[lo:hi], said, mine.party)
            if len(words) < _LEAST or any(len(words & stems) * 2 >= len(words) for stems in own):
                continue  # half said in the party's own sentence: its item in other words
            holder = next((party for party, stems in given if words <= stems), None)
            if holder is not None:
                moved.append(MovedDuty(mine.party, holder, claim[lo:hi].strip(), lo, hi))
    return moved


def _clauses(text: str) -> list[_Clause]:
    """Each party that is a subject, with its clause and the rest of its sentence up to the next one."""
    found = [m for m in _SUBJECT.finditer(text) if not _JOINT.search(text, max(0, m.start() - 40), m.start())]
    clauses = []
    for i, m in enumerate(found):
        cut = _CLAUSE_END.search(text, m.end())
        full = _SENTENCE_END.search(text, m.end())
        stop = full.start() if full else len(text)
        if i + 1 < len(found):
            stop = min(stop, found[i + 1].start())
        end = min(cut.start() if cut else len(text), stop)
        clauses.append(_Clause(m.group("party").lower(), m.start(), end, stop))
    return clauses


def _naming(text: str, party: str) -> set[tuple[int, int]]:
    """Every sentence of the window that names `party` in any role ("payable by the Buyer"), read as
    the party's own: an item half said there may be its duty in other words."""
    named = re.finditer(rf"\b{party}s?\b", text, re.IGNORECASE)
    return {sentence_around(text, m.start(), m.end()) for m in named}


def _items(text: str, clause: _Clause) -> list[tuple[int, int]]:
    """The clause's parts between commas and "and"/"or", as spans of `text`."""
    spans, start = [], clause.start
    for m in _ITEM_SPLIT.finditer(text, clause.start, clause.end):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, clause.end))
    return [(lo, hi) for lo, hi in spans if text[lo:hi].strip()]


def _words(item: str, said: set[str], party: str) -> set[str]:
    """The item's content words the window has at all (`said`), its party's name and a duty's verbs
    aside."""
    return {t.stem for t in content_terms(item) if t.stem in said and t.stem != stem(party)} - _DUTY_WORDS


def _stems(text: str, lo: int, hi: int) -> set[str]:
    return {t.stem for t in content_terms(text[lo:hi])}


def _names(text: str, clause: _Clause, party: str) -> bool:
    """Whether the clause names `party` other than as an owner ("the lender's valuation")."""
    found = re.search(rf"\b{party}s?\b(?!['’])", text[clause.start : clause.end], re.IGNORECASE)
    return found is not None

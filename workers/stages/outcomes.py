"""Outcomes said the other way round: "The FDA approved the drug" against "The FDA rejected the drug". Pure.

A decision, a verdict or a vote is one word in a sentence whose other words all agree, so tier-1
similarity is high and the cross-encoder reads the pair as support ("The appeal court upheld the
award of $1.5 million" against "The appeal court overturned the award of $1,500,000": verified, as
was "approved" against "rejected" and "accepted" against "rejected"; a review's probes). For a
legal or financial answer it is the whole point of the sentence. Here an outcome word of the claim
clashes with the window's opposite on the same axis (approval, a grant, an appeal, a verdict, a law,
a signature, a vote or test passed), and the claim is flagged, never fixed, only where:

- the claim states one outcome word, and no "not" stands in its clause or in the window's;
- the window's clause has the opposite word and none of the claim's side of that axis;
- that clause restates every other content word of the claim's clause: the same decision about
  the same thing by the same body ("The shareholders rejected the offer" is no clash with "The board
  accepted the offer"; "the board" is not there), and every year and date the claim gives ("convicted
  in 2015" is not the "acquitted in 2017" of a retrial);
- and neither clause holds more than the one decision: no contrast ("Unlike the EU, ...", "but"),
  no embedded or earlier decision ("overturned the ruling that had struck down the ban", "The drug,
  rejected in 2019, was cleared in 2021"), none joined by "and" ("vacated and remanded" is one), no
  decision told as an "-ing" form ("overturning the trial court"; ", citing its cost" tells none) or
  decision about a decision ("the decision overturning ..."); and neither word is a refusal to act
  ("refused to comment on the settlement").

A review of a version that fixed the claim with the window's word found it swapping winners and
losers ("Liverpool lost to Chelsea" made "won": who is the subject is more than the words say) and
taking another event for the claim's, so nothing here is ever fixed, and contests ("won", "lost")
are not read at all; a second review, of the flag, found correct claims flagged by clauses that hold
two decisions, hence the last condition: it reads plain sentences only, by design. Words with other
common senses are left out: "declined" (a fall), "allowed" (a permission), "dismissed" (from a
job); "passed" and "failed" are read only in a sentence about a bill or a test ("The Senate passed
the bill"; not "She passed in 2019", "passed the cost on to customers", "the bank failed").

Usage::

    [clash] = outcome_clashes(Parsed.of("The FDA approved the drug in 2019."),
                              Parsed.of("In 2019 the FDA rejected the drug."), segment=(0, 33))
    clash.word, clash.fix    # "approved", "rejected"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages.align import Parsed
from workers.stages.clauses import negated, restated, same_time, stems_between

__all__ = ["OutcomeClash", "outcome_clashes"]

# Each axis: (one side, the other side), past forms only.
_AXES: tuple[tuple[frozenset[str], frozenset[str]], ...] = tuple(
    (frozenset(yes.split()), frozenset(no.split()))
    for yes, no in (
        ("approved accepted adopted", "rejected refused"),
        ("granted", "denied refused"),
        ("upheld affirmed", "overturned reversed quashed vacated struck"),  # "struck down"
        ("convicted", "acquitted"),
        ("enacted", "repealed"),
        ("signed", "vetoed"),
        ("passed", "failed defeated rejected"),  # of a bill or a test only (`_PASSABLE`)
        ("won", "lost"),  # of a contest named after the verb, by the same subject (`_CONTESTED`)
    )
)
_VOTE = next(i for i, (yes, _) in enumerate(_AXES) if "passed" in yes)  # of a bill or a test only
_CONTEST = next(i for i, (yes, _) in enumerate(_AXES) if "won" in yes)  # of a contest only
_PASS_FAIL = frozenset(_AXES[_VOTE][0] | _AXES[_VOTE][1])
_WON_LOST = frozenset(_AXES[_CONTEST][0] | _AXES[_CONTEST][1])
# What is passed or failed: a bill, a motion, a test. "passed" alone may be a death ("passed in 2019"),
# and "passed on to customers" a cost handed on; "the bank failed" a collapse.
_PASSABLE = re.compile(
    r"\b(?:bills?|acts?|laws?|motions?|resolutions?|measures?|amendments?|budgets?|ordinances?|referendums?"
    r"|referenda|propositions?|legislation|tests?|exams?|examinations?|inspections?|audits?|screenings?)\b",
    re.IGNORECASE,
)
# Who votes: a bill that passed one chamber may fail in another ("The bill passed the Senate" and "The
# Senate's bill was defeated in the Assembly" are both true).
_BODY = re.compile(
    r"\b(?:senate|house|assembly|parliament|congress|commons|lords|council|committee|chamber|floor"
    r"|legislature)\b",
    re.IGNORECASE,
)
# What passed or failed, as the verb's subject: "The bill passed", "The motion was defeated" (not "Smith,
# author of the 1996 act, passed in 2019").
_PASSED_BY = re.compile(
    _PASSABLE.pattern + r"\s+(?:(?:was|were|is|are|has\s+been|have\s+been|had\s+been)\s+)?\Z", re.IGNORECASE
)
# What is passed, as its object: "passed the Fed's 2023 stress test", not "failed in 2008 with a clean
# audit opinion".
_PASSED_WHAT = re.compile(
    r"(?:\s+(?!(?:in|with|on|at|by|for|after|before|during|from|to|and|but|as)\b)[\w'’.-]+){0,5}?\s+"
    + _PASSABLE.pattern,
    re.IGNORECASE,
)
# What is won or lost, as the verb's object: "won the 2020 election", "lost its appeal"; not "lost $5m",
# "lost weight", "won praise".
_CONTESTED = re.compile(
    r"(?![\s$€£]*\d)"  # a tally ("won 202 seats", "won 48 percent of the vote") is no contest won
    r"(?:\s+(?!(?:in|with|on|at|by|for|after|before|during|from|to|and|but|as|against)\b)[$€£\w'’.,-]+){0,4}?"
    r"\s+(?P<contest>(?:re-?)?elections?|races?|primary|primaries|run-?offs?|nominations?|majority|seats?|votes?"
    r"|referendums?|cases?|lawsuits?|suits?|trials?|appeals?|arbitrations?|disputes?|challenges?|bids?"
    r"|tenders?|contracts?|matche?s?|games?|finals?|championships?|titles?|cups?|tournaments?|series"
    r"|contests?|battles?)\b",
    re.IGNORECASE,
)
_PASSED_ON = re.compile(r"(?:\s+[\w'’-]+){0,4}?\s+(?:on\s+to|onto|along|away|down|over|out)\b", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z]+")
# A capitalized word before another is part of a name ("the First Amendment"), not a second decision.
_NAMED = re.compile(r"[A-Z]\w*\s+[A-Z]")
# A second decision told as an "-ing" form ("acquitted Jones, overturning the trial court"); other
# "-ing" forms are no decision (", citing its cost").
_DECIDING = (
    "(?:approv|accept|adopt|reject|refus|grant|deny|uphold|affirm|overturn|revers|quash|vacat|strik"
    "|convict|acquitt|enact|repeal|sign|veto|find|hold)ing"
)
# "refused to comment on the deal" refuses an act, not the deal.
_INFINITIVE = re.compile(r"\s+to\s+[a-z]")
# A clause that holds more than one decision: a contrast ("Unlike the EU, the US rejected ..."), an
# embedded or earlier one ("overturned the ruling that had struck down the ban", "The drug, rejected
# in 2019, was cleared in 2021"), another joined by "and" ("convicted of manslaughter and cleared of
# murder"; "vacated and remanded" is one), or a decision about a decision ("the decision overturning").
_TANGLED = re.compile(
    r"\b(?:unlike|whereas|while|although|though|despite|instead|but|which|that|who|whose|whom|had"
    r"|having|and(?!\s+remanded\b)|earlier|initially|previously|first|finally|later|after|before|then"
    r"|again|retrial|" + _DECIDING + r")\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class OutcomeClash:
    """The claim's outcome word at [start, end) and the window's opposite (`fix`, for the reason)."""

    start: int
    end: int
    word: str
    fix: str


def outcome_clashes(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[OutcomeClash]:
    """The claim's one outcome word against its opposite in the window's clause `segment`."""
    mine = [(m, axis, side) for m in _WORD.finditer(claim.text) for axis, side in _sides(claim, m)]
    lo, hi = segment
    if len({m.start() for m, _, _ in mine}) != 1 or not _plain(claim, (0, len(claim.text))):
        return []
    theirs = {m.group(0).lower(): m for m in _WORD.finditer(ev.text, lo, hi)}
    if not _plain(ev, segment) or any(w in _AXES[axis][side] for _, axis, side in mine for w in theirs):
        return []
    word = mine[0][0]
    found = next(
        ((m, axis) for _, axis, side in mine for w, m in theirs.items() if w in _AXES[axis][1 - side]), None
    )
    if found is None:
        return []
    opposite, axis = found
    if (
        _INFINITIVE.match(ev.text, opposite.end())
        or _INFINITIVE.match(claim.text, word.end())
        or (axis == _VOTE and not _passing(ev, opposite, segment, claim))
        or (axis == _CONTEST and not _same_side(claim, word, ev, opposite, segment))
    ):
        return []
    if not restated(claim, ev, segment, at=word.start()) or not same_time(claim, ev, segment):
        return []
    fix = opposite.group(0).lower()
    fix = fix[:1].upper() + fix[1:] if word.group(0)[:1].isupper() else fix
    return [OutcomeClash(word.start(), word.end(), word.group(0), fix)]


def _plain(read: Parsed, span: tuple[int, int]) -> bool:
    """One decision said plainly in `span`: no "not", no second decision or contrast (`_TANGLED`)."""
    return not negated(read, span) and not any(
        not _NAMED.match(read.text, m.start()) for m in _TANGLED.finditer(read.text, *span)
    )


def _sides(read: Parsed, m: re.Match[str]) -> list[tuple[int, int]]:
    """(axis, side) for each axis that lists the word `m`; passing and failing only of a bill or a
    test ("The bill passed the Senate", not "She passed in 2019" or "passed the cost on")."""
    w = m.group(0).lower()
    sides = [(i, side) for i, axis in enumerate(_AXES) for side in (0, 1) if w in axis[side]]
    if w in _PASS_FAIL and not _passing(read, m, (0, len(read.text))):
        sides = [(i, side) for i, side in sides if i != _VOTE]
    if w in _WON_LOST and not _CONTESTED.match(read.text, m.end()):
        sides = [(i, side) for i, side in sides if i != _CONTEST]
    return sides


def _same_side(
    claim: Parsed, word: re.Match[str], ev: Parsed, opposite: re.Match[str], span: tuple[int, int]
) -> bool:
    """Whether the window's loser (or winner) is the claim's winner (or loser): the words between the
    last comma and each verb are the same, and none of the claim's stands after the window's verb.
    "Smith won the election" clashes with "In 2020, Smith lost the election to Jones"; not "Jones won
    the election", "Chelsea lost the final to Liverpool" against "Liverpool won the final against
    Chelsea", nor "Smith's opponent, Jones, lost the election" or "In Smith v. Jones, Smith lost";
    and the same contest ("Smith won a majority" is no clash with "Smith lost the election")."""
    mine, theirs_won = (
        _CONTESTED.match(claim.text, word.end()),
        _CONTESTED.match(ev.text, opposite.end(), span[1]),
    )
    if mine is None or theirs_won is None or _contest(mine) != _contest(theirs_won):
        return False  # "won 48 percent of the vote" is no election lost
    who = _subject(claim, claim.segment_of(word.start())[0], word.start())
    theirs = _subject(ev, span[0], opposite.start())
    after = set(stems_between(ev, opposite.end(), span[1]))
    return bool(who) and who == theirs and not after & who


def _contest(m: re.Match[str]) -> str:
    return m.group("contest").lower().rstrip("s")


def _subject(read: Parsed, lo: int, at: int) -> set[str]:
    """The content words between the last comma before `at` (or `lo`) and `at`."""
    return set(stems_between(read, max(lo, read.text.rfind(",", lo, at) + 1), at))


def _passing(read: Parsed, m: re.Match[str], span: tuple[int, int], claim: Parsed | None = None) -> bool:
    """Whether `m` passes or fails a bill or a test named as its subject or object ("The bill passed",
    "failed its audit"; not "The bank failed in 2008 with a clean audit opinion", "passed the cost on
    to customers", "passed away"), and, in the window (`claim` given), by no body the claim does not
    name ("... was defeated in the Assembly" says nothing of the Senate's vote)."""
    subject = _PASSED_BY.search(read.text, span[0], m.start())
    if not subject and not _PASSED_WHAT.match(read.text, m.end(), span[1]):
        return False
    if m.group(0).lower() == "passed" and _PASSED_ON.match(read.text, m.end()):
        return False
    if claim is None:
        return True
    theirs = {b.group(0).lower() for b in _BODY.finditer(read.text, *span)}
    return theirs <= {b.group(0).lower() for b in _BODY.finditer(claim.text)}

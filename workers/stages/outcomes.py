"""Outcomes said the other way round: "The FDA approved the drug" against "The FDA rejected the drug". Pure.

A decision, a verdict or a vote is one word in a sentence whose other words all agree, so tier-1
similarity is high and the cross-encoder reads the pair as support ("The appeal court upheld the
award of $1.5 million" against "The appeal court overturned the award of $1,500,000": verified, as
was "approved" against "rejected" and "accepted" against "rejected"; a review's probes). For a
legal or financial answer it is the whole point of the sentence. Here an outcome word of the claim
clashes with the window's opposite on the same axis (approval, a grant, an appeal, a verdict, a law,
a signature), and the claim is flagged, never fixed, only where:

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
job), "passed" (died, went by).

Usage::

    [clash] = outcome_clashes(Parsed.of("The FDA approved the drug in 2019."),
                              Parsed.of("In 2019 the FDA rejected the drug."), segment=(0, 33))
    clash.word, clash.fix    # "approved", "rejected"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages.align import Parsed
from workers.stages.clauses import negated, restated, same_time

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
    )
)
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
    mine = [(m, axis, side) for m in _WORD.finditer(claim.text) for axis, side in _sides(m.group(0))]
    lo, hi = segment
    if len({m.start() for m, _, _ in mine}) != 1 or not _plain(claim, (0, len(claim.text))):
        return []
    theirs = {m.group(0).lower(): m for m in _WORD.finditer(ev.text, lo, hi)}
    if not _plain(ev, segment) or any(w in _AXES[axis][side] for _, axis, side in mine for w in theirs):
        return []
    word = mine[0][0]
    opposite = next(
        (m for _, axis, side in mine for w, m in theirs.items() if w in _AXES[axis][1 - side]), None
    )
    if (
        opposite is None
        or _INFINITIVE.match(ev.text, opposite.end())
        or _INFINITIVE.match(claim.text, word.end())
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


def _sides(word: str) -> list[tuple[int, int]]:
    """(axis, side) for each axis that lists `word`."""
    w = word.lower()
    return [(i, side) for i, axis in enumerate(_AXES) for side in (0, 1) if w in axis[side]]

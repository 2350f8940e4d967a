"""Ranks said otherwise: "Acme is the largest bank in Spain" against "the second-largest bank". Pure.

A rank is one word of a sentence whose other words all agree ("Acme is Spain's largest bank" and
"Acme is Spain's second-largest bank" share every word but one), so tier-1 similarity is high and the
cross-encoder reads the pair as support. For a finance answer the rank is often the point: the
largest lender, the second-biggest market, the third most valuable company. Here the claim's ranked
superlative clashes with the window's only where:

- the claim's clause holds one ranked superlative ("largest", "second-largest", "third most
  valuable"; no ordinal is first), and no "not" stands in it or in the window's clause;
- the window's clause ranks the same superlative word otherwise, and the window nowhere at the
  claim's rank ("Santander is the largest bank, ahead of Acme, the second-largest" states both
  ranks; "Acme was the largest bank in 2019. It fell to third-largest by 2023" may state the
  claim's "third-largest": no clash);
- what is ranked is the same: the words before the window's superlative are the claim's ("Beta is
  the second-largest bank, after Acme" ranks Beta);
- that clause restates every other content word of the claim's clause and every year and date it
  gives (`stages.clauses`): the same thing ranked among the same others ("largest bank in Spain" is
  no clash with "second-largest bank in Europe"); and it gives no other time and tells of no change
  ("In 2023 Acme was the second-largest, down from first place in 2019" is no clash with "In 2019,
  Acme was the largest"); a time the window gives and the claim does not turns the fix into a flag.

The fix is the window's ranked superlative, as written ("second-largest" for "largest", "largest"
for "second-largest").

Usage::

    [clash] = rank_clashes(Parsed.of("Acme is the largest bank in Spain."),
                           Parsed.of("Acme is the second-largest bank in Spain."), segment=(0, 41))
    clash.word, clash.fix    # "largest", "second-largest"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated, restated, same_time, stems_between
from workers.stages.slots import SlotKind

__all__ = ["RankClash", "rank_clashes", "ranked_otherwise"]

_ORDINALS = [
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
]
_SUPERLATIVE = re.compile(
    r"\b(?:(?P<ordinal>" + "|".join(_ORDINALS) + r"|\d+(?:st|nd|rd|th))[\s-]+)?"
    r"(?P<word>(?:most|least)\s+[a-z]{4,}|largest|biggest|smallest|highest|lowest|oldest|newest|youngest"
    r"|longest|shortest|tallest|fastest|busiest|richest|wealthiest|deadliest|heaviest|cheapest)\b",
    re.IGNORECASE,
)

# Before a superlative that is no single rank: "one of the largest", "among the biggest", "the two
# largest", "the top five highest".
_MANY_BEFORE = re.compile(
    r"(?:\b(?:one|some|many|several|any)\s+of|\bamong|\b(?:two|three|four|five|six|seven|eight|nine|ten|top"
    r"|\d+))\s+(?:(?:the|its|their|our|his|her)\s+)?\Z",
    re.IGNORECASE,
)
# Before "most" or "least" as a superlative ("the most valuable"), not a quantity ("most banks").
_OWNER_BEFORE = re.compile(r"(?:\b(?:the|its|their|our|his|her)|['’]s)\s+\Z", re.IGNORECASE)

# A rank that changed: "down from first place", "having led the market", "after ranking first" ("the
# second-largest, after Beta" is an order, no change).
_CHANGED = re.compile(
    r"\b(?:(?:down|up)\s+from|having|formerly|previously|once|until|then|former"
    r"|after\s+(?:ranking|being|leading|holding|topping)|first\s+place|top\s+spot)\b",
    re.IGNORECASE,
)
_TIMES = frozenset({SlotKind.YEAR, SlotKind.DATE})


@dataclass(frozen=True, slots=True)
class RankClash:
    """The claim's ranked superlative at [start, end), the window's (`other`, as written there) and the
    fix (None: flag)."""

    start: int
    end: int
    word: str
    other: str
    fix: str | None


def rank_clashes(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[RankClash]:
    """The claim's one ranked superlative against the same superlative ranked otherwise in the window's
    clause `segment`, which restates the rest of the claim's clause; none where either says "not"."""
    clash = _ranked_otherwise(claim, ev, segment)
    if clash is None or negated(claim, claim.segment_of(clash.start)) or negated(ev, segment):
        return []
    return [clash]


def ranked_otherwise(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> bool:
    """Whether the window's clause ranks the claim's superlative otherwise, whatever "not" either
    says: "Acme is not the largest bank" is what "Acme is the second-largest bank" says, so there is
    no "not" to take out."""
    return _ranked_otherwise(claim, ev, segment) is not None


def _ranked_otherwise(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> RankClash | None:
    mine = _ranks(claim.text, 0, len(claim.text))
    if len(mine) != 1:
        return None
    word = mine[0]
    clause = claim.segment_of(word.start())
    theirs = [m for m in _ranks(ev.text, *segment) if _same_word(m, word)]
    if not theirs or len({_rank(m) for m in theirs}) != 1:
        return None
    # the claim's rank anywhere in the window may be the claim's ("... the largest in 2019. It fell to
    # third-largest by 2023" states "Acme is the third-largest")
    if any(_rank(m) == _rank(word) for m in _ranks(ev.text, 0, len(ev.text)) if _same_word(m, word)):
        return None
    ordinal = [word.start("ordinal")] if word.group("ordinal") else []
    if not restated(claim, ev, segment, at=word.start("word"), unsaid=ordinal) or not same_time(
        claim, ev, segment
    ):
        return None
    if not _same_subject(claim, ev, (clause[0], word.start()), (segment[0], theirs[0].start())):
        return None
    if _CHANGED.search(ev.text, *segment):
        return None  # "the second-largest in 2023, down from first place in 2019": another time's rank
    mine_times, their_times = _times(claim, (0, len(claim.text))), _times(ev, segment)
    if mine_times and not their_times <= mine_times:
        return None
    # a rank the window dates and the claim does not ("Acme is the largest" against "In 2024 Acme was
    # the second-largest") is flagged: the claim may speak of another time
    fix = theirs[0].group(0) if their_times <= mine_times else None
    return RankClash(word.start(), word.end(), word.group(0), theirs[0].group(0), fix)


def _ranks(text: str, lo: int, hi: int) -> list[re.Match[str]]:
    """The ranked superlatives in text[lo:hi], leaving out many ("one of the largest") and quantities
    ("most banks")."""
    found = []
    for m in _SUPERLATIVE.finditer(text, lo, hi):
        before = text[max(0, m.start() - 40) : m.start()]
        quantity = m.group("word").lower().startswith(("most", "least")) and not m.group("ordinal")
        if not _MANY_BEFORE.search(before) and not (quantity and not _OWNER_BEFORE.search(before)):
            found.append(m)
    return found


def _times(read: Parsed, span: tuple[int, int]) -> set[object]:
    return {s.value for s in read.slots if s.kind in _TIMES and span[0] <= s.start < span[1]}


def _same_subject(claim: Parsed, ev: Parsed, mine: tuple[int, int], theirs: tuple[int, int]) -> bool:
    """Whether what is ranked is the same: the words before the window's superlative are the claim's
    ("Acme is Spain's largest"), not another's ("Beta is the second-largest bank, after Acme")."""
    before, said = stems_between(claim, *mine), stems_between(ev, *theirs)
    return bool(before) and covered(before, said) == 1.0 and covered(said, stems_between(claim, *mine)) == 1.0


def _same_word(m: re.Match[str], other: re.Match[str]) -> bool:
    return " ".join(m.group("word").lower().split()) == " ".join(other.group("word").lower().split())


def _rank(m: re.Match[str]) -> int:
    """1 for a superlative alone, 2 for "second-largest" or "2nd largest", and so on."""
    ordinal = (m.group("ordinal") or "").lower()
    if not ordinal:
        return 1
    return _ORDINALS.index(ordinal) + 2 if ordinal in _ORDINALS else int(ordinal[:-2])

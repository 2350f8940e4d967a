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

from workers.stages._text import ORDINAL_WORDS, lower_words
from workers.stages.align import Parsed, covered
from workers.stages.clauses import restated, same_time, stems_between
from workers.stages.slots import SlotKind

__all__ = ["RankClash", "rank_clashes", "ranked_otherwise"]

_ORDINALS = ORDINAL_WORDS[1:]  # "second" ... "twentieth": no ordinal is first
_SUPERLATIVE = re.compile(
    r"\b(?:(?P<ordinal>" + "|".join(_ORDINALS) + r"|\d+(?:st|nd|rd|th))[\s-]+)?"
    r"(?P<word>(?:most|least)\s+[a-z]{4,}|largest|biggest|smallest|highest|lowest|oldest|newest|youngest"
    r"|longest|shortest|tallest|fastest|busiest|richest|wealthiest|deadliest|heaviest|cheapest)\b",
    re.IGNORECASE,
)

# Before a superlative that is no single rank: "one of the largest", "one of the world's largest",
# "among Europe's biggest", "two of the largest", "the top five highest".
_MANY_BEFORE = re.compile(
    r"(?:\b(?:one|some|many|several|any|two|three|four|five|all|each|both)\s+of|\bamong"
    r"|\b(?:two|three|four|five|six|seven|eight|nine|ten|top|\d+))\s+"
    r"(?:(?:the|its|their|our|his|her)\s+)?(?:[\w.]+['’]s\s+)?\Z",
    re.IGNORECASE,
)
# A "not" said of the superlative itself: "is not the largest", "isn't Spain's largest".
_NOT_BEFORE = re.compile(
    r"(?:\bnot|\bnever|n['’]t)\s+(?:(?:the|its|their|our|his|her|a|an)\s+)?(?:[\w.]+['’]s\s+)?\Z",
    re.IGNORECASE,
)
# What the window ranks by, where the claim does not say it: "the second-largest bank by deposits".
# "the largest U.S. bank by deposits": a full stop inside an abbreviation ends nothing
_MEASURED = re.compile(
    r"(?:[^,;.]|\.(?=\w|\s+[a-z])){0,40}?\bby\s+(?:(?:the|its|their|total|a)\s+)?(?P<measure>[a-z]\w*)",
    re.IGNORECASE,
)
# Before "most" or "least" as a superlative ("the most valuable"), not a quantity ("most banks").
_OWNER_BEFORE = re.compile(r"(?:\b(?:the|its|their|our|his|her)|['’]s)\s+\Z", re.IGNORECASE)

# A rank that changed: "down from first place", "having led the market", "after ranking first" ("the
# second-largest, after Beta" is an order, no change).
_CHANGED = re.compile(
    r"\b(?:(?:down|up)\s+from|having|formerly|previously|once|until|then|former"
    r"|after\s+(?:ranking|being|leading|holding|topping)|first\s+place|top\s+spot|could|might|may|would)\b",
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
    clause `segment`, which restates the rest of the claim's clause; none where either says "not" of
    it. A rank the window dates and the claim does not ("Acme is the largest" against "In 2024 Acme
    was the second-largest") is flagged: the claim may speak of another time."""
    found = _ranked_otherwise(claim, ev, segment)
    if found is None or _denied(claim.text, found[0]) or _denied(ev.text, found[1]):
        return []
    mine, theirs = found
    dated = bool(_times(ev, segment)) and not _times(claim, (0, len(claim.text)))
    fix = None if dated or _measured_otherwise(claim, ev, theirs, segment) else theirs.group(0)
    return [RankClash(mine.start(), mine.end(), mine.group(0), theirs.group(0), fix)]


def ranked_otherwise(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> bool:
    """Whether the claim says "not" of a superlative the window's clause ranks otherwise: "Acme is not
    the largest bank" is what "Acme is the second-largest bank" says, so there is no "not" to take
    out."""
    found = _ranked_otherwise(claim, ev, segment)
    return found is not None and _denied(claim.text, found[0])


def _ranked_otherwise(
    claim: Parsed, ev: Parsed, segment: tuple[int, int]
) -> tuple[re.Match[str], re.Match[str]] | None:
    """The claim's superlative and the window's, where the window's clause ranks it otherwise and the
    window nowhere at the claim's rank ("... the largest in 2019. It fell to third-largest by 2023"
    may state "Acme is the third-largest")."""
    mine = _ranks(claim.text, 0, len(claim.text))
    if len(mine) != 1:
        return None
    word = mine[0]
    theirs = [m for m in _ranks(ev.text, *segment) if _same_word(m, word)]
    if not theirs or len({_rank(m) for m in theirs}) != 1:
        return None
    if any(_rank(m) == _rank(word) for m in _ranks(ev.text, 0, len(ev.text)) if _same_word(m, word)):
        return None
    return (word, theirs[0]) if _same_statement(claim, ev, segment, word, theirs[0]) else None


def _same_statement(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], word: re.Match[str], other: re.Match[str]
) -> bool:
    """Whether the window's clause says what the claim says but for the rank: its words and times, of
    the same subject, and no change of rank ("down from first place in 2019") or a guess ("could
    be")."""
    ordinal = [word.start("ordinal")] if word.group("ordinal") else []
    mine_times, their_times = _times(claim, (0, len(claim.text))), _times(ev, segment)
    return (
        restated(claim, ev, segment, at=word.start("word"), unsaid=ordinal)
        and same_time(claim, ev, segment)
        and (not mine_times or their_times <= mine_times)
        and _same_subject(
            claim, ev, (claim.segment_of(word.start())[0], word.start()), (segment[0], other.start())
        )
        and not _CHANGED.search(ev.text, *segment)
    )


def _measured_otherwise(claim: Parsed, ev: Parsed, other: re.Match[str], segment: tuple[int, int]) -> bool:
    """ "the second-largest bank by deposits" against a claim that names no deposits: the claim may
    mean another measure, so its rank is flagged, not fixed ("by the value of its deposits": "value")."""
    m = _MEASURED.match(ev.text, other.end(), segment[1])
    return m is not None and m.group("measure").lower() not in lower_words(claim.text)


def _denied(text: str, m: re.Match[str]) -> bool:
    return _NOT_BEFORE.search(text, max(0, m.start() - 40), m.start()) is not None


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
    return bool(before) and covered(before, said) == 1.0 and covered(said, before) == 1.0


def _same_word(m: re.Match[str], other: re.Match[str]) -> bool:
    return " ".join(m.group("word").lower().split()) == " ".join(other.group("word").lower().split())


def _rank(m: re.Match[str]) -> int:
    """1 for a superlative alone, 2 for "second-largest" or "2nd largest", and so on."""
    ordinal = (m.group("ordinal") or "").lower()
    if not ordinal:
        return 1
    return _ORDINALS.index(ordinal) + 2 if ordinal in _ORDINALS else int(ordinal[:-2])

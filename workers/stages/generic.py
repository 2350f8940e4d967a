"""A group said whole where the window says only part of it. Pure.

"Our fixed-rate mortgages come with a free standard valuation" against "Some of our fixed-rate
mortgages come with a free standard valuation", "Women experience hot flushes during menopause"
against "Many women experience hot flushes during menopause": the claim drops the window's "some",
"many", "most", "several", "a few" or "certain" before the group it opens with, and says of the whole
group what the window says of a part. The model reads it as support (every word is the window's) and
so did the rules: a quantifier is compared only with the claim's own (`backends.negation`).

Read only where it is plain: a window sentence opening with the quantifier (after at most a short
phrase and a comma), "of" and a determiner allowed ("Some of our"), and no aside after the group
("Some foods, like grapefruit, ..."); "certain" is no part ("Certain conditions apply" is
"Conditions apply"), nor "some" without a plural in its next three words ("Some discomfort", "Some
two thirds"), nor "most" before a word that is no plural ("Most common side effects"). A claim, or
a clause of it after "but", "although", "while" or ", and" (a list's bare "and" opens none; a later
clause needs two shared words), opening with the same words,
stem for stem, after at most a determiner ("Our", "The"), past the group: to the end of either
side, or through an auxiliary ("are", "can"), so a longer group ("Fixed-rate mortgage holders get")
or a narrower one ("Patients with diabetes need") is never taken for the window's. The window's
sentence holds two thirds of the words of that clause of the claim, which has no quantifier of its
own from there on, no hedge or example ("can", "may", "like", "such as", "prone to", "in the
majority of cases": "Women can experience hot flushes" says no more than "Many women experience
..."), no figure the window's sentence lacks, a possessive only where the part has it ("Our current
accounts" are not "Many current accounts"), and denies where the window's sentence
does ("Minor extensions don't need permission" against "Some minor extensions do not need
permission"); the window says the group whole nowhere ("Patients recover. Most patients recover
within a week."; "..., and all patients are discharged within 48 hours"; "..., but our current
accounts have no monthly fee"). "Some 5,000 people" is
an approximation, not a part. Flagged, never fixed: where "Some of" would go depends on the
sentence's grammar.

Usage::

    [g] = overgeneral("Our fixed-rate mortgages come with a free valuation.",
                      "Some of our fixed-rate mortgages come with a free valuation.")
    g.part, g.group    # "Some of our", "fixed-rate mortgages"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import AUX
from workers.stages.align import covered
from workers.stages.polarity import negations, quantifiers
from workers.stages.terms import content_terms, stem

__all__ = ["Overgeneral", "overgeneral"]


@dataclass(frozen=True, slots=True)
class Overgeneral:
    """The claim's group (`start`, `end` in the claim) the window limits with `part`."""

    part: str
    group: str
    start: int
    end: int


# The window sentence's opening part: "Some of our", "Many", "In trials, most of the".
# Not "certain" (also "particular": "Certain conditions apply"), nor "some" before no plural in its
# next three words ("Some discomfort is common", "Some two thirds"), nor "most" before a word that is
# no plural ("Most common side effects": a superlative).
_PLURAL = (
    r"(?!(?:one|two|three|four|five|six|seven|eight|nine|ten|half|a|an)\b)(?:[\w-]+\s+){0,2}?"
    r"(?:(?![\w-]*(?:ss|us|is)\b)(?!(?:was|has|does|as|this|its|his|yes|less|always)\b)[\w-]+s"
    r"|people|women|men|children)\b"
)
_PART = re.compile(
    r"(?:[^,.;:]{1,40},\s+)?(?P<part>(?:many|several|a\s+few|some(?=\s+of\b|\s+"
    rf"{_PLURAL})|most(?=\s+of\b|\s+[\w-]*[^\Ws]s\b|\s+(?:people|women|men|children)\b))(?:\s+of)?"
    r"(?:\s+(?:the|our|your|their|its|these|those))?)\s+(?![$£€]?\d)",
    re.IGNORECASE,
)
# The whole group said somewhere in the window: "and all patients are discharged within 48 hours".
_ALL = re.compile(
    r"\b(?:all|every|each)\s+(?:of\s+)?(?:(?:the|our|your|their|its|these|those)\s+)?", re.IGNORECASE
)
# A group that an aside follows: "Some foods, like grapefruit, can affect ...".
_ASIDE = re.compile(r"(?:[\w'’-]+\s+){0,2}[\w'’-]+,")
# A claim that hedges ("Women can experience", "Patients may be able to") or names examples ("Foods
# like grapefruit") says no more than the window's part.
_HEDGED = re.compile(
    r"\b(?:can|could|may|might|like|such\s+as|including|e\.g\.|majority|minority|prone|tends?|likely"
    r"|cases)\b",
    re.IGNORECASE,
)
_DETERMINER = re.compile(r"(?:the|our|your|their|its|these|those)\s+", re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’]*")
_SENTENCE_END = re.compile(r"[.!?;](?=\s|\Z)")
_CLAUSE_END = re.compile(r"[,;:]\s|\s(?:and|but|while|whereas|although|though)\s")
# A clause that opens another group: "..., although accounts opened before 2019 pay annually".
_JOIN = re.compile(
    r"(?:,\s+|\s)(?:but|although|though|while|whereas)\s+(?=[a-z])|,\s+and\s+(?=[a-z])", re.IGNORECASE
)
_MOST = 2 / 3
_OWNERS = frozenset({"our", "your", "their", "its"})
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def overgeneral(claim: str, window: str) -> list[Overgeneral]:
    """The claim's group, opening it or a clause after "but", "although", "while" or "and", that the
    window's sentence limits to a part of it."""
    for at in _openings(claim):
        found = _limited(claim, at, window)
        if found:
            return found
    return []


def _openings(claim: str) -> list[int]:
    return [0, *(m.end() for m in _JOIN.finditer(claim))]


def _limited(claim: str, at: int, window: str) -> list[Overgeneral]:
    rest = claim[at:]
    clause = _CLAUSE_END.split(rest, maxsplit=1)[0]  # what the window's sentence must say
    if quantifiers(rest) or _HEDGED.search(clause):
        return []
    mine = _words(claim, _after_det(claim, at))
    owner = claim[at : _after_det(claim, at)].strip().lower()
    if not mine:
        return []
    # "and all patients are discharged within 48 hours", "..., but our current accounts have no fee":
    # the whole group is said too
    starts = [m.end() for m in (*_ALL.finditer(window), *_JOIN.finditer(window))]
    plain = max((_shared_prefix(mine, _words(window, _after_det(window, at))) for at in starts), default=0)
    found: list[tuple[int, Overgeneral]] = []
    for lo, hi in _sentences(window):
        m = _PART.match(window, lo, hi)
        if m is not None and _ASIDE.match(window, m.end(), hi):
            continue  # "Some foods, like grapefruit, ...": the part is named in an aside
        if m is None:
            plain = max(plain, _shared_prefix(mine, _words(window, _after_det(window, lo), hi)))
            continue
        theirs = _words(window, m.end(), hi)
        size = _shared_prefix(mine, theirs)
        said = window[lo:hi]
        if owner in _OWNERS and not m.group("part").lower().endswith(owner):
            continue  # "Our current accounts" are not "Many current accounts"
        if (
            size > (1 if at else 0)
            and _group_ends(claim, mine, theirs, size)
            # its figures the window's ("within 5 days" is no part of "Most ... within 2 days")
            and set(_FIGURE.findall(clause)) <= set(_FIGURE.findall(said))
            and _said(clause, said)
            # both deny or neither: "Minor extensions don't need permission" for "Some ... do not"
            and bool(negations(clause)) == bool(negations(said))
        ):
            start, end = mine[0][1], mine[size - 1][2]
            found.append((size, Overgeneral(m.group("part"), claim[start:end], start, end)))
    # Another sentence says as much of the claim's opening words unlimited: the claim may be its.
    return [o for size, o in found if size > plain][:1]


def _after_det(text: str, at: int) -> int:
    det = _DETERMINER.match(text, at)
    return det.end() if det else at


def _words(text: str, lo: int, hi: int | None = None) -> list[tuple[str, int, int]]:
    """The words from `lo`, stemmed, with where they stand; a hyphenated word is its parts."""
    return [(stem(m.group(0)), m.start(), m.end()) for m in _WORD.finditer(text, lo, hi or len(text))]


def _word(text: str, word: tuple[str, int, int]) -> str:
    return text[word[1] : word[2]].lower()


def _shared_prefix(mine: list[tuple[str, int, int]], theirs: list[tuple[str, int, int]]) -> int:
    """How many words the two groups open with alike; none unless one is a content word."""
    size = 0
    for a, b in zip(mine, theirs, strict=False):
        if a[0] != b[0]:
            break
        size += 1
    heads = " ".join(w for w, _, _ in mine[:size])
    return size if content_terms(heads) else 0


def _group_ends(
    claim: str, mine: list[tuple[str, int, int]], theirs: list[tuple[str, int, int]], size: int
) -> bool:
    """Whether the shared words run past the group: to the end of either side, through an auxiliary
    ("are", "can"), or up to one on the claim's side; never where the claim's group goes on with words
    of its own ("Fixed-rate mortgage holders get", "Patients with diabetes need")."""
    if size >= len(mine) or size >= len(theirs):
        return True
    return any(_word(claim, w) in AUX for w in mine[1 : size + 1])


def _said(clause: str, sentence: str) -> bool:
    """Whether the window's sentence holds two thirds of the words of the claim's clause."""
    mine = [t.stem for t in content_terms(clause)]
    return covered(mine, [t.stem for t in content_terms(sentence)]) >= _MOST


def _sentences(text: str) -> list[tuple[int, int]]:
    bounds, start = [], 0
    for m in _SENTENCE_END.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return [
        (lo + len(text[lo:hi]) - len(text[lo:hi].lstrip()), hi) for lo, hi in bounds if text[lo:hi].strip()
    ]

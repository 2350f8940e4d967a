"""Nationalities: "French Montana is a Hungarian rapper" against "... American rapper French Montana". Pure.

The slot aligner pairs a name with a rival by the words around both, and a nationality said in
another order ("a Hungarian rapper" after the name, "American rapper" before it) shares none of them:
the claim's "Hungarian" is then only "not found", and the claim is flagged or, where the model is
sure, removed whole, though the window says what it should be. This module reads that one shape:
a nationality before a describing word ("rapper", "author", "professional boxer") in the claim, and
in the window the same word with another nationality tied to the claim's subject by the sentence's
own grammar: "American rapper French Montana" (the name right after), or "Christopher Eubank (born
1966) is a British former professional boxer" / "Joe R. Lansdale, an American author" (the name
right before, then "is", "was" or a comma, an article and the phrase).

A false clash damages a correct answer, so every condition leans to silence:

- the claim's nationality is written with a capital and followed, after a space, by a lower-case
  content word, and no "not" comes before it in the claim;
- the window never says the claim's nationality, in any case, nor inside a compound
  ("Austrian-born"), and the two are not one inside the other ("British", "Scottish");
- the holder is a name the claim ties to its nationality the same way, one that says no kind (a
  person, not a place or a league), matched whole or by its last word of three letters or more;
  between a nationality and its describing word come at most two other content words, none of them
  a nationality;
- one nationality only: a window tying two to the subject says nothing certain.

Usage::

    [clash] = nationality_clashes("French Montana is a Hungarian rapper.",
                                  "Excuse My French is the debut album by American rapper French Montana.")
    clash.wrong, clash.right, (clash.start, clash.end)    # "Hungarian", "American", (20, 29)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

from workers.stages.extract import split_sentences
from workers.stages.kinds import head, nested_nationalities
from workers.stages.terms import content_terms

__all__ = ["NationalityClash", "nationality_clashes"]

_TOKEN = re.compile(r"[A-Za-z][\w'’-]*|[(),]")
_NEGATION = re.compile(r"\b(?:not|never|no)\b|n['’]t\b", re.IGNORECASE)
_LINKS = frozenset({"is", "was", ","})
_ARTICLES = frozenset({"a", "an", "the"})
_MODIFIERS = 2  # content words between a nationality and its describing word ("former professional")
_ASIDE = 16  # tokens a parenthesis after the name may hold ("( born 8 August 1966 )")


@dataclass(frozen=True, slots=True)
class NationalityClash:
    """The claim's nationality at [start, end), and the one the window gives for the same word."""

    start: int
    end: int
    wrong: str
    right: str
    word: str


def nationality_clashes(claim: str, window: str) -> list[NationalityClash]:
    """Each nationality of `claim` the window gives otherwise, for the same word, to the same holder."""
    out = []
    subjects = _subjects(claim)
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", window)}
    matches = list(_TOKEN.finditer(claim))
    low = [m.group(0).lower() for m in matches]
    for i, (m, nxt) in enumerate(pairwise(matches)):
        mine = m.group(0)
        following = nxt.group(0) if claim[m.end() : nxt.start()].isspace() else ""
        if not _is_nationality(mine) or not _describes(following) or mine.lower() in said:
            continue
        if _NEGATION.search(claim[: m.start()]):
            continue
        holders = _holders(low, i, following, subjects)
        found = {
            r for a, b in split_sentences(window) for r in _tied(_tokens(window[a:b]), following, holders)
        }
        found -= {t.group(0) for t in matches}
        if len(found) == 1 and not nested_nationalities(mine, right := found.pop()):
            out.append(NationalityClash(m.start(), m.end(), mine, right, following))
    return out


def _holders(low: Sequence[str], at: int, word: str, subjects: list[list[str]]) -> list[list[str]]:
    """The subjects the claim's own grammar ties the nationality at `at` to ("Joe R. Lansdale, a
    Mexican author"; "Norwegian starlet Deshane Beckford"): the window must give the other to them."""
    end = _phrase_end(low, at, word)
    if end is None:
        return []
    return [ws for ws in subjects if _named_at(low, end + 1, [ws]) or _names_before(low, at, [ws])]


def _subjects(claim: str) -> list[list[str]]:
    """Each run of capitalised words of the claim that says no kind (a person, not a place or a league)
    as lower-case words ("Joe R. Lansdale": joe r lansdale), and its last word alone (3+ letters)."""
    runs: list[list[str]] = [[]]
    for tok in _TOKEN.findall(claim):
        if tok[:1].isupper():
            runs[-1].append(tok)
        elif runs[-1]:
            runs.append([])
    out = []
    for run in runs:
        if run and head(" ".join(run)) is None:  # a lone nationality has one: "nationality"
            ws = [w.lower() for w in run]
            out += [ws, ws[-1:]] if len(ws) > 1 and len(ws[-1]) >= 3 else [ws]
    return out


def _tokens(sentence: str) -> list[str]:
    """Words and "(", ")", ","; an all-lower-case sentence (tokenized news) gets capitalised nationalities."""
    toks = _TOKEN.findall(sentence)
    if sentence == sentence.lower():
        toks = [t.capitalize() if _is_nationality(t.capitalize()) else t for t in toks]
    return toks


def _tied(toks: Sequence[str], word: str, subjects: list[list[str]]) -> set[str]:
    """The nationalities `toks` puts before `word` in a phrase tied to one of `subjects`."""
    low = [t.lower() for t in toks]
    out = set()
    for i, tok in enumerate(toks):
        if not _is_nationality(tok):
            continue
        end = _phrase_end(low, i, word)
        if end is not None and (_named_at(low, end + 1, subjects) or _names_before(low, i, subjects)):
            out.add(tok)
    return out


def _phrase_end(low: Sequence[str], at: int, word: str) -> int | None:
    """Where `word` stands after the nationality at `at`, with at most `_MODIFIERS` content words between."""
    for j in range(at + 1, min(len(low), at + _MODIFIERS + 2)):
        if low[j] == word.lower():
            return j
        if not _modifier(low[j]):
            return None
    return None


def _named_at(low: Sequence[str], at: int, subjects: list[list[str]]) -> bool:
    """Whether a subject's name starts at `at` ("... rapper french montana")."""
    return any(list(low[at : at + len(ws)]) == ws for ws in subjects)


def _names_before(low: Sequence[str], at: int, subjects: list[list[str]]) -> bool:
    """Whether a subject's name ends just before "is", "was" or "," (an aside in brackets, or between
    commas before "is" / "was", allowed), an article and at most `_MODIFIERS` content words that come
    before the nationality at `at`."""
    k = at - 1
    while k >= 0 and _modifier(low[k]) and at - k <= _MODIFIERS:
        k -= 1
    k -= 1 if k >= 0 and low[k] in _ARTICLES else 0
    if k < 0 or low[k] not in _LINKS:
        return False
    k = _before_aside(low, k - 1, ",") if low[k] != "," else k - 1
    k = _before_aside(low, k, "(")
    return any(k - len(ws) + 1 >= 0 and list(low[k - len(ws) + 1 : k + 1]) == ws for ws in subjects)


def _before_aside(low: Sequence[str], k: int, opener: str) -> int:
    """Where the text before an aside ending at `k` ends ("Eubank ( born 1966 )", "Eubank , born in 1966
    ,"); `k` itself where no aside ends there, -1 where one ends but never opens."""
    closer = ")" if opener == "(" else ","
    if k < 0 or low[k] != closer:
        return k
    opened = [j for j in range(max(0, k - _ASIDE), k) if low[j] == opener]
    return opened[-1] - 1 if opened else -1


def _modifier(word: str) -> bool:
    return (
        word.isalpha()
        and word.islower()
        and bool(content_terms(word))
        and not _is_nationality(word.capitalize())
    )


def _describes(word: str) -> bool:
    """A lower-case content word: "rapper", "professional"; not "and"."""
    return word.islower() and bool(content_terms(word))


def _is_nationality(word: str) -> bool:
    return word[:1].isupper() and head(word) == "nationality"

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

- the claim's nationality is written with a capital and followed, after a space, by lower-case
  content words (its phrase, "professional boxer"), and no "not" comes before it in the claim;
- the claim ties it to one name by the same grammar (its holder: a run of capitalised words that
  says no kind, a person, not a place or a league); the window's sentence ties another nationality,
  before the phrase's last word, to that name: right after the phrase, the whole name and no more
  ("... French Montana", not "... French Montana Jr."), or before it with "is", "was" or a comma,
  the name opening its clause ("the brother of Tom Smith is ..." says nothing of Tom Smith) and
  matched whole or by its last name after a first name that begins like the claim's ("Christopher
  Eubank" for "Chris Eubank", never "Jaden Smith" for "Will Smith");
- between a nationality and its word at most two lower-case content words, none a nationality; in
  front of the nationality such words only after an article ("managing American rapper Bob Jones"
  is Bob Jones's); and the phrase ends there ("an American rapper fan" is someone else);
- in a sentence written all in lower case, a name after the phrase must follow its word at once
  ("french open champion rafael nadal" shows no capital to tell a modifier from a name);
- the window never says the claim's nationality, in any case, nor inside a compound
  ("Austrian-born"), and the two are not one inside the other ("British", "Scottish");
- one nationality only: a window tying two to the holder says nothing certain.

Usage::

    [clash] = nationality_clashes("French Montana is a Hungarian rapper.",
                                  "Excuse My French is the debut album by American rapper French Montana.")
    clash.wrong, clash.right, (clash.start, clash.end)    # "Hungarian", "American", (20, 29)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workers.stages.extract import split_sentences
from workers.stages.kinds import head, nested_nationalities
from workers.stages.terms import content_terms

__all__ = ["NationalityClash", "nationality_clashes"]

_TOKEN = re.compile(r"[A-Za-z][\w'’-]*|[(),]")
_NEGATION = re.compile(r"\b(?:not|never|no)\b|n['’]t\b", re.IGNORECASE)
_LINKS = frozenset({"is", "was", ","})
_ARTICLES = frozenset({"a", "an", "the"})
_OPENERS = frozenset({",", "(", "and", "but", "then"})  # what may come before a name that opens a clause
_AFTER_NAME = frozenset({"jr", "sr", "s"})  # a name that goes on is another name: "French Montana Jr."
_MODIFIERS = 2  # content words between a nationality and its describing word ("former professional")
_PHRASE = 3  # the claim's describing words after its nationality ("jazz singer", "professional boxer")
_NAME = 4  # words a holder's name may have in lower-case text, where no capital shows where it starts
_ASIDE = 16  # tokens an aside after the name may hold ("( born 8 August 1966 )", ", born in 1966 ,")

Holder = tuple[str, ...]


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
    matches = list(_TOKEN.finditer(claim))
    words = [m.group(0) for m in matches]
    # Most claims name no nationality: the window is read only for one that does.
    candidates = _candidates(claim, matches)
    if not candidates:
        return []
    said = {w.lower() for w in re.findall(r"[A-Za-z]+", window)}
    sentences = [_tokens(window[a:b]) for a, b in split_sentences(window)]
    out = []
    for i, m, phrase in candidates:
        holder = None if m.group(0).lower() in said else _claim_holder(words, i, len(phrase))
        if holder is None:
            continue
        found = {r for toks in sentences for r in _given(toks, phrase[-1], holder)} - set(words)
        if len(found) == 1 and not nested_nationalities(m.group(0), right := found.pop()):
            out.append(NationalityClash(m.start(), m.end(), m.group(0), right, phrase[0]))
    return out


def _candidates(claim: str, matches: Sequence[re.Match[str]]) -> list[tuple[int, re.Match[str], list[str]]]:
    """The claim's nationalities with their describing words, after a space and with no "not" before."""
    words = [m.group(0) for m in matches]
    out = []
    for i, m in enumerate(matches[:-1]):
        if not _is_nationality(m.group(0)) or not claim[m.end() : matches[i + 1].start()].isspace():
            continue
        phrase = _phrase(words, i)
        if phrase and not _NEGATION.search(claim[: m.start()]):
            out.append((i, m, phrase))
    return out


def _phrase(words: Sequence[str], at: int) -> list[str]:
    """The describing words right after the nationality at `at`: lower-case content words."""
    out = []
    for w in words[at + 1 : at + 1 + _PHRASE]:
        if not _describes(w):
            break
        out.append(w.lower())
    return out


def _claim_holder(words: Sequence[str], at: int, length: int) -> Holder | None:
    """The name the claim ties its nationality to: right after its phrase ("Norwegian starlet Deshane
    Beckford"), or before it ("Joe R. Lansdale, a Mexican author"); None where neither or both."""
    after = _run_from(words, at + 1 + length)
    before = _name_before(words, at, lower=False)
    if bool(after) == bool(before):
        return None
    return after or before


def _given(toks: Sequence[str], word: str, holder: Holder) -> set[str]:
    """The nationalities a sentence puts before `word` in a phrase tied to `holder`. In lower-case text
    a name after the phrase must follow the nationality's word at once: "french open champion rafael
    nadal" shows no capital to tell a modifier from a name."""
    lower = all(not t[:1].isupper() or _is_nationality(t) for t in toks)
    out = set()
    for i, tok in enumerate(toks):
        end = _phrase_end(toks, i, word) if _is_nationality(tok) else None
        if end is None:
            continue
        after = (not lower or end == i + 1) and _name_at(toks, end + 1, holder)
        if after or (_ends_phrase(toks, end) and _same_holder(_name_before(toks, i, lower=lower), holder)):
            out.add(tok)
    return out


def _phrase_end(toks: Sequence[str], at: int, word: str) -> int | None:
    """Where `word` stands after the nationality at `at`, with at most `_MODIFIERS` lower-case content
    words between (none of them a nationality)."""
    for j in range(at + 1, min(len(toks), at + _MODIFIERS + 2)):
        if toks[j].lower() == word:
            return j
        if not _modifier(toks[j]):
            return None
    return None


def _ends_phrase(toks: Sequence[str], end: int) -> bool:
    """No describing word goes on after `end`: "an American rapper fan", "rapper 's son" are someone else."""
    nxt = toks[end + 1] if end + 1 < len(toks) else ""
    return not (_describes(nxt) or nxt.lower() == "s")


def _name_at(toks: Sequence[str], at: int, holder: Holder) -> bool:
    """Whether the whole name `holder` starts at `at` and ends there ("... rapper French Montana", not
    "... French Montana Jr." or "... French Montana Williams")."""
    end = at + len(holder)
    if tuple(t.lower() for t in toks[at:end]) != holder:
        return False
    nxt = toks[end] if end < len(toks) else ""
    return not (nxt[:1].isupper() or nxt.lower() in _AFTER_NAME)


def _name_before(toks: Sequence[str], at: int, *, lower: bool) -> Holder | None:
    """The name before "is", "was" or "," (an aside allowed), an article and, after the article, at
    most `_MODIFIERS` content words that come before the nationality at `at`; with "is" / "was" the
    name must open its clause ("the brother of Tom Smith is ..." says nothing of Tom Smith)."""
    k = at - 1
    while k >= 0 and at - k <= _MODIFIERS and _modifier(toks[k]):
        k -= 1
    if k >= 0 and toks[k].lower() in _ARTICLES:
        k -= 1
    elif k < at - 1:
        return None  # "managing American rapper Bob Jones": a modifier only after an article
    if k < 0 or toks[k].lower() not in _LINKS:
        return None
    link = toks[k].lower()
    k = _before_aside(toks, k - 1, ",") if link != "," else k - 1
    k = _before_aside(toks, k, "(")
    start = _run_start(toks, k, lower=lower)
    if start is None or (link != "," and start > 0 and toks[start - 1].lower() not in _OPENERS):
        return None
    return _holder(toks[start : k + 1])


def _run_start(toks: Sequence[str], end: int, *, lower: bool) -> int | None:
    """Where the name ending at `end` starts: its capitalised words, or in lower-case text the words
    back to the clause's opening (at most `_NAME`)."""
    if end < 0 or not toks[end][:1].isalpha():
        return None
    start = end
    while start > 0 and toks[start - 1][:1].isalpha():
        if (not lower and not toks[start - 1][:1].isupper()) or (lower and end - start + 1 >= _NAME):
            break
        start -= 1
    return start


def _run_from(toks: Sequence[str], at: int) -> Holder | None:
    """The run of capitalised words starting at `at`, as a holder."""
    end = at
    while end < len(toks) and toks[end][:1].isupper():
        end += 1
    return _holder(toks[at:end])


def _holder(run: Sequence[str]) -> Holder | None:
    """A name that says no kind (a person, not a place, a league or a nationality), lower-cased."""
    if not run or head(" ".join(run)) is not None:
        return None
    return tuple(t.lower() for t in run)


def _same_holder(run: Holder | None, holder: Holder) -> bool:
    """The same name, or the same last name (3+ letters) after a first name that begins like the
    claim's ("Christopher Livingstone Eubank" for "Chris Eubank", not "Jaden Smith" for "Will Smith")."""
    if run is None or run == holder:
        return run is not None
    if len(run) < 2 or len(holder) < 2 or run[-1] != holder[-1] or len(holder[-1]) < 3:
        return False
    return run[0].startswith(holder[0]) or holder[0].startswith(run[0])


def _before_aside(toks: Sequence[str], k: int, opener: str) -> int:
    """Where the text before an aside ending at `k` ends ("Eubank ( born 1966 )", "Eubank , born in 1966
    ,"); `k` itself where no aside ends there, -1 where one ends but never opens."""
    closer = ")" if opener == "(" else ","
    if k < 0 or toks[k] != closer:
        return k
    opened = [j for j in range(max(0, k - _ASIDE), k) if toks[j] == opener]
    return opened[-1] - 1 if opened else -1


def _tokens(sentence: str) -> list[str]:
    """Words and "(", ")", ","; an all-lower-case sentence (tokenized news) gets capitalised nationalities."""
    toks = _TOKEN.findall(sentence)
    if sentence == sentence.lower():
        toks = [t.capitalize() if _is_nationality(t.capitalize()) else t for t in toks]
    return toks


def _modifier(word: str) -> bool:
    return _describes(word) and not _is_nationality(word.capitalize())


def _describes(word: str) -> bool:
    """A lower-case content word: "rapper", "stand-up", "professional"; not "and"."""
    return word.replace("-", "").isalpha() and word.islower() and bool(content_terms(word))


def _is_nationality(word: str) -> bool:
    return word[:1].isupper() and head(word) == "nationality"

"""Meaning-keeping edits of a true sentence: the result says no more than the sentence does. Pure.

Only edits that drop information or swap a word for a safe synonym: dropping keeps support, adding would
not. Each kind returns the edited sentence or None when it does not apply.

Usage::

    drop_parenthetical("Goertz (born 1991) is a musician.")      # "Goertz is a musician."
    paraphrases("In 2010, the firm bought Acme.")                # {"adverbial": "The firm bought Acme.", ...}
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workers.stages._text import is_clause, is_verb, words

__all__ = [
    "SUPPORT_KINDS",
    "drop_adverbial",
    "drop_appositive",
    "drop_parenthetical",
    "paraphrases",
    "split_clause",
    "swap_synonym",
]

_MIN_WORDS = 5
_PAREN = re.compile(r"\s*\([^()]{1,120}\)|\s*\[[^\[\]]{1,40}\]")


def drop_parenthetical(sentence: str) -> str | None:
    """Every "( ... )" aside and "[1]" citation taken out."""
    out = _PAREN.sub("", sentence)
    return _tidy(out) if out != sentence else None


# ", which was founded in 1990," / ", who ...," between a subject and its verb; ", a US firm," after a name.
_RELATIVE = re.compile(r",\s+(?:which|who|whose)\s+[^,;()]{3,120},\s+(?=[a-z])")
_APPOSITIVE = re.compile(
    r"^(?P<head>[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*){0,3}),\s+(?:an?|the)\s+[^,;()]{3,80},\s+(?=[a-z])"
)


def drop_appositive(sentence: str) -> str | None:
    """ "X, which ..., did Y" -> "X did Y"; "Acme, a US firm, did Y" -> "Acme did Y"."""
    m = _RELATIVE.search(sentence)
    if m is not None and _verb_follows(sentence, m.end()):
        return _tidy(sentence[: m.start()] + " " + sentence[m.end() :])
    m = _APPOSITIVE.match(sentence)
    if m is not None and _verb_follows(sentence, m.end()):
        return _tidy(m.group("head") + " " + sentence[m.end() :])
    return None


def _verb_follows(sentence: str, at: int) -> bool:
    """Whether the cut lands on the main verb ("X, which ..., was Y"); elsewhere it breaks the sentence."""
    ws = words(sentence[at:])
    return bool(ws) and is_verb(["It", *ws[:1]], 1)


# A leading time or place phrase ("In 2010, ", "During the war, "), or a discourse marker.
_LEADING = re.compile(
    r"^(?:(?:In|On|During|At)\s+[^,]{2,40}|However|Additionally|In addition|Moreover|Furthermore|Today"
    r"|Currently|Also|Meanwhile|Notably|Eventually|Later|Historically),\s+(?=[A-Za-z\"“])"
)


def drop_adverbial(sentence: str) -> str | None:
    """ "In 2010, the firm bought Acme." -> "The firm bought Acme." (less said, still supported)."""
    m = _LEADING.match(sentence)
    if m is None:
        return None
    rest = sentence[m.end() :]
    if not is_clause(words(rest), subject_first=True):
        return None
    return _tidy(rest[:1].upper() + rest[1:])


_SPLIT = re.compile(r";\s+|,\s+(?:and|but|while|whereas)\s+")
# A trailing participle or relative clause adds to the main claim: the part before it stands alone.
_TRAIL = re.compile(r",\s+(?:which|making|becoming|leading|giving|including|where|with)\b")


def split_clause(sentence: str, pick: int = 0) -> str | None:
    """One clause of "A did X, and B did Y" (or the main clause before ", which ..."), as a sentence."""
    parts = [p for p in _outside_brackets(_SPLIT, sentence) if p]
    if len(parts) < 2:
        m = _TRAIL.search(sentence)
        parts = [sentence[: m.start()]] if m else []
    clauses = [p for p in parts if is_clause(words(p), subject_first=True) and p[:1].isupper()]
    clauses += [p for p in parts[1:] if p[:1].islower() and _pronoun_or_the(p)]
    if not clauses:
        return None
    part = clauses[pick % len(clauses)]
    return _tidy(part[:1].upper() + part[1:])


def _outside_brackets(pattern: re.Pattern[str], sentence: str) -> list[str]:
    """`sentence` split at the matches of `pattern` that are not inside ( ) or quotes."""
    parts, start = [], 0
    for m in pattern.finditer(sentence):
        head = sentence[: m.start()]
        if head.count("(") == head.count(")") and head.count('"') % 2 == 0:
            parts.append(sentence[start : m.start()])
            start = m.end()
    return [*parts, sentence[start:]]


def _pronoun_or_the(part: str) -> bool:
    ws = words(part)
    return (
        bool(ws) and ws[0].lower() in ("it", "he", "she", "they", "the") and is_clause(ws, subject_first=True)
    )


_SYNONYMS = {
    "approximately": "about", "roughly": "about", "purchased": "bought", "bought": "purchased",
    "began": "started", "commenced": "began", "nearly": "almost", "almost": "nearly",
    "located in": "situated in", "situated in": "located in", "movie": "film", "film": "movie",
    "died": "passed away", "passed away": "died", "occurred": "happened", "happened": "occurred",
    "attempted": "tried", "tried": "attempted", "numerous": "many", "assisted": "helped",
    "helped": "assisted", "frequently": "often", "often": "frequently", "well-known": "famous",
    "famous": "well-known", "physician": "doctor", "due to": "because of", "because of": "due to",
    "large": "big", "big": "large", "is known as": "is called", "also known as": "also called",
    "received": "got", "established": "founded", "founded": "established", "residents": "inhabitants",
    "inhabitants": "residents", "currently": "presently", "presently": "currently",
}  # fmt: skip
_SYNONYM = re.compile(r"\b(?:" + "|".join(sorted(_SYNONYMS, key=len, reverse=True)) + r")\b")
_ABOUT_NUMBER = re.compile(r"\babout(?=\s+\$?\d)")


def swap_synonym(sentence: str, pick: int = 0) -> str | None:
    """A word from a small list of safe synonyms swapped: "purchased" -> "bought"."""
    found = [(m.start(), m.end(), _SYNONYMS[m.group()]) for m in _SYNONYM.finditer(sentence)]
    found += [(m.start(), m.end(), "approximately") for m in _ABOUT_NUMBER.finditer(sentence)]
    if not found:
        return None
    start, end, new = found[pick % len(found)]
    return sentence[:start] + new + sentence[end:]


def _tidy(text: str) -> str | None:
    """Spaces and punctuation mended after a cut; None when too little is left to be a claim."""
    text = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", text)).strip(" ,;")
    if len(words(text)) < _MIN_WORDS:
        return None
    return text if text.endswith((".", "!", "?", '"', "”")) else text + "."


SUPPORT_KINDS: dict[str, Callable[[str, int], str | None]] = {
    "parenthetical": lambda s, i: drop_parenthetical(s),
    "appositive": lambda s, i: drop_appositive(s),
    "adverbial": lambda s, i: drop_adverbial(s),
    "span": split_clause,
    "synonym": swap_synonym,
}


def paraphrases(sentence: str, pick: int = 0) -> dict[str, str]:
    """Each kind's meaning-keeping edit of `sentence`, for the kinds that apply and change it."""
    out: dict[str, str] = {}
    for kind, edit in SUPPORT_KINDS.items():
        claim = edit(sentence, pick)
        if claim is not None and " ".join(claim.split()) != " ".join(sentence.split()):
            out[kind] = claim
    return out

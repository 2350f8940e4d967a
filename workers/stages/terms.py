"""Content words: the stemmed words that say what a text is about, for overlap and BM25. Pure.

Usage::

    [t.stem for t in content_terms("Revenue was approved in 2023.")]   # ["revenue", "approv", "2023"]
    terms_match("head", "headquarter")                                  # True: a four-letter prefix
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Term", "content_terms", "stem", "stems_before", "terms_match"]


@dataclass(frozen=True, slots=True)
class Term:
    """A content word: its stem and where it stands."""

    stem: str
    start: int
    end: int


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_TERM = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’]*")
_STOPWORDS = _words(
    """a an the and or but if then than that this these those there here of in on at to for from by with as
    into onto over under about after before between during through per via is are was were be been being am
    has have had having do does did doing will would shall should can could may might must it its it's they
    them their theirs he him his she her hers we us our you your i me my which who whom whose what when where
    why how also just very so such too not no never without nor cannot all every each always none only some
    most mostly usually several sometimes few nobody nothing neither any both other another same own up down
    out off again further once more less one said says according among since within across against
    around upon toward towards near"""
)


def content_terms(text: str) -> list[Term]:
    """Lower-cased, stemmed words that carry content: no stopwords, negations or quantifiers."""
    terms = []
    for m in _TERM.finditer(text):
        word = m.group(0).lower().replace("’", "'").removesuffix("'s").rstrip("'-")
        if word and word not in _STOPWORDS and not word.endswith("n't"):
            terms.append(Term(stem(word), m.start(), m.end()))
    return terms


def stems_before(terms: Sequence[Term], pos: int, *, n: int = 2, lo: int = 0) -> list[str]:
    """The stems of the last `n` terms ending by `pos` and starting at `lo` or later: what a value
    hangs on ("rent" of "the monthly rent is £1,200")."""
    return [t.stem for t in terms if lo <= t.start and t.end <= pos][-n:]


# "employees" keeps its "ee" ("employe", as "employee"): never the "employ" of "employer".
_SUFFIXES = (("ies", "y"), ("sses", "ss"), ("ees", "ee"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


def stem(word: str) -> str:
    """A light suffix stripper: enough to make "approved", "approves" and "approve" one term."""
    w = word.lower()
    for suffix, keep in _SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3 and not w.endswith(("ss", "us", "is")):
            w = w[: len(w) - len(suffix)] + keep
            break
    return w[:-1] if len(w) > 4 and w.endswith("e") else w


def terms_match(a: str, b: str) -> bool:
    """Stems match when equal or one is a prefix (four letters or more) of the other: head ~ headquarter,
    but never employee ~ employer."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if len(short) < 4 or not long_.startswith(short) or short.isdigit():
        return False
    # "employe" (employee's stem) is no prefix of "employer", nor "paye" of "payer": the one a thing
    # is done to and the one who does it, never one word.
    return not (short[-1] == "e" and short[-2] not in "aeiou" and long_[len(short)] == "r")

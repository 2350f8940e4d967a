"""Negations and quantifiers as slots: the polarity of a sentence and how much of something it
claims ("all", "most", "some", "none"). Pure.

"almost all" and "nearly every" say most, not all; "some 5,000" is an approximation of a figure
(`stages.hedges`), not a quantifier; "not only" negates nothing.

Usage::

    [s.value for s in quantifiers("Almost all patients recovered.")]   # ["majority"]
    polarity(negations("It was not approved."))                       # False
"""

from __future__ import annotations

import re

from workers.stages._text import FEW_WORDS
from workers.stages.slot_types import Slot, SlotKind

__all__ = ["negations", "polarity", "quantifiers"]

_NEGATION = re.compile(r"\b(?:not|never|no|without|cannot|nor)\b|(?<=\w)n['’]t\b", re.IGNORECASE)
# "not only", and "not just" or "not merely" before a phrase that is no verb: more than, no denial
# ("continues after treatment, not just during it"); "You should not just stop taking it" denies.
_NOT_ONLY = re.compile(
    r"\bnot\s+(?:only|(?:just|merely)(?=\s+(?:a|an|the|during|for|in|on|at|to|about|because|by|with|from"
    r"|when|while|as|after|before|one|two|three|\d)\b))\b",
    re.IGNORECASE,
)
# "Not all patients recovered", "does not work in all patients": some did not. The "all" is the
# negation's (`backends.negation` reads "not all" as a doubt), never a quantifier a fix could make
# "Not Most" or "does not work in most".
_NOT_ALL = re.compile(
    rf"(?:\b(?:not|never|no|nobody|neither)|(?<=\w)n['’]t){FEW_WORDS}\s+(?:all|every|always|anyone|anybody"
    r"|everyone|everybody|many|often|typically|generally|frequently|commonly)\b",
    re.IGNORECASE,
)
# "as many as 300" hedges a figure (`stages.hedges`), "how many", "so many ... that", "too many" ask or
# say what followed, "many more", "many times higher" compare, "how often", "as often as" ask or compare:
# no quantifier a fix could write or copy.
_NOT_GRADED = re.compile(
    r"\b(?:as|how|so|too)\s+(?:many|often)\b|\bmany\s+(?:more|times)\b|\bmore\s+often\b"
    # "anyone" is all only opening its clause ("Anyone with kidney disease will need ..."): not "if
    # anyone in your family", "share it with anyone"
    r"|(?<![.;:,!?(]\s)(?<!\A)\bany(?:one|body)\b"
    # a name or a superlative, not how often: "commonly sold as Nurofen", "often called deposit
    # accounts", "frequently asked questions", "generally accepted accounting principles", "generally
    # speaking", "the most commonly prescribed"
    r"|\b(?:often|frequently|commonly|generally|typically)\s+(?:called|known|sold|referred|termed|named"
    r"|described|asked|accepted|speaking|regarded|considered|prescribed|used\s+as)\b"
    r"|\b(?:most|more|less|least)\s+(?:often|frequently|commonly|typically|generally)\b",
    re.IGNORECASE,
)
# "very few" is one quantifier: a fix writes it whole ("Most", never "Very Most"). "so few ... that"
# and "too few ... to" say what followed: no quantifier a fix could write or copy. A "so" that joins
# two clauses (", so few clinics remained open") leaves "few" the quantifier.
_INTENSIFIER = re.compile(r"\b(?:very|extremely|relatively|comparatively|fairly)\s+\Z", re.IGNORECASE)
_NEAR = 24  # the longest of these words with its space, and a look behind them
_SO_FEW = re.compile(r"(?<![,;]\s)(?<!\band\s)(?<!\bbut\s)\b(?:so|too)\s+\Z", re.IGNORECASE)
_QUANTIFIERS = {
    **dict.fromkeys(
        ["all", "every", "each", "always", "anyone", "anybody", "everyone", "everybody"], "universal"
    ),
    **dict.fromkeys(["most", "usually", "mostly", "typically", "generally"], "majority"),
    **dict.fromkeys(
        ["some", "several", "sometimes", "few", "many", "often", "frequently", "commonly"], "existential"
    ),
    **dict.fromkeys(["none", "nobody", "nothing", "neither"], "zero"),
    "only": "exclusive",
}
_QUANTIFIER = re.compile(r"\b(?:" + "|".join(_QUANTIFIERS) + r")\b", re.IGNORECASE)
_ALMOST = re.compile(r"\b(?:almost|nearly|virtually|practically)\s+\Z", re.IGNORECASE)
# "some 5,000 people", not "Some 2019 loans", "Some 5G networks", "Some 3D scans", "Some 401(k) plans".
_BEFORE_FIGURE = re.compile(r"\s+[$£€]?(?!(?:1[5-9]|20)\d\d\b)\d[\d,.]*(?![\w(/-])")


def polarity(slots: tuple[Slot, ...] | list[Slot]) -> bool:
    """True when the slots read positive: an even number of negations and "none"-like quantifiers."""
    flips = sum(1 for s in slots if s.kind is SlotKind.NEGATION or s.value == "zero")
    return flips % 2 == 0


def negations(text: str) -> list[Slot]:
    skip = [range(m.start(), m.end()) for m in _NOT_ONLY.finditer(text)]
    return [
        Slot(SlotKind.NEGATION, "not", m.start(), m.end(), m.group(0))
        for m in _NEGATION.finditer(text)
        if not any(m.start() in r for r in skip)
    ]


def quantifiers(text: str) -> list[Slot]:
    skip = [
        range(m.start(), m.end())
        for pattern in (_NOT_ONLY, _NOT_ALL, _NOT_GRADED)
        for m in pattern.finditer(text)
    ]
    return [
        _quantifier(text, m)
        for m in _QUANTIFIER.finditer(text)
        if not any(m.start() in r for r in skip) and not _approximates(text, m) and not _so_few(text, m)
    ]


def _quantifier(text: str, m: re.Match[str]) -> Slot:
    """The quantifier's slot; "almost all" is one, read as most, and "very few" one, read as few (a
    fix writes each whole)."""
    value = _QUANTIFIERS[m.group(0).lower()]
    almost = _ALMOST.search(text, 0, m.start()) if value == "universal" else None
    very = (
        _INTENSIFIER.search(text, max(0, m.start() - _NEAR), m.start())
        if m.group(0).lower() == "few"
        else None
    )
    opener = almost or very
    start = opener.start() if opener else m.start()
    return Slot(SlotKind.QUANTIFIER, "majority" if almost else value, start, m.end(), text[start : m.end()])


def _so_few(text: str, m: re.Match[str]) -> bool:
    return (
        m.group(0).lower() == "few" and _SO_FEW.search(text, max(0, m.start() - _NEAR), m.start()) is not None
    )


def _approximates(text: str, m: re.Match[str]) -> bool:
    """ "some 5,000 people": a hedge of the figure after it."""
    return m.group(0).lower() == "some" and _BEFORE_FIGURE.match(text, m.end()) is not None

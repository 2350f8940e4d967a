"""Decontextualisation: claims that open with a pronoun, made readable on their own. Pure.

"It orbits Earth at 540 km." names nothing to retrieve or check; after "The Hubble Space Telescope was
launched in 1990." it stands for "The Hubble Space Telescope orbits Earth at 540 km". The antecedent is
the previous claim's subject (its leading name, or the words before its verb); "the company" takes the
latest subject that is a name. Nothing is resolved where that is unclear: an expletive "It is likely
that ...", "he" after a subject that is no name, a previous claim with no plain subject.

Usage::

    claims = with_standalone(extract_claims(text))
    claims[1].text, claims[1].standalone   # "It orbits Earth ...", "The Hubble Space Telescope orbits ..."
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workers.messages import Claim
from workers.stages._text import FUNCTION_WORDS, SUBJECT_PRONOUNS, is_verb
from workers.stages.slots import SlotKind, extract_slots

__all__ = ["standalone_text", "with_standalone"]

_NOMINAL = (
    "company|firm|group|corporation|organi[sz]ation|business|bank|agency|institution|magazine|newspaper"
    "|journal|publisher|university|school|hospital|team|club|band|manufacturer|insurer|lender|startup"
)
_PRONOUN = re.compile(
    rf"(?:(?P<subject>it|they|he|she)|(?P<possessive>its|their|his|her)|(?P<nominal>(?:the|this)\s+(?:{_NOMINAL})))"
    r"(?=\s)",
    re.IGNORECASE,
)
# "It is likely that ...", "It seems ...", "It takes ...": an "it" that stands for nothing.
_EXPLETIVE = re.compile(
    r"it(?:'s|\s+(?:is|was|has\s+been|had\s+been|will\s+be|would\s+be|may\s+be|might\s+be|can\s+be))\s+"
    r"(?:not\s+)?(?:\w+ly\s+)?(?:likely|unlikely|possible|impossible|important|necessary|clear|unclear|true"
    r"|false|known|unknown|believed|thought|estimated|reported|said|expected|recommended|advised|noted|worth"
    r"|difficult|easy|essential|common|rare|crucial|vital|critical|advisable|safe|unsafe|time|a\s+good)\b"
    r"|it\s+(?:seems|seemed|appears|appeared|takes|took|follows|matters)\b",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\w+(?:['’-]\w+)*")
_PERSONAL = frozenset({"he", "she", "his", "her"})
_ARTICLES = frozenset({"the", "a", "an"})
# Words before the verb that still make a plain subject ("The new loan facility").
_MAX_SUBJECT_WORDS = 5
# "The company" looks this many claims back for the name it stands for.
_NAME_REACH = 3


@dataclass(frozen=True, slots=True)
class _Subject:
    text: str
    is_name: bool
    claim: int


def with_standalone(claims: Sequence[Claim]) -> list[Claim]:
    """The claims, each that opens with a resolvable pronoun given its `standalone` text."""
    out: list[Claim] = []
    previous: _Subject | None = None
    name: _Subject | None = None
    for i, claim in enumerate(claims):
        fresh = name if name is not None and i - name.claim <= _NAME_REACH else None
        resolved, subject = _resolve(claim.text, previous, fresh, index=i)
        out.append(claim.model_copy(update={"standalone": resolved}) if resolved else claim)
        previous = subject
        name = subject if subject is not None and subject.is_name else name
    return out


def standalone_text(text: str, *, previous: str) -> str | None:
    """`text` with its leading pronoun replaced by the subject of `previous`, or None."""
    subject = _subject_of(previous, index=0)
    name = subject if subject is not None and subject.is_name else None
    return _resolve(text, subject, name, index=1)[0]


def _resolve(
    text: str, previous: _Subject | None, name: _Subject | None, *, index: int
) -> tuple[str | None, _Subject | None]:
    """The standalone text (None if it needs none or none can be made) and this claim's subject."""
    m = _PRONOUN.match(text)
    if m is None or _EXPLETIVE.match(text):
        return None, _subject_of(text, index=index)
    word = m.group(0).lower()
    ante = name if m.group("nominal") else previous
    if ante is None or (word in _PERSONAL and not ante.is_name):
        return None, None
    written = _same_case(ante.text, m.group(0))
    if m.group("possessive"):
        written += "'" if written.endswith("s") else "'s"
    subject = previous if m.group("possessive") else _Subject(ante.text, ante.is_name, index)
    return written + text[m.end() :], subject


def _subject_of(text: str, *, index: int) -> _Subject | None:
    """The claim's leading name ("The Hubble Space Telescope"), or its words before the verb ("The loan")."""
    lead = next((s for s in extract_slots(text) if s.kind is SlotKind.ENTITY), None)
    if lead is not None and text[: lead.start].strip().lower() in ("", "the"):
        return _Subject(text[: lead.end], True, index)
    tokens = list(_TOKEN.finditer(text))
    ws = [t.group(0) for t in tokens]
    verb = next((i for i in range(1, len(ws)) if is_verb(ws, i)), None)
    if verb is None or verb > _MAX_SUBJECT_WORDS or not _plain(ws[:verb]):
        return None
    phrase = text[: tokens[verb].start()].rstrip()
    return _Subject(phrase, False, index) if not re.search(r"[^\w\s'’-]", phrase) else None


def _plain(ws: Sequence[str]) -> bool:
    """A noun phrase on its own: no figures, and not opening with a preposition or a pronoun."""
    first = ws[0].lower()
    if first in SUBJECT_PRONOUNS or (first in FUNCTION_WORDS and first not in _ARTICLES):
        return False
    return not any(w[:1].isdigit() for w in ws)


def _same_case(phrase: str, pronoun: str) -> str:
    """The antecedent in the pronoun's case: "The loan" for "It", "the loan" for "it"; names as written."""
    first, _, rest = phrase.partition(" ")
    if first.lower() not in _ARTICLES or not rest:
        return phrase
    head = first.capitalize() if pronoun[:1].isupper() else first.lower()
    return f"{head} {rest}"

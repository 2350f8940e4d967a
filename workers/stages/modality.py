"""What a person must, may, need not or must not do, said in other words than the window's. Pure.

`stages.swaps` reads "must take" against "may take" where every other word is the window's. An answer
rarely keeps them: "Tenants are required to give one month's notice" against "Tenants may give one
month's notice before leaving", "Employees are allowed to carry over five days" against "must use all
leave by 31 December", "Applicants need not attend an interview" against "must attend" were all read
as support: the model sees the same action, and no value or word of a closed set differs. Here a
phrase is read as one of six forces:

- must: "must", "shall", "is required to", "has to", "needs to", "is obliged to";
- may: "may", "can", "is allowed to", "is permitted to", "is entitled to", "has the right to" (not
  "can be used", "can be found": what is possible);
- need not: "need not", "does not have to", "is not required to", "is under no obligation to";
- must not: "must not", "may not", "cannot", "is not allowed to", "is prohibited from";
- should, and should not: "should", "is advised to", "should not", "is advised not to".

The claim's force clashes with the window's where the window says the claim's action (the verb after
the phrase, a participle after "be") under another force, in a sentence that holds half the words of
the claim's subject (where it has any) and two thirds of its other words, and nowhere says it under
the claim's force or one that agrees with it ("may" and "need not" agree: a permission to do is no
duty to do; "must" and "should" agree, and their denials: a leaflet's "should be used within 28
days" is its rule). Not read as a force: one after "may", "might", "could" or "can" ("may be required
to pay"), one denied before it ("never have to", "No one has to"), one over a bound ("should take no
more than 8 tablets": a limit), "can be used" (what is possible). Not compared: a window sentence
that is a question, or that limits its force to other cases than the claim does, or excepts some
("can accept all cards except American Express", "only full-time employees can claim"; "if",
"unless", "subject to", "without": "may sublet with consent" against "must not sublet without
consent"; "without" on both sides is one case); nor where each side names a thing after its phrase
that the other does not ("You can take paracetamol while breastfeeding" against "You should not take
aspirin while breastfeeding"; light verbs aside: "make any offer" is "offer"). A clash is a flag,
never a fix: the phrase carries the force, and another phrase changes the sentence's grammar and
often its party.

Usage::

    [c] = modal_clashes("Tenants are required to give one month's notice.",
                        "Tenants may give one month's notice before leaving.")
    c.claim, c.window    # "are required to", "may"
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from workers.stages._text import NUMBER_WORDS, sentence_around
from workers.stages.align import covered
from workers.stages.terms import content_terms, stem, terms_match

__all__ = ["Force", "ModalClash", "forces", "modal_clashes", "said_alike"]

Force = Literal["must", "may", "need not", "must not", "should", "should not"]

_BE = r"(?:is|are|was|were|be|been|will\s+be|shall\s+be)"
_HAVE = r"(?:has|have|had|will\s+have)"
_DO_NOT = r"(?:do|does|did|will)\s+not|(?:don|doesn|didn|won)['’]t"
_OBLIGED = r"(?:required|obliged|obligated|compelled)"
# Longest and negated readings first: "must not" before "must", "is not required to" before "required".
_PHRASES: tuple[tuple[str, Force], ...] = (
    (r"should\s+not|shouldn['’]t|ought\s+not\s+to", "should not"),
    (rf"{_BE}\s+(?:advised|recommended)\s+not\s+to", "should not"),
    (rf"need\s+not|needn['’]t|(?:{_DO_NOT})\s+(?:need|have)\s+to|no\s+need\s+to", "need not"),
    (rf"{_BE}\s+(?:not\s+{_OBLIGED}|under\s+no\s+obligation)\s+to", "need not"),
    (rf"{_BE}\s+not\s+to", "must not"),  # "Guests are not to smoke"
    (r"must\s+not|mustn['’]t|shall\s+not|shan['’]t|may\s+not|cannot|can\s+not|can['’]t", "must not"),
    (rf"{_BE}\s+not\s+(?:allowed|permitted|entitled|authori[sz]ed)\s+to", "must not"),
    (rf"{_BE}\s+(?:prohibited|forbidden|barred|banned|precluded)\s+(?:from|to)", "must not"),
    (rf"must|shall|{_BE}\s+(?:required|obliged|obligated|mandated)\s+to", "must"),
    (rf"{_HAVE}\s+to|needs?\s+to", "must"),
    (rf"may|can|{_BE}\s+(?:allowed|permitted|entitled|authori[sz]ed|free|eligible)\s+to", "may"),
    (rf"{_HAVE}\s+the\s+(?:right|option)\s+to", "may"),
    (rf"should|ought\s+to|{_BE}\s+(?:advised|recommended|encouraged)\s+to", "should"),
)  # fmt: skip
_PHRASE = re.compile(
    "|".join(rf"(?P<f{i}>\b(?:{p}))" for i, (p, _) in enumerate(_PHRASES)) + r"(?=\s+[a-z])",
    re.IGNORECASE,
)
# Words between a phrase and its verb that change nothing ("must also pay", "may promptly appeal").
_FILLER = re.compile(
    r"\s+(?:(?:also|only|still|first|then|always|each|both|either|immediately|promptly|normally|usually"
    r"|generally|typically|reasonably|lawfully|legally|additionally)\s+)*",
    re.IGNORECASE,
)
_VERB = re.compile(r"(?P<verb>[a-z]+)(?:\s+(?P<part>[a-z]+))?")
_CAP = re.compile(
    r"\s+(?:\w+\s+)?(?:no\s+more|not\s+more|no\s+longer|fewer|less|up\s+to|at\s+most|a\s+maximum|not\s+exceed"
    r"|exceed|more\s+than|at\s+least|a\s+minimum|no\s+less|not\s+less)\b",
    re.IGNORECASE,
)
# "can be used", "can be found": what is possible, not what is allowed.
_CAN_BE = re.compile(r"can\s+be\s+[a-z]+(?:ed|en|wn)\b", re.IGNORECASE)
# A force under another modal is uncertain ("may be required to pay", "could have to wait").
_UNCERTAIN = re.compile(
    r"\b(?:may|might|could|can|would)\s+(?:not\s+)?(?:be\s+|have\s+|need\s+)?\Z", re.IGNORECASE
)
# ... and one denied or limited by a word before it ("never have to", "No one has to", "don't always have
# to"): not the phrase's own force.
_DENIED = re.compile(r"(?:\bnot|n['’]t|\bnever|\bno\s+one|\bnobody|\bno)\s+(?:\w+\s+)?\Z", re.IGNORECASE)
# A modal over another ("may not have to", "might need to"): the inner phrase is read, as uncertain.
_OVER_MODAL = frozenset({"have", "need"})
# Forces that do not exclude each other: a permission to do is no duty to do; a leaflet's "should" is
# often its rule, so "has to be used within 28 days" against "should be used" is no clash.
_AGREE = {
    frozenset({"may", "need not"}),
    frozenset({"must", "should"}),
    frozenset({"must not", "should not"}),
}
_MIN_SHARED = 2 / 3
_HALF = 0.5  # of the claim's subject words before the window's phrase
_YOU = re.compile(r"\byou\b", re.IGNORECASE)
# Counts, and verbs that say little of what is done ("make any offer of settlement" is "offer a
# settlement"), are no thing an action is done to.
_NO_OBJECT = frozenset(NUMBER_WORDS) | {
    "make",
    "mak",
    "made",
    "do",
    "get",
    "give",
    "take",
    "have",
    "keep",
    "put",
}
# A force the window's sentence limits to some cases or excepts some from ("can accept all cards except
# American Express", "Only full-time employees can claim"): the claim may be about the other cases.
_LIMITED = re.compile(
    r"\b(?:except|excepting|unless|only|other\s+than|apart\s+from|excluding|but\s+not|if|provided|subject\s+to|without"
    r"|as\s+long\s+as)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Modal:
    """A force at text[start:end] over the action `verb` (a stem)."""

    force: Force
    start: int
    end: int
    verb: str


@dataclass(frozen=True, slots=True)
class ModalClash:
    """The claim's phrase `claim` said under another force in the window (`window`)."""

    claim: str
    window: str
    start: int
    end: int


def forces(text: str) -> list[Modal]:
    """Every force of `text` with the action it governs; one under another modal, denied or limited
    by a word before it, or over another modal, is left out."""
    return [
        m
        for m in _modals(text)
        if not (_UNCERTAIN.search(text, 0, m.start) or _DENIED.search(text, 0, m.start))
        and m.verb not in _OVER_MODAL
    ]


def modal_clashes(claim: str, window: str) -> list[ModalClash]:
    """The claim's forces the window says otherwise of the same action, in the same words."""
    theirs = forces(window)
    clashes = []
    for mine in forces(claim):
        same = [m for m in theirs if m.verb == mine.verb]
        if not same or any(_agree(mine.force, m.force) for m in same):
            continue
        other = next((m for m in same if _about(claim, mine, window, m)), None)
        if other is not None:
            clashes.append(
                ModalClash(
                    claim[mine.start : mine.end], window[other.start : other.end], mine.start, mine.end
                )
            )
    return clashes


def said_alike(claim: str, at: int, window: str) -> bool:
    """Whether the claim's force whose phrase holds `at` (its "not": "mustn't contact") is the window's
    force of the same action in other words ("is prohibited from contacting"): the "not" is no
    polarity to drop (`backends.negation`)."""
    mine = next((m for m in forces(claim) if m.start <= at < m.end), None)
    return mine is not None and any(
        m.verb == mine.verb and _agree(mine.force, m.force) for m in forces(window)
    )


def _modals(text: str) -> Iterator[Modal]:
    for m in _PHRASE.finditer(text):
        word = m.group(0)
        if word[0] == "M" and word.lower() == "may" and m.start() > 0:
            continue  # "in May 2024", "May Day"
        i = int(next(k for k, v in m.groupdict().items() if v is not None)[1:])
        verb = _verb(text, m.end())
        # "can be used" is what is possible; "should take no more than 8 tablets" a limit, whatever the force
        if verb is not None and not _CAN_BE.match(text, m.start()) and not _CAP.match(text, m.end()):
            yield Modal(_PHRASES[i][1], m.start(), m.end(), verb)


def _verb(text: str, pos: int) -> str | None:
    """The stem of the action after a phrase ending at `pos`: the verb, or the participle after "be"
    or "have" ("must be paid": "paid")."""
    filler = _FILLER.match(text, pos)
    m = _VERB.match(text, filler.end() if filler else pos)
    if m is None:
        return None
    verb, part = m.group("verb").lower(), (m.group("part") or "").lower()
    if verb in ("be", "have") and content_terms(part):
        return stem(part)
    return stem(verb)


def _agree(a: Force, b: Force) -> bool:
    return a == b or frozenset({a, b}) in _AGREE


def _about(claim: str, mine: Modal, window: str, theirs: Modal) -> bool:
    """Whether the window's sentence around `theirs` holds the claim's subject (half its words before
    the phrase, where it has any), two thirds of the claim's other words, and the same object: not
    where each side names a thing after its phrase the other does not ("You can take paracetamol"
    against "You should not take aspirin")."""
    lo, hi = sentence_around(window, theirs.start, theirs.end)
    if _limits(window[lo:hi]) != _limits(claim) or window[hi : hi + 1] == "?":
        return False  # limited to other cases than the claim's, or a question ("Do I have to pay?")
    before = [t.stem for t in content_terms(window[lo : theirs.start])]
    sentence = [t.stem for t in content_terms(window[lo:hi]) if not _in(t.start + lo, theirs)]
    subject = [t.stem for t in content_terms(claim[: mine.start])]
    rest = _words_after(claim, mine.end, len(claim))
    if subject and covered(subject, before) < _HALF:
        return False
    if not subject and before and not _YOU.search(window, lo, theirs.start):
        return False  # "You must give notice" is not said of "Your landlord" or "Witnesses"
    theirs_only = _missing(_words_after(window, theirs.end, hi), [t.stem for t in content_terms(claim)])
    if _missing(rest, sentence) and theirs_only:
        return False
    return bool(rest) and covered(rest, sentence) >= _MIN_SHARED


def _limits(text: str) -> frozenset[str]:
    """The words that limit a sentence's force to some cases ("without", "unless", "only" ...)."""
    return frozenset(" ".join(m.group(0).lower().split()) for m in _LIMITED.finditer(text))


def _words_after(text: str, start: int, end: int) -> list[str]:
    """The content words of text[start:end], figures and counts left out: what an action is done to."""
    return [
        t.stem
        for t in content_terms(text[start:end])
        if not t.stem[:1].isdigit() and t.stem not in _NO_OBJECT
    ]


def _missing(words: list[str], hay: list[str]) -> list[str]:
    return [w for w in words if not any(terms_match(w, h) for h in hay)]


def _in(pos: int, modal: Modal) -> bool:
    return modal.start <= pos < modal.end

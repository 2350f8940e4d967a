"""Asides between a subject and its verb: which only describe the subject, read past. Pure.

An aside between the window's subject and its verb ("The agreement, signed on 3 May 2021, is
non-binding") is read past where it only says when or by whom (a participle or a relative clause:
"made by Barclays in 2010", "which were issued in March 2019") or classifies the subject with a
noun phrase ("a former employee"). Any other may identify a part of the subject ("the injectable
form"), limit, hedge or report what follows ("in neonates", "probably", "the buyer claims"), hold
what the claim is about ("which turned out to be an invasive carcinoma") or set another subject
against it ("unlike the loan from Beta to Acme"): the sentence is then read as it stands.

What is found past an aside is a flag, never a fix (`stages.swaps`). A condition in the aside ("The
contract, if signed, is invalid") is read past too, and said where it stood: a word after it holds
only under it (`Reading.past`). A report added after the statement ("..., the buyer alleged"), a
question, and a later sentence saying the state changed ("On appeal ...") are said by `said_of` and
`changed_later`.

Usage::

    read = without_asides(Parsed.of("The agreement, signed on 3 May 2021, is non-binding."))
    read.ev.text    # "The agreement" + blanks + " is non-binding.": offsets kept
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

from workers.stages._text import AUX, REPORTED
from workers.stages.align import Parsed

__all__ = ["Reading", "changed_later", "said_of", "without_asides"]

# A condition: "non-binding until the board approves it", "if signed", "provided that".
_CONDITION = re.compile(
    r"[^,;.]{0,40}?\b(?:if|unless|until|provided\s+that|subject\s+to|except|save\s+for)\b", re.IGNORECASE
)
# An aside between a subject and its verb, a stretch of its own between commas ("The agreement, signed
# on 3 May 2021, is non-binding"; "The loan, however, was unsecured").
_ASIDE = re.compile(
    r",(?P<aside>[^,;:.()]{2,100}),(?=\s+(?:"
    + "|".join(sorted(AUX - {"be", "been", "being", "am"}, key=len, reverse=True))
    + r"|[a-z]{3,}ed)\b)"
)
# Asides that only describe the subject, read as if they were not there: a participle or a relative
# clause that says when or by whom and nothing else ("signed on 3 May 2021 by both parties", "which
# were issued in March 2019", "made by Barclays"), a noun phrase that classifies it ("a former
# employee", "a 62-year-old man"). Any other may identify a part of it ("the injectable form", "the
# junior tranche", "the 2027 series"), limit what follows ("in neonates", "for the first two years",
# "taken at doses of 5 mg or less"), hedge or report it ("probably", "the buyer claims"), hold what
# the claim is about ("which turned out to be an invasive carcinoma") or set another subject against
# it ("unlike the loan from Beta to Acme"): the sentence is then read as it stands.
_LIMITING = (
    r"(?!.*\b(?:for|to|as|under|during|except|when|with|without|per|regarding|case|likely|probably"
    r"|possibly|not|never|no|neither|nor|unlike|than|between|after|before|since|from|until|first|initial"
    r"|early|later?|now|period|term|phase|stage|often|even|usually|sometimes|generally|only|part|form"
    r"|version|tranche|series|class|original|following|above|over|below|under|less|more|smaller|larger)\b)"
)
_VERBED = (
    r"(?:[a-z]{2,}ed|made|paid|sold|built|bought|won|lost|set|brought|taken|given|written|drawn|chosen"
    r"|granted|sworn|spent|sent|lent|kept|began|begun|grown|grew)"
)
_MONTH = r"(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
# when ("in 2010", "on 3 May 2021", "in March 2019", "on 1 May") or by whom ("by Barclays", "by
# both parties", "by the Council")
_WHEN_OR_BY = (
    rf"(?:\s+(?:(?:in|on)\s+(?:\d{{1,2}}\s+{_MONTH}(?:\s+\d{{4}})?|{_MONTH}(?:\s+\d{{1,2}})?(?:,?\s+\d{{4}})?|\d{{4}})"
    r"|by\s+(?:the\s+|both\s+|its\s+|their\s+)?[A-Za-z][\w'’&-]*(?:\s+[A-Za-z][\w'’&-]*){0,3}))+"
)
_DESCRIBING = tuple(
    re.compile(r"\s*(?:" + shape + r")\s*", re.IGNORECASE)
    for shape in (
        rf"{_LIMITING}{_VERBED}{_WHEN_OR_BY}",
        rf"{_LIMITING}(?:which|who)\s+(?:(?:was|were|is|are|had\s+been|has\s+been|have\s+been)\s+)?{_VERBED}{_WHEN_OR_BY}",
        rf"{_LIMITING}an?\s+[^,]+",
    )
)
# Words of saying, thinking and finding, beyond `REPORTED`: an aside with one reports what follows
# ("the buyer claims", "the scans indicate").
_SAYING = re.compile(
    r"\b(?:sa(?:id|ys|y)|stat(?:e|ed|es)|t(?:old|ells)|wr(?:ote|ites|itten)|report\w*|record(?:s|ed)?|thought|think"
    r"|assum(?:es?|ed|ing)|underst\w*|hop(?:es?|ed|ing)|suspect\w*|presum\w*|impl(?:y|ies|ied)|insist\w*"
    r"|maintain\w*|noted|announc\w*|found|finds|held|holds|rul(?:ed|es)|conclu\w*|decid\w*"
    r"|determin\w*|according|view|opinion|seem\w*|appear\w*|expect\w*|estimat\w*|predict\w*|believ\w*"
    r"|claims?|argue|asserts?|testif\w*|conced\w*|admit\w*|indicat\w*|show(?:s|ed|n)?|warn\w*"
    r"|acknowledg\w*|confirm\w*|explain\w*|recall\w*|reveal\w*|accept\w*|submit\w*|contend\w*"
    r"|suggest\w*|complain\w*|insinuat\w*|concern\w*|fear\w*|doubt\w*|agree(?:s|d)?\s+that)\b",
    re.IGNORECASE,
)


# A later change of what the window's sentence says, in a sentence after it: "The expenses were
# disallowed by the inspector. On appeal the tribunal accepted them" (then a flag, not a fix).
_LATER = re.compile(
    r"\b(?:on\s+appeal|appeal(?:ed)?|later|subsequently|eventually|afterwards|thereafter|restor\w*|overrul\w*"
    r"|correct\w*|reinstat\w*|resum\w*|revers\w*|overturn\w*|quash\w*|set\s+aside|rescind\w*|replac\w*"
    r"|amend\w*|since\s+then|no\s+longer|ceased?|became|become|now|converted|cleared)\b",
    re.IGNORECASE,
)
# A report added after a statement, its last part: "..., the buyer alleged.", "..., says the website",
# "..., according to the first report" (not a verb of the statement: "..., Dr. Lee, announced it").
_TAG = re.compile(
    rf",\s*(?:(?:[\w'’.-]+\s+){{1,6}}(?:{_SAYING.pattern}|{REPORTED.pattern})|(?:says|said|according\s+to)\b)[^,;]*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Reading:
    """The window as read: as it is, or without its asides (`without_asides`), with where they stood
    and which of them set a condition."""

    ev: Parsed
    asides: tuple[tuple[int, int], ...] = ()
    conditions: tuple[tuple[int, int], ...] = ()

    def past(self, lo: int, hi: int, *, conditions: bool = False) -> bool:
        """Whether an aside (one that sets a condition) stood within [lo, hi)."""
        return any(lo <= a and b <= hi for a, b in (self.conditions if conditions else self.asides))

    def conditional(self, sentence: tuple[int, int], word: tuple[int, int]) -> bool:
        """Whether a condition stands in the sentence of a word at `word`: before it, in an aside
        before it, or just after it ("non-binding until the board approves it")."""
        (lo, hi), (start, end) = sentence, word
        before = _CONDITION.search(self.ev.text, lo, start) is not None
        return (
            before or self.past(lo, start, conditions=True) or bool(_CONDITION.match(self.ev.text, end, hi))
        )


def without_asides(ev: Parsed) -> Reading:
    """The window with each aside that describes its subject (`_kind`) or sets a condition blanked,
    its offsets kept, and where those conditions stood. Read once per window text (`_read`)."""
    return _read(ev.text) or Reading(ev)


@functools.lru_cache(maxsize=1024)
def _read(text: str) -> Reading | None:
    kinds = [(m.span(), _kind(m.group("aside"))) for m in _ASIDE.finditer(text)]
    kept = [(span, kind) for span, kind in kinds if kind]
    if not kept:
        return None
    bare = text
    for (lo, hi), _ in kept:
        bare = bare[:lo] + " " * (hi - lo) + bare[hi:]
    conditions = tuple(span for span, kind in kept if kind == "condition")
    return Reading(Parsed.of(bare), tuple(span for span, _ in kept), conditions)


def _kind(aside: str) -> Literal["describes", "condition", None]:
    """What an aside does: only describe the subject or link the sentence (`_DESCRIBING`), set a
    condition ("if signed", "until registered"), or neither (it reports, limits or hedges)."""
    if REPORTED.search(aside) or _SAYING.search(aside):
        return None
    if _CONDITION.search(aside):
        return "condition"
    return "describes" if any(shape.fullmatch(aside) for shape in _DESCRIBING) else None


def said_of(claim: str, text: str, pos: int, sentence: tuple[int, int]) -> bool:
    """Whether the window's sentence (`sentence`, of `text`) is a question, or adds after a comma past
    `pos` that what it says is someone's word and the `claim` does not ("... was unfit for purpose,
    the buyer alleged")."""
    question = text[sentence[0] : sentence[1]].rstrip().endswith("?")
    return question or (_TAG.search(text, pos, sentence[1]) is not None and not REPORTED.search(claim))


def changed_later(text: str, pos: int) -> bool:
    """Whether the window says after `pos` that a state changed: "... were disallowed by the inspector.
    On appeal the tribunal accepted them"."""
    return _LATER.search(text, pos) is not None

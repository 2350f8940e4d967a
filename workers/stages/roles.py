"""Role holders: "X was the 45th president of Y" against "Z served as the 45th President of Y". Pure.

The slot aligner never pairs a claim's subject name with another name: what a sentence is about is
not a value it states. Yet when a window gives the claim's very role to someone else, that someone is
the value the claim got wrong. This module reads one narrow shape on both sides, a clause that opens
with a name, a copula ("is", "was", "served as", "became") and a definite role, and reports a clash
when the roles read word for word alike and the holders differ.

A false clash damages a correct answer, so every condition leans to silence:

- the role must single out one holder: an ordinal ("45th"), a year, a one-off role ("author of",
  "capital of") or, when both sides say "is", a role "of" something (the current "CEO of Acme");
  never a plural role, a "co-" role, a comparison or an indefinite one ("a president");
- the role's content words must be the same, in order and as many (numbers exactly): "44th
  president" is another role, and "author of Harry Potter fan fiction" another work;
- both names must open their clause (after at most "In 2017,"), be of one kind (person-like, an
  acronym, an organisation or place), and the claim's name must be nowhere in the window;
- the window's name must not occur in the claim.

Usage::

    [clash] = role_clashes("Donald Trump was the 45th president of the United States.",
                           "Hillary Clinton served as the 45th President of the United States.")
    clash.holder.text, clash.other.text    # "Donald Trump", "Hillary Clinton"
    holder_named("Donald Trump was ...", "Trump said ...")   # True: the window names the claim's holder
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import wordset
from workers.stages.terms import content_terms, terms_match

__all__ = ["Holder", "RoleClash", "holder_named", "role_clashes"]

_PARTICLE = r"(?:de|da|del|van|von|der|bin|al|le|la)"
_CAP = r"[A-Z][\w'’.-]*"
_NAME = rf"{_CAP}(?:\s+(?:{_PARTICLE}\s+)?{_CAP}){{0,4}}"
_TITLE = r"(?:(?:President|Dr\.?|Mr\.?|Mrs\.?|Ms\.?|Prof\.?|Sir|Dame|Justice|Senator|Governor)\s+)"
_INTRO = r"(?:(?:In|On|By|Since|As\s+of)\s+[^,;:]{1,30},\s*)"
_COPULA = r"is|was|has\s+been|had\s+been|became|becomes|remains|remained|serves\s+as|served\s+as"
_STATEMENT = re.compile(
    rf"\s*{_INTRO}?{_TITLE}?(?P<name>{_NAME})\s+(?:(?:also|later)\s+)?(?P<verb>{_COPULA})\s+"
    r"(?P<role>[^,;:()\[\]\"“”]+)"
)
# Where a role ends: what follows is when, who or what else, not which role.
_ROLE_END = re.compile(
    r"\s+(?:from|since|until|between|during|when|who|whom|whose|which|that|and|but|while|after|before"
    r"|where|with|for|because|although|as)\b.*",
    re.IGNORECASE | re.DOTALL,
)
_PRESENT = frozenset({"is", "remains", "serves as", "has been", "becomes"})
_ORDINAL = re.compile(
    r"\b(?:\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth"
    r"|eleventh|twelfth)\b|\b(?:1[5-9]|20)\d\d\b",
    re.IGNORECASE,
)
# Roles with one holder for all time; "founder" is left out: companies have several.
_ONE_OFF = frozenset({"author", "writer", "inventor", "composer", "architect", "painter", "capital"})
# Words that make a capitalised run an organisation or a place rather than a person.
_ORG = wordset(
    """inc corp corporation company co ltd llc group university college institute school party
    republic kingdom empire states state city county province island islands river mountain mountains
    lake sea ocean bank foundation association council ministry department court church club team
    united national international museum agency airlines records press"""
)
_NOT_NAMES = wordset(
    """the a an this that these those it its he she they we if when while after before although but and
    or so however also yes no there here in on at for from by with as to of"""
)
# A role several hold at once, or a comparison, which no swap of its holder can check.
_NOT_ONE = re.compile(
    r"\bco-|\bone\s+of\b|\bamong\b|\bthan\b|\b(?:oldest|youngest|largest|biggest|smallest|highest|lowest"
    r"|longest|shortest|greatest|earliest|latest|newest|richest|tallest|fastest|most|least|best|worst)\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)")
_SEGMENT_END = re.compile(r"[.!?;]\s+")
_ABBREVIATION = re.compile(r"(?:\b[A-Z]|\b(?:Dr|Mr|Mrs|Ms|St|Jr|Sr|Prof|Inc|Co|Ltd|vs|U\.S))\Z")


@dataclass(frozen=True, slots=True)
class Holder:
    """A name opening a role statement, with where it stands in its text."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class RoleClash:
    """The claim's holder of a role, the window's other holder of it, and the role as the claim words it."""

    holder: Holder
    other: Holder
    role: str


@dataclass(frozen=True, slots=True)
class _Statement:
    holder: Holder
    present: bool
    role: str
    terms: tuple[str, ...]


def role_clashes(claim: str, window: str) -> list[RoleClash]:
    """Each window statement giving the claim's role to another holder (at most one per claim).

    >>> [c.other.text for c in role_clashes("Ann Lee wrote it.", "Bo Chan wrote it.")]
    []
    >>> [c.other.text for c in role_clashes("Al Li is the author of Dune.", "Bo Chan is the author of Dune.")]
    ['Bo Chan']
    """
    mine = _statement(claim, 0)
    if mine is None or not _identifying(mine) or holder_named(claim, window):
        return []
    for start in _segment_starts(window):
        theirs = _statement(window, start)
        if theirs is not None and _clash(mine, theirs, claim):
            return [RoleClash(mine.holder, theirs.holder, mine.role)]
    return []


def holder_named(claim: str, window: str) -> bool:
    """Whether `window` has any word of the claim's role holder (its name's words of 3+ letters), so
    the claim may be right about it whatever else the window says.

    >>> holder_named("Donald Trump was the 45th president.", "Mr Trump's rival")
    True
    """
    mine = _statement(claim, 0)
    if mine is None:
        return False
    return any(_has_word(window, word) for word in _name_words(mine.holder.text))


def _statement(text: str, start: int) -> _Statement | None:
    """The role statement opening the clause at `start`, if it has that shape."""
    m = _STATEMENT.match(text, start)
    if m is None or not _is_name(m.group("name")):
        return None
    role = _ROLE_END.sub("", _SENTENCE_END.split(m.group("role"))[0]).strip()
    if not _definite(role):
        return None
    holder = Holder(m.start("name"), m.end("name"), m.group("name"))
    verb = " ".join(m.group("verb").lower().split())
    return _Statement(holder, verb in _PRESENT, role, tuple(t.stem for t in content_terms(role)))


def _is_name(name: str) -> bool:
    """A run of capitalised words that is no sentence opener ("If", "The") and no possessive."""
    first = name.split()[0].lower()
    return first not in _NOT_NAMES and not name.endswith(("'s", "’s"))


def _definite(role: str) -> bool:
    """A role naming one holder: "the 45th president", "President of France"; not "a president",
    not "the founders", not a "co-" role, not a comparison ("the oldest")."""
    words = role.split()
    if len(words) < 2 or _NOT_ONE.search(role):
        return False
    if words[0].lower() != "the" and not words[0][:1].isupper():
        return False
    head = _head(role)
    return head is not None and not _plural(head)


def _head(role: str) -> str | None:
    """The role's first word that is neither "the" nor an ordinal or year: what the holder is."""
    words = [w for w in re.findall(r"[\w'’-]+", role) if w.lower() != "the" and not _ORDINAL.fullmatch(w)]
    return words[0].lower() if words else None


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is", "'s"))


def _identifying(statement: _Statement) -> bool:
    """Whether the role has a single holder: ordinal, year, one-off role, or "is the X of Y"."""
    if _ORDINAL.search(statement.role):
        return True
    head = _head(statement.role)
    # "the author of a book" could be anyone's: the work, firm or country must be named.
    named = re.search(r"\bof\s+(?:the\s+)?[A-Z\"“]", statement.role) is not None
    return named and (head in _ONE_OFF or statement.present)


def _clash(mine: _Statement, theirs: _Statement, claim: str) -> bool:
    """Another holder of the same role, in the same tense where the role changes hands."""
    if not _same_role(mine.terms, theirs.terms) or _kind(mine.holder.text) != _kind(theirs.holder.text):
        return False
    if not _ORDINAL.search(mine.role) and _head(mine.role) not in _ONE_OFF and not theirs.present:
        return False
    return not any(_has_word(claim, word) for word in _name_words(theirs.holder.text))


def _same_role(mine: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """The same content words in the same order; numbers and ordinals exactly."""
    if len(mine) < 2 or len(mine) != len(theirs):
        return False
    return all(
        a == b or (not a[:1].isdigit() and terms_match(a, b)) for a, b in zip(mine, theirs, strict=True)
    )


def _kind(name: str) -> str:
    """A name's kind, as far as its spelling shows: an acronym, an organisation or place, or a person."""
    words = name.split()
    if len(words) == 1 and sum(c.isupper() for c in name) >= 2 and name.upper() == name:
        return "acronym"
    if any(w.lower().strip(".,") in _ORG for w in words):
        return "organisation"
    return "person"


def _name_words(name: str) -> list[str]:
    return [w.strip(".,'’") for w in name.split() if len(w.strip(".,'’")) >= 3]


def _has_word(text: str, word: str) -> bool:
    return re.search(rf"\b{re.escape(word)}\b", text, re.IGNORECASE) is not None


def _segment_starts(text: str) -> list[int]:
    """Where each sentence of `text` starts; a stop after an initial or "Dr" ends none."""
    starts = [0]
    for m in _SEGMENT_END.finditer(text):
        if not _ABBREVIATION.search(text, 0, m.start()):
            starts.append(m.end())
    return starts

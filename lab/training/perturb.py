"""Contradicting edits of a true sentence: one small change that the sentence itself rules out. Pure.

Each kind returns the edited sentence, or None when the sentence offers nothing of that kind (no number,
no auxiliary, ...): a failed edit is skipped, never emitted as a non-change. Entity swaps draw a
replacement of the same rough kind (place, person, organisation, nationality) from an `EntityPool`.

Usage::

    rng = random.Random(0)
    change_number("Revenue rose 12% in 2023.", rng)        # "Revenue rose 17% in 2023."
    contradictions("The firm was founded in Arizona.", rng, pool)   # {"negation": "... was not ...", ...}
"""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from workers.stages._text import entity_spans
from workers.stages.slots import Slot, SlotKind, extract_slots

__all__ = [
    "KINDS",
    "EntityPool",
    "change_date",
    "change_number",
    "change_unit",
    "contradictions",
    "entity_kind",
    "flip_quantifier",
    "negate",
    "swap_entity",
    "swap_roles",
]


@dataclass(frozen=True, slots=True)
class EntityPool:
    """Entities by kind: those of the sentence's own document first (harder), then any document's."""

    local: Mapping[str, Sequence[str]] = field(default_factory=dict)
    others: Mapping[str, Sequence[str]] = field(default_factory=dict)


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


# ---- figures, dates, units ---------------------------------------------------------------------

_DIGITS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
_BARE_YEAR = re.compile(r"1[5-9]\d\d|20[0-4]\d")  # "a 1989 American film": a year the slots took for a count
_NAME_BEFORE = re.compile(r"(?:^|\s)[A-Z][\w-]*\s+\Z")  # "Boeing 747", "Apollo 11": part of a name


def change_number(sentence: str, rng: random.Random) -> str | None:
    """A figure, percentage or money amount moved to another plausible value, written the same way."""
    slots = [
        s
        for s in extract_slots(sentence)
        if s.kind in (SlotKind.FIGURE, SlotKind.PERCENT)
        and not _NAME_BEFORE.search(sentence[: s.start])
        and not sentence[s.end : s.end + 1].isalpha()
        and not _BARE_YEAR.fullmatch(s.text)
    ]
    if not slots:
        return None
    slot = rng.choice(slots)
    m = _DIGITS.search(slot.text)
    if m is None:
        return None
    new = _new_number(m.group(), rng, percent=slot.kind is SlotKind.PERCENT)
    text = slot.text[: m.start()] + new + slot.text[m.end() :]
    return sentence[: slot.start] + text + sentence[slot.end :]


def _new_number(raw: str, rng: random.Random, *, percent: bool) -> str:
    value = float(raw.replace(",", ""))
    decimals = len(raw.partition(".")[2])
    if decimals == 0 and value < 12:
        return str(rng.choice([n for n in range(1, 13) if n != value]))
    step = 10 ** (len(str(int(value))) - 2) if decimals == 0 and value % 10 == 0 else 10**-decimals
    for _ in range(8):
        factor = rng.uniform(1.3, 1.9) if rng.random() < 0.5 else rng.uniform(0.45, 0.77)
        new = round(value * factor / step) * step
        if new != value and new > 0 and not (percent and new >= 100 > value):
            break
    else:
        new = value * 0.5
    return f"{new:,.{decimals}f}" if "," in raw else f"{new:.{decimals}f}"


_RANGE = re.compile(r"\s*(?:[–-]|to|and)\s*\Z")
_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_MONTH_WORD = re.compile(r"\b(?:" + "|".join(m for m in _MONTHS if m != "May") + r")\b")
_THIS_YEAR = 2024


def change_date(sentence: str, rng: random.Random) -> str | None:
    """A year moved by 2-12 (a range "1844–1846" moves as one), a month or a day changed."""
    slots = _dated_slots(sentence)
    months = [
        m for m in _MONTH_WORD.finditer(sentence) if not any(s.start <= m.start() < s.end for s in slots)
    ]
    if not slots and not months:
        return None
    if months and (not slots or rng.random() < 0.2):
        m = rng.choice(months)
        return (
            sentence[: m.start()] + rng.choice([x for x in _MONTHS if x != m.group()]) + sentence[m.end() :]
        )
    slot = rng.choice(slots)
    if slot.kind is SlotKind.DATE and rng.random() < 0.5:
        return _change_day_or_month(sentence, slot, rng)
    group = _year_group(sentence, slots, slot)
    delta = rng.randint(2, 12) * rng.choice((-1, 1))
    if any(int(_year_of(s)) + delta > _THIS_YEAR for s in group):
        delta = -abs(delta)
    for s in sorted(group, key=lambda s: -s.start):
        year = _year_of(s)
        text = s.text.replace(year, str(int(year) + delta))
        sentence = sentence[: s.start] + text + sentence[s.end :]
    return sentence


def _dated_slots(sentence: str) -> list[Slot]:
    slots = [s for s in extract_slots(sentence) if s.kind in (SlotKind.YEAR, SlotKind.DATE)]
    for m in re.finditer(r"(?<![\w.,$€£-])(?:" + _BARE_YEAR.pattern + r")(?![\w%]|[.,]\d)", sentence):
        if not any(s.start <= m.start() < s.end for s in slots):
            slots.append(Slot(SlotKind.YEAR, m.group(), m.start(), m.end(), m.group()))
    return sorted(slots, key=lambda s: s.start)


def _year_of(slot: Slot) -> str:
    m = re.search(r"\b\d{4}\b", slot.text)
    return m.group() if m else "0"


def _year_group(sentence: str, slots: list[Slot], slot: Slot) -> list[Slot]:
    """The slot and any year joined to it by "–", "to" or "and": both ends of a range move together."""
    dated = [s for s in slots if _year_of(s) != "0"]
    group = [slot] if _year_of(slot) != "0" else []
    for a, b in itertools.pairwise(dated):
        if _RANGE.match(sentence[a.end : b.start]) and (a in group or b in group):
            group.extend(s for s in (a, b) if s not in group)
    return group


def _change_day_or_month(sentence: str, slot: Slot, rng: random.Random) -> str | None:
    day = re.search(r"\b\d{1,2}\b(?!\d)", slot.text)
    month = re.search(r"[A-Z][a-z]+\.?", slot.text)
    if day and (month is None or rng.random() < 0.5):
        new = str(rng.choice([d for d in range(1, 29) if d != int(day.group())]))
        text = slot.text[: day.start()] + new + slot.text[day.end() :]
    elif month:
        name = month.group().rstrip(".")
        full = next((x for x in _MONTHS if x.startswith(name[:3])), None)
        if full is None:
            return None
        pick = rng.choice([x for x in _MONTHS if x != full])
        new = pick if len(name) > 3 else pick[:3]
        text = slot.text[: month.start()] + new + slot.text[month.start() + len(name) :]
    else:
        return None
    return sentence[: slot.start] + text + sentence[slot.end :]


_UNIT_SWAPS = {
    "km": "miles", "kilometres": "miles", "kilometers": "miles", "miles": "kilometres", "mi": "km",
    "metres": "feet", "meters": "feet", "feet": "metres", "m": "ft", "ft": "m",
    "kg": "lb", "kilograms": "pounds", "lb": "kg", "tonnes": "pounds", "cm": "inches", "inches": "cm",
    "million": "billion", "billion": "million", "thousand": "million", "trillion": "billion",
    "hours": "minutes", "minutes": "hours", "days": "weeks", "weeks": "days", "months": "years",
    "years": "months", "acres": "hectares", "hectares": "acres", "°C": "°F", "°F": "°C",
    "Celsius": "Fahrenheit", "Fahrenheit": "Celsius", "litres": "gallons", "liters": "gallons",
    "gallons": "litres", "mph": "km/h", "km/h": "mph",
}  # fmt: skip
_UNIT = re.compile(
    r"(?<=\d)(?P<gap>\s?|-)(?P<unit>"
    + "|".join(sorted(map(re.escape, _UNIT_SWAPS), key=len, reverse=True))
    + r")(?![\w/])"
)


def change_unit(sentence: str, rng: random.Random) -> str | None:
    """The unit or scale after a number swapped for another without converting: 5 km -> 5 miles."""
    found = list(_UNIT.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    new = _UNIT_SWAPS[m.group("unit")]
    gap = m.group("gap") or ("" if new.startswith("°") else " ")
    return sentence[: m.start()] + gap + new + sentence[m.end() :]


# ---- entities and roles ------------------------------------------------------------------------

_NATIONALITIES = _words(
    "American British English French German Italian Spanish Canadian Australian Indian Chinese Japanese "
    "Russian Mexican Irish Scottish Welsh Swedish Norwegian Danish Dutch Belgian Swiss Austrian Polish Greek "
    "Brazilian Argentine Korean Turkish Egyptian Israeli Iranian Pakistani Nigerian Portuguese Finnish "
    "Hungarian Czech Ukrainian Filipino Vietnamese Thai Indonesian Chilean Colombian Cuban Jamaican"
)
_ORG_WORDS = _words(
    "Inc Inc. Corp Corp. Corporation Company Co. Group University College Institute Association Society "
    "Party Club Bank Records Studios Entertainment Airlines Airways Foundation League Council Agency Ltd "
    "Press Network FC Motors Pictures Industries Academy School Museum Hospital Church Department Ministry "
    "Publishing Publications Media Magazine Newspaper Times Channel Broadcasting Television Orchestra Team"
)
# Capitalised words that make a run something other than a person's name: "Roman Catholic", "Award Series".
_NOT_NAME = (
    _ORG_WORDS
    | _words(
        "Catholic Roman Award Awards Series Park Street Road Avenue National International Royal Music Film "
        "Festival Games Cup Championship Championships Hall Tower Building Bridge Station Airport Railway "
        "Highway Route Valley Mountains Hills Bay Beach Islands Republic Kingdom Empire Army Navy Force War "
        "Battle Day Show Band Album Song Tour Prize Best Actor Actress Supporting Outstanding Grand Prix Act "
        "Treaty Revolution Age Great Old Center Centre Square Palace Castle Cathedral Temple Stadium Arena "
        "Theatre Theater Opera Ballet Project Program Programme Trophy Open Olympics Olympic World Cup Series"
    )
    | frozenset(_MONTHS)
    | _words("Monday Tuesday Wednesday Thursday Friday Saturday Sunday")
)
_GEO = _words("Park Street Road Avenue Valley Mountains Hills Bay Beach Islands Republic Kingdom Square")
_PLACE_WORDS = _words("New North South East West United Saint St. Lake River Mount County City State Island")
_TITLES = _words("President King Queen Prince Princess Sir Lord Dr. Mr. Mrs. Ms. General Pope Saint St.")
_PLACE_BEFORE = re.compile(r"\b(?:in|at|from|near)\s+(?:the\s+)?\Z")


def entity_kind(sentence: str, slot: Slot) -> str | None:
    """ "nationality", "org", "place", "person" or None (unsure: never swapped)."""
    tokens = slot.text.split()
    before = sentence[: slot.start]
    if any(not t[:1].isupper() for t in tokens) or (before.count('"') + before.count("“")) % 2:
        return None  # a quoted title ("Het Huis Anubis") is no name of a kind
    if len(tokens) == 1 and tokens[0] in _NATIONALITIES:
        # "Spanish for 'dove'", "(German: ...)": a language, not a nationality
        return None if re.match(r"\s*(?:for\b|:)", sentence[slot.end :]) else "nationality"
    if any(t in _ORG_WORDS for t in tokens):
        return "org"
    if (
        _PLACE_BEFORE.search(sentence[: slot.start])
        and len(tokens) <= 3
        and not (_NOT_NAME - _GEO) & set(tokens)
    ):
        return "place"
    names = all(t.isalpha() and t[1:].islower() for t in tokens)
    plain = not (_PLACE_WORDS | _TITLES | _NOT_NAME | _NATIONALITIES) & set(tokens)
    if 2 <= len(tokens) <= 3 and names and plain:
        return "person"
    return None


def entity_slots(text: str) -> list[tuple[str, Slot]]:
    """(kind, slot) for the entities of `text` whose kind is clear."""
    out = []
    for slot in extract_slots(text):
        if slot.kind is SlotKind.ENTITY and (kind := entity_kind(text, slot)) is not None:
            out.append((kind, slot))
    return out


def swap_entity(sentence: str, rng: random.Random, pool: EntityPool) -> str | None:
    """A place, person, organisation or nationality replaced by another of the same kind."""
    # The subject is left alone: "Y is an American actress" is not contradicted by "X is an American actress".
    found = [(k, s) for k, s in entity_slots(sentence) if _LEAD.fullmatch(sentence[: s.start]) is None]
    rng.shuffle(found)
    low = sentence.lower()
    names = {w.lower() for w in re.findall(r"\b[A-Z][\w'’-]*", sentence)}
    for kind, slot in found:
        if kind == "nationality":
            choices: Sequence[str] = sorted(_NATIONALITIES)
        else:
            local = pool.local.get(kind, ())
            choices = local if local and rng.random() < 0.6 else pool.others.get(kind, ())
        # a handful drawn at random: the pool of a large corpus holds tens of thousands of names
        drawn = [rng.choice(choices) for _ in range(16)] if len(choices) > 16 else choices
        options = [c for c in drawn if c.lower() not in low and not names & {t.lower() for t in c.split()}]
        if options:
            before = _fix_article(sentence[: slot.start], (new := rng.choice(options)))
            return before + new + sentence[slot.end :]
    return None


_LEAD = re.compile(r"[\s\"“'‘(]*(?:The\s+)?")
_ARTICLE = re.compile(r"\b(?P<art>[Aa]n?)\s+\Z")


def _fix_article(before: str, word: str) -> str:
    """ "an American" -> "a Danish": the article in front of a swapped word agrees with it."""
    m = _ARTICLE.search(before)
    if m is None:
        return before
    art = "an" if word[:1].lower() in "aeiou" else "a"
    art = art.capitalize() if m.group("art")[0].isupper() else art
    return before[: m.start()] + art + " "


_ROLE_VERBS = (
    "acquired|bought|purchased|defeated|beat|succeeded|preceded|replaced|sued|hired|fired|influenced|"
    "inspired|founded|owns|owned|employs|employed|signed|overtook|surpassed|killed|taught|mentored|"
    "directed|created|produced|managed|coached|controls|controlled|funded|absorbed|invaded|conquered"
)
_BETWEEN = re.compile(
    rf"\s+(?:(?:has|had|have|was|were|is|are)\s+)?(?:{_ROLE_VERBS})(?:\s+by)?\s+(?:the\s+)?",
)


def swap_roles(sentence: str, rng: random.Random) -> str | None:
    """The two names around a one-way verb swapped: "A acquired B" -> "B acquired A"."""
    ents = entity_spans(sentence)  # unlike the slots, keeps a one-word name that opens the sentence
    pairs = [(a, b) for a, b in itertools.pairwise(ents) if _BETWEEN.fullmatch(sentence[a[1] : b[0]])]
    if not pairs:
        return None
    a, b = rng.choice(pairs)
    first, second = sentence[a[0] : a[1]], sentence[b[0] : b[1]]
    return sentence[: a[0]] + second + sentence[a[1] : b[0]] + first + sentence[b[1] :]


# ---- negation and quantifiers ------------------------------------------------------------------

_AUX_NOT = re.compile(
    r"\b(?P<aux>is|are|was|were|can|could|will|would|should|must|does|did|do)\b(?!\s+(?:not|never)\b)"
    r"(?P<rest>\s+(?!only\b|to\b|so\b|as\b|also\b)[a-z])"
)
_PERFECT = re.compile(r"\b(?P<aux>has|have|had)\b(?P<rest>\s+(?:been|[a-z]+ed|[a-z]+en|won|made|become)\b)")
_NOT = re.compile(
    r"\b(?P<aux>is|are|was|were|can|could|will|would|should|must|does|did|do|has|have|had)\s+not\b(?!\s+only\b)"
    r"|(?P<never>\s+never)\b|\b(?P<neg>cannot|can't|won't)\b|(?<=\w)(?P<nt>n't)\b",
    re.IGNORECASE,
)
_UNDO = {"cannot": "can", "can't": "can", "won't": "will"}


def negate(sentence: str, rng: random.Random) -> str | None:
    """ "is" -> "is not", "has won" -> "has not won"; an existing "not"/"never" is taken out instead."""
    undo = [m for m in _NOT.finditer(sentence.replace("’", "'")) if not _quoted(sentence, m.start())]
    if undo:
        m = rng.choice(undo)
        if m.group("neg"):
            return sentence[: m.start()] + _UNDO[m.group("neg").lower()] + sentence[m.end() :]
        keep = m.group("aux") or ""
        return sentence[: m.start()] + keep + sentence[m.end() :]
    found = [
        m
        for m in (*_AUX_NOT.finditer(sentence), *_PERFECT.finditer(sentence))
        if not _quoted(sentence, m.start())
    ]
    if not found:
        return None
    m = rng.choice(found)
    return sentence[: m.end("aux")] + " not" + sentence[m.end("aux") :]


def _quoted(sentence: str, at: int) -> bool:
    """Whether position `at` is inside a quoted title: "I Still Haven't Found ..." is not negated."""
    before = sentence[:at]
    return (before.count('"') + before.count("“") + before.count("”")) % 2 == 1


_FLIPS = {
    "increased": "decreased", "decreased": "increased", "increase": "decrease", "decrease": "increase",
    "rose": "fell", "fell": "rose", "gained": "lost", "won": "lost", "higher": "lower", "lower": "higher",
    "largest": "smallest", "smallest": "largest", "biggest": "smallest", "first": "last", "last": "first",
    "earliest": "latest", "oldest": "youngest", "youngest": "oldest", "longest": "shortest",
    "shortest": "longest", "highest": "lowest", "lowest": "highest", "best": "worst", "worst": "best",
    "larger": "smaller", "smaller": "larger", "older": "younger", "younger": "older", "before": "after",
    "after": "before", "more than": "less than", "less than": "more than", "fewer than": "more than",
    "the most": "the least", "the least": "the most", "always": "never", "majority": "minority",
    "minority": "majority", "above": "below", "below": "above", "north": "south", "south": "north",
    "east": "west", "west": "east", "northern": "southern", "southern": "northern", "eastern": "western",
    "western": "eastern", "male": "female", "female": "male", "successful": "unsuccessful",
    "unsuccessful": "successful", "many": "few", "all": "no", "every": "no", "none": "all",
}  # fmt: skip
_FLIP = re.compile(r"\b(?:" + "|".join(sorted(_FLIPS, key=len, reverse=True)) + r")\b")
# Idioms where the word is no quantity or direction: "named after", "at first", "at least", "first name".
_IDIOM = re.compile(
    r"(?:named|called|looks?|looked|taken|takes|took|after|soon|all|at|of|for)\s+\Z|\A\s+(?:of|all|time|name|the\b)"
)


def flip_quantifier(sentence: str, rng: random.Random) -> str | None:
    """A quantifier, comparison or direction turned round: more -> less, before -> after, first -> last."""
    found = [
        m
        for m in _FLIP.finditer(sentence)
        if m.start() > 0 and not _idiom(sentence, m) and not _quoted(sentence, m.start())
    ]
    if not found:
        return None
    m = rng.choice(found)
    return sentence[: m.start()] + _FLIPS[m.group()] + sentence[m.end() :]


def _idiom(sentence: str, m: re.Match[str]) -> bool:
    before, after = sentence[: m.start()], sentence[m.end() :]
    word = m.group()
    if word in ("all", "every") and not re.match(r"\s+[a-z]+s\b", after):
        return True  # "all" only before a plural noun: "all members" -> "no members"
    if word in ("after", "before", "first", "last") and _IDIOM.search(before[-16:]):
        return True
    if word in ("best", "worst") and re.match(r"[\s-]+known\b", after):
        return True  # "best known as" is how a person is identified, not a ranking
    return word in ("first", "last", "all", "none") and bool(re.match(r"\s+(?:of|time|name)\b", after))


# ---- all kinds ---------------------------------------------------------------------------------

Perturb = Callable[[str, random.Random, EntityPool], "str | None"]
KINDS: dict[str, Perturb] = {
    "number": lambda s, r, p: change_number(s, r),
    "date": lambda s, r, p: change_date(s, r),
    "unit": lambda s, r, p: change_unit(s, r),
    "entity": swap_entity,
    "negation": lambda s, r, p: negate(s, r),
    "quantifier": lambda s, r, p: flip_quantifier(s, r),
    "roles": lambda s, r, p: swap_roles(s, r),
}


def contradictions(sentence: str, rng: random.Random, pool: EntityPool) -> dict[str, str]:
    """Each kind's contradicting edit of `sentence`, for the kinds that apply; never the sentence itself."""
    out: dict[str, str] = {}
    for kind, perturb in KINDS.items():
        claim = perturb(sentence, rng, pool)
        if claim is not None and _norm(claim) != _norm(sentence):
            out[kind] = claim
    return out


def _norm(text: str) -> str:
    return " ".join(text.lower().split())

"""What a value is a value of, beyond its unit: the period, the body measure, the letters. Pure.

The slot aligner (`stages.align`) may correct a claim's value with the window's only where the two
measure one thing. The unit says much of that (`stages.units`); the words after the unit and the
shape of a name say the rest, and where they differ, a swap would turn a correct answer wrong:

- an amount for another period: "The car allowance comes to £500 a month" against "£6,000 per
  year, paid in equal monthly amounts" was made "£6,000 a month";
- a dose per kilogram or per square metre against an absolute one: "At 70 kg, the starting rate is
  1,260 units per hour" against "18 units/kg/hour" was made "18 units per hour";
- an acronym against a part of what its letters stand for: "in the EU" against "in the Union" was
  made "in the Union";
- the first name of a firm ("Cravath, Swaine & Moore"): no value of its own.

Usage::

    apart("The allowance is £500 a month.", 4, "It is £6,000 per year.", 12, money=True)  # True
    period_after("£1,200 per calendar month", 6).unit                                  # "month"
    short_for("EU", "Union")                                                            # True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations

from workers.stages._text import NUMBER_WORDS, ORDINAL_WORDS

__all__ = [
    "PERIOD_UNITS",
    "Amount",
    "Period",
    "apart",
    "denominator",
    "firm_name",
    "period_after",
    "rate_and_total",
    "short_for",
]

# After the amount: "a month", "per annum", "each week", "once a day", "annually", "p.a.", "pcm"; not
# "per year of service" (a ratio).
_AFTER = re.compile(
    r"\s*(?:once\s+)?(?:(?P<prep>a|an|per|each|every)\s+"
    # not "a year of service" (a ratio), "a year ago", "a week before the rash", "a month on, ..." (a
    # time); "1.5% a month on unpaid balances", "once a day on an empty stomach" are periods
    r"(?P<unit>hour|day|week|fortnight|(?:calendar\s+)?month|quarter|year|annum)\b"
    r"(?!\s+(?:of|ago|earlier|later|before|after|previously|prior|since|from|into)\b)"
    r"(?!\s+on\b(?:\s*[,.;:]|\s+from\b|\s+(?-i:[A-Z])))"
    r"|(?P<adverb>hourly|daily|weekly|fortnightly|monthly|quarterly|annually|yearly)\b(?!-)"
    # "p.a." keeps a sentence's full stop: "£40,000 p.a." ends its sentence
    r"|(?P<short>p\.a\.(?=\s+[a-z(])|p\.a\b|pa\b|pcm\b|pw\b))",
    re.IGNORECASE,
)
PERIOD_UNITS = {
    "hourly": "hour", "daily": "day", "weekly": "week", "fortnightly": "fortnight", "monthly": "month",
    "quarterly": "quarter", "annually": "year", "yearly": "year", "annual": "year",
}  # fmt: skip
_SHORT = {"p.a.": "year", "p.a": "year", "pa": "year", "pcm": "month", "pw": "week"}
# The last word of an institution's name, which its acronym's last letter may stand for ("EU" and
# "the Union", "US" and "the States").
_HEADS = frozenset(
    (
        "Union", "States", "Kingdom", "Nations", "Commission", "Authority", "Agency", "Service", "Council",
        "Court", "Bank", "Office", "Board", "Department", "Ministry", "Parliament", "Government",
        "Republic", "Federation", "Emirates", "Association", "Organisation", "Organization", "Fund",
    )
)  # fmt: skip
_PER_BODY = re.compile(
    r"(?:\s*[a-zA-Zµ]+)?\s*(?:/|\bper\s+)(?:kg|kilogram|m2|m²|square\s+met)", re.IGNORECASE
)
# An amount for each one of a thing: "$45.50 per share", "€3.50 per person", "£12 a head", "$5 each".
# "per" takes any thing but a period (`period_after`'s business) or a body measure ("per kg"); "a"
# and "each" only the things listed ("£12 a head"; not "£40 a go", "$5 a pop").
_NOT_RATES = r"hour|day|week|fortnight|month|quarter|year|annum|calendar|cent|kg|kilogram|m2|square"
_RATE = re.compile(
    r"[ \t]*(?:(?:per|/)\s*(?:(?P<per>\d[\d,]*(?:\.\d+)?)\s*)?(?:cubic\s+|square\s+)?(?!(?:"
    + _NOT_RATES
    + r")\b)(?P<thing>[a-z]+)\b"
    r"|(?:a|an|each|every)\s+(?P<listed>share|person|night|unit|item|head|passenger|guest|adult|child"
    r"|employee|member|customer|visit|ticket|room|seat|student|pupil|patient|vehicle|page|copy)\b"
    r"|each\b)",
    re.IGNORECASE,
)
# A figure that counts what a rate is per: "4.4 litres per 100 km" (the 100), no amount of its own.
_PER_BEFORE = re.compile(r"\bper\s+\Z", re.IGNORECASE)
_ORDINALS = ORDINAL_WORDS[:10]  # "first" ... "tenth"
_CARDINALS = NUMBER_WORDS[1:11]  # "one" ... "ten"
# The counts of a text a total may be a rate times: "1.2 million shares", "two people", "20,000 km".
_COUNTS = re.compile(
    r"\b(?:\d[\d,]*(?:\.\d+)?(?:\s+(?:thousand|million|billion))?|" + "|".join(_CARDINALS[1:]) + r")\b",
    re.IGNORECASE,
)
_SCALE = {"thousand": 1e3, "million": 1e6, "billion": 1e9}
_THINGS = {"person": "people|persons", "child": "children", "head": "people|persons"}
_EACH = re.compile(r"\b(?:each|every|per|apiece|a\s+head)\b", re.IGNORECASE)
_CLOSE = 0.01
# A step of a schedule: "in year one", "during the third year", "for phase 2" (not "a year", "per year").
_STEP_BODY = (
    r"(?:in|for|during|from|of)\s+(?:the\s+)?(?:(?P<ord>"
    + "|".join(_ORDINALS)
    + r"|\d{1,2}(?:st|nd|rd|th))\s+"
    r"(?P<u1>year|month|week|quarter|phase|stage)|(?P<u2>year|month|week|quarter|phase|stage)\s+"
    r"(?P<n>" + "|".join(_CARDINALS) + r"|\d{1,2})(?!\d|,\d))\b"
)
_STEP = re.compile(r"[ \t]*(?:\w+[ \t]+)?" + _STEP_BODY, re.IGNORECASE)
_STEP_ANYWHERE = re.compile(r"\b" + _STEP_BODY, re.IGNORECASE)
# A name that goes on after a comma to an "&": the first name of a firm ("Cravath, Swaine & Moore").
_FIRM_TAIL = re.compile(r"(?:,\s+[A-Z][\w'’-]*)+\s+&\s+[A-Z]")


def apart(text: str, end: int, other_text: str, other_end: int, *, money: bool) -> bool:
    """Whether two amounts ending at `end` and `other_end` measure different things by the words after
    them: another period (for money), one per kilogram or square metre and the other not, or one for
    another year or phase of a schedule ("3% in year three" against "5% in year one")."""
    mine, theirs = period_after(text, end), period_after(other_text, other_end)
    if money and mine is not None and theirs is not None and mine.unit != theirs.unit:
        return True
    if _per_body(text, end) != _per_body(other_text, other_end):
        return True
    step, other_step = _step_of(text, end), _step(other_text, other_end)
    return step is not None and other_step is not None and step[0] == other_step[0] and step != other_step


def rate_and_total(mine: Amount, theirs: Amount) -> bool:
    """Whether one amount is a rate ("$45.50 per share", "€3.50 per person per night", "4.4 litres per
    100 km") and the other no rate but that rate times one or two counts its own text gives: "$54.6
    million repurchasing 1.2 million shares", "€21 for two people staying three nights", "880 litres
    over 20,000 km". Not "a bonus of £1,200" for "each of the 500 employees" against "£1,000 per
    employee": 500 of them make no £1,200, and "each" makes it one employee's. A total that is no such
    product ("a saving of 360 litres over 20,000 km" against "6.2 litres per 100 km") counts as one
    where its text counts the rate's thing ("20,000 km") and says no "each"."""
    return _total(mine, theirs) or _total(theirs, mine)


@dataclass(frozen=True, slots=True)
class Amount:
    """An amount in its text: where it ends and its number."""

    text: str
    end: int
    number: float


def _total(total: Amount, rate: Amount) -> bool:
    m = _RATE.match(rate.text, rate.end)
    thing = m.group("thing") or m.group("listed") if m is not None else None
    if m is None or thing is None or _RATE.match(total.text, total.end):
        return False
    each = rate.number / float((m.group("per") or "1").replace(",", ""))
    counts = [c for c in map(_count, _COUNTS.finditer(total.text)) if c and c != total.number]
    products = counts + [a * b for a, b in combinations(counts, 2)]
    if any(abs(each * p - total.number) <= _CLOSE * total.number for p in products):
        return True
    # or a count of the rate's thing, with no "each" that makes the claim's amount one thing's too
    thing = thing.lower().removesuffix("s")
    nouns = _THINGS.get(thing, thing) + "|" + thing
    counted = re.search(rf"{_COUNTS.pattern}\s*(?:[a-z-]+\s+)?(?:{nouns})s?\b", total.text, re.IGNORECASE)
    return counted is not None and _EACH.search(total.text) is None


def _count(m: re.Match[str]) -> float:
    word = m.group(0).lower().split()
    if word[0] in _CARDINALS:
        return float(_CARDINALS.index(word[0]) + 1)
    number = float(word[0].replace(",", ""))
    return number * _SCALE.get(word[-1], 1.0)


def denominator(text: str, start: int) -> bool:
    """Whether a figure at `start` counts what a rate is per ("per 100 km")."""
    return _PER_BEFORE.search(text, max(0, start - 8), start) is not None


def _step(text: str, end: int) -> tuple[str, int] | None:
    """The step of a schedule said right after an amount: "in year one", "for the third year", "in
    phase 2" -> ("year", 1), ("year", 3), ("phase", 2)."""
    m = _STEP.match(text, end)
    return None if m is None else _step_value(m)


def _step_of(text: str, end: int) -> tuple[str, int] | None:
    """The claim's step: the one after its amount, or the one step its text names ("Repaying early in
    year three would incur a 3% charge")."""
    found = _step(text, end)
    if found is not None:
        return found
    steps = {_step_value(m) for m in _STEP_ANYWHERE.finditer(text)}
    return steps.pop() if len(steps) == 1 else None


def _step_value(m: re.Match[str]) -> tuple[str, int]:
    unit = (m.group("u1") or m.group("u2")).lower()
    word = (m.group("n") or m.group("ord")).lower()
    if word[:1].isdigit():
        return unit, int(re.sub(r"\D", "", word))
    return unit, (_ORDINALS.index(word) + 1 if word in _ORDINALS else _CARDINALS.index(word) + 1)


@dataclass(frozen=True, slots=True)
class Period:
    """The period of one amount and the words that say it."""

    unit: str  # "hour" ... "year"
    start: int
    end: int
    text: str
    form: str  # "prep", "adverb", "short" or "adjective"


def period_after(text: str, end: int) -> Period | None:
    """The period said right after an amount ending at `end` ("a month", "per annum", "annually")."""
    m = _AFTER.match(text, end)
    if m is None:
        return None
    form = next(g for g in ("unit", "adverb", "short") if m.group(g))
    word = m.group(form).lower()
    if form == "unit":  # "a month", "per annum", "per calendar month"
        unit = word.split()[-1].replace("annum", "year")
        return Period(unit, m.start("prep"), m.end(), text[m.start("prep") : m.end()], "prep")
    unit = PERIOD_UNITS[word] if form == "adverb" else _SHORT[word]
    return Period(unit, m.start(form), m.end(), m.group(form), form)


def _per_body(text: str, end: int) -> bool:
    return _PER_BODY.match(text, end) is not None


def short_for(a: str, b: str) -> bool:
    """Whether one name is an acronym and the other the last word of an institution's name its last
    letter stands for ("EU" and "Union", "US" and "States"; not "US" and "Spain", "IBM" and "Intel")."""
    short, long = (a, b) if len(a) <= len(b) else (b, a)
    letters = short.replace(".", "")
    if not (2 <= len(letters) <= 6 and letters.isupper() and letters.isalpha()):
        return False
    return long in _HEADS and long[0] == letters[-1]


def firm_name(text: str, end: int) -> bool:
    """Whether a name ending at `end` goes on after a comma to an "&" ("Wachtell, Lipton, Rosen & Katz")."""
    return _FIRM_TAIL.match(text, end) is not None

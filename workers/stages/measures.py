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

__all__ = ["PERIOD_UNITS", "Period", "apart", "firm_name", "period_after", "short_for"]

# After the amount: "a month", "per annum", "each week", "once a day", "annually", "p.a.", "pcm"; not
# "per year of service" (a ratio).
_AFTER = re.compile(
    r"\s*(?:once\s+)?(?:(?P<prep>a|an|per|each|every)\s+"
    # not "a year of service" (a ratio), "a year ago", "a week before the rash" (a time)
    r"(?P<unit>hour|day|week|fortnight|(?:calendar\s+)?month|quarter|year|annum)\b"
    r"(?!\s+(?:of|ago|earlier|later|before|after|previously|prior|since|on|from|into)\b)"
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
# A name that goes on after a comma to an "&": the first name of a firm ("Cravath, Swaine & Moore").
_FIRM_TAIL = re.compile(r"(?:,\s+[A-Z][\w'’-]*)+\s+&\s+[A-Z]")


def apart(text: str, end: int, other_text: str, other_end: int, *, money: bool) -> bool:
    """Whether two amounts ending at `end` and `other_end` measure different things by the words after
    them: another period (for money), or one per kilogram or square metre and the other not."""
    mine, theirs = period_after(text, end), period_after(other_text, other_end)
    if money and mine is not None and theirs is not None and mine.unit != theirs.unit:
        return True
    return _per_body(text, end) != _per_body(other_text, other_end)


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

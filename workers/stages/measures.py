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
    short_for("EU", "Union")                                                            # True
"""

from __future__ import annotations

import re

__all__ = ["apart", "firm_name", "short_for"]

# The period of an amount: "a month", "per year", "an hour", "per annum", "annually".
_PER = re.compile(
    r"\s*(?:(?:a|an|per|each|every)\s+(hour|day|week|fortnight|month|quarter|year|annum)s?\b"
    r"|(hourly|daily|weekly|monthly|quarterly|annually|yearly|p\.a\.|pa)(?![\w.])|(p\.a)\b)",
    re.IGNORECASE,
)
_PERIODS = {
    "annum": "year", "annually": "year", "yearly": "year", "p.a.": "year", "p.a": "year", "pa": "year",
    "daily": "day", "hourly": "hour",
}  # fmt: skip
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
    periods = _period(text, end), _period(other_text, other_end)
    if money and None not in periods and periods[0] != periods[1]:
        return True
    return _per_body(text, end) != _per_body(other_text, other_end)


def _period(text: str, end: int) -> str | None:
    m = _PER.match(text, end)
    if m is None:
        return None
    word = (m.group(1) or m.group(2) or m.group(3)).lower()
    return _PERIODS.get(word, word.removesuffix("ly"))


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

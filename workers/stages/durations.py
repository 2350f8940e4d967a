"""Durations said in two units, and race times, read as one value. Pure.

Read word by word, "a final lasting two hours and 41 minutes" held the counts 2 and 41, and a
correct "The final lasted 161 minutes" was made "lasted 41 minutes"; "finished second in 2:20:31"
held 2, 20 and 31, and "43 seconds ahead" was made "31 seconds ahead". Here:

- "two hours and 41 minutes", "2 hours 41 minutes", "1 minute 17 seconds", "3 years and 6 months",
  "2 weeks and 3 days" are one count in the smaller unit (161, 77, 42, 17), whose noun is the word
  after it ("minutes"), so "161 minutes" and "two hours and 41 minutes" are the same value, and a
  wrong "41 minutes" is the window's whole duration put right. Only two units next to each other
  (years and months, weeks and days, days and hours, hours and minutes, minutes and seconds),
  joined by "and" or a space, never a comma ("within 7 days, and 24 hours for serious incidents",
  "2 years, 3 months of which" are two counts), and not "a day" after "twice" (how often);
- "2:20:31", "0:58:07" (hours, minutes, seconds, no am or pm) and "1:54.62" (minutes, seconds and
  hundredths) are one value in seconds with a unit of their own (`RACE_TIME`), which no bare count is
  compared with ("4:05" alone is a time of day, `stages.clock`).

A count of one unit of time is found as a count of another where they convert exactly (`same_span`:
"two weeks" is "14 days", "36 months" "three years"; never days against hours, months or years), and
never fixed from one: "three weeks" against "14 days" stays a value the window does not state.

Usage::

    [d] = durations("in a final lasting two hours and 41 minutes")
    d.number, d.text    # 161.0, "two hours and 41"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import NUMBER_WORDS

__all__ = ["RACE_TIME", "Duration", "durations", "in_two_units", "same_span"]

RACE_TIME = "h:m:s"  # the unit of "2:20:31": seconds, compared only with another such time

_NUMBER = r"\d{1,4}|a|an|" + "|".join(NUMBER_WORDS)
# A unit of time (the stem of the noun after a count) in its family's base: seconds, days or months.
# Across families nothing converts exactly: "30 days" is not "one month", "730 days" not "two years",
# and "2 days a week" not "48 hours a week" (a working day).
_SPANS = {
    "second": ("s", 1), "minut": ("s", 60), "hour": ("s", 3600),
    "day": ("d", 1), "week": ("d", 7), "month": ("m", 1), "year": ("m", 12),
}  # fmt: skip
# The larger unit and how many of the smaller one it holds.
_PARTS = {"year": ("month", 12), "week": ("day", 7), "day": ("hour", 24), "hour": ("minute", 60)}
_PARTS |= {"minute": ("second", 60)}
_SHORT = {"hr": "hour", "hrs": "hour", "min": "minute", "mins": "minute", "sec": "second", "secs": "second"}
_UNIT = r"years?|months?|weeks?|days?|hours?|hrs?|minutes?|mins?|seconds?|secs?"
_COMPOUND = re.compile(
    rf"(?<![\w.,£$€])(?P<a>{_NUMBER})[\s-]+(?P<ua>{_UNIT})\b\s+(?:and\s+)?"
    rf"(?P<b>\d{{1,4}}|{'|'.join(NUMBER_WORDS)})\s+(?=(?P<ub>{_UNIT})\b)",
    re.IGNORECASE,
)
# Before "a day": how often, not how long ("twice a day 12 hours apart", "once a week, 3 days after").
_HOW_OFTEN = re.compile(r"\b(?:once|twice|thrice|times|every|each|per)\s+\Z", re.IGNORECASE)
_UNIT_WORD = re.compile(rf"\b(?:{_UNIT})\b", re.IGNORECASE)
# "2:20:31", "1:54.62", "27:43.12", "2:14:05.3": hours or hundredths, so no time of day ("4:05" is one)
_RACE = re.compile(
    r"(?<![\w.:])(?:(?P<h>\d{1,2}):(?=\d\d:))?(?P<m>\d{1,2}):(?P<s>[0-5]\d)(?P<f>\.\d{1,3})?"
    r"(?![\d:]|\s*[ap]\.?m\b)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Duration:
    """One duration at text[start:end]: `number` in the smaller unit (`unit` None, a count of the noun
    after it) or, for a race time, in seconds (`unit` RACE_TIME)."""

    number: float
    unit: str | None
    start: int
    end: int
    text: str


def durations(text: str) -> list[Duration]:
    """Every duration said in two units, and every race time, in `text`."""
    found = [d for m in _COMPOUND.finditer(text) if (d := _compound(m)) is not None]
    found += [_race(m) for m in _RACE.finditer(text) if m.group("h") or m.group("f")]
    return sorted(found, key=lambda d: d.start)


def in_two_units(text: str) -> bool:
    """Whether a slot's text names a unit of time inside it, as only a duration said in two units
    ("two hours and 41") does among the slot reader's figures: a fix writes it so."""
    return _UNIT_WORD.search(text) is not None


def same_span(a: float, noun_a: str | None, b: float, noun_b: str | None) -> bool | None:
    """Whether a count of one unit of time is a count of another ("two weeks" and "14 days", "36 months"
    and "three years"); None where either noun (a stem) is no unit of time, both are the same unit, or
    the two do not convert exactly.

    >>> same_span(2, "week", 14, "day"), same_span(18, "month", 2, "year"), same_span(30, "day", 1, "month")
    (True, False, None)
    """
    sa, sb = _SPANS.get(noun_a or ""), _SPANS.get(noun_b or "")
    if sa is None or sb is None or sa[0] != sb[0] or noun_a == noun_b:
        return None
    return a * sa[1] == b * sb[1]


def _compound(m: re.Match[str]) -> Duration | None:
    big, small = _unit(m.group("ua")), _unit(m.group("ub"))
    if _PARTS.get(big, ("", 0))[0] != small or _HOW_OFTEN.search(m.string, 0, m.start()):
        return None
    number = _PARTS[big][1] * _count(m.group("a")) + _count(m.group("b"))
    end = m.end("b")
    return Duration(float(number), None, m.start(), end, m.string[m.start() : end])


def _race(m: re.Match[str]) -> Duration:
    seconds = 3600 * int(m.group("h") or 0) + 60 * int(m.group("m")) + int(m.group("s"))
    return Duration(seconds + float(m.group("f") or 0), RACE_TIME, m.start(), m.end(), m.group(0))


def _unit(word: str) -> str:
    word = word.lower()
    return _SHORT.get(word, word.removesuffix("s"))


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else 1 if word in ("a", "an") else NUMBER_WORDS.index(word)

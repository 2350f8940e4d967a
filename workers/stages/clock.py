"""Times of day ("2:00 PM", "2 pm", "14:00", "9.30am") read as one value: minutes after midnight.

Read digit by digit, "around 2:00 PM" held the figures 2 and 00, and "at 14:00" the figures 14 and
00: the rule checks then corrected a summary's "2:00 PM" to "14:00 PM" (three edits away from the
correct text on FaithBench `train`). As one value, "2:00 PM", "2 pm" and "14:00" are the same time,
and a different time is corrected to the window's time as the window writes it (`stages.render`).
"at 2:00", with no am or pm and an hour up to 12, is either half of the day; a bare "9" ("from 9 to
5 pm") is the same time as "9 am" or "9 pm" and no other value of one. Without am or pm, "3:16" is not
a time after a capitalised word inside a sentence ("as John 3:16 says", "under Article 2:10": a
reference), unless the word is a day, a month or one that leads to a time ("Tue 9:30", "Around 9:30")
or the hour is past 12 ("leaves Paris 14:05"); nor next to "ratio", "scale" or "odds" ("a 1:10
scale", "a ratio of 1:10").

Usage::

    [t] = clock_times("The crash happened around 2:00 PM.")
    t.minutes  # 840
    same_time(CLOCK, 840, CLOCK, 840)  # True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import wordset

__all__ = ["CLOCK", "CLOCKS", "CLOCK_EITHER_HALF", "ClockTime", "clock_times", "same_time"]

CLOCK = "clock"  # the unit of a time of day, in minutes after midnight
CLOCK_EITHER_HALF = "clock-12h"  # "2:00" with no am or pm: this or twelve hours later
CLOCKS = frozenset({CLOCK, CLOCK_EITHER_HALF})
_DAY, _HALF = 24 * 60, 12 * 60
# Not after a digit, a decimal point, a colon or a currency sign: "£2.5 pm" is rent, "1:00:00" a duration.
_START = r"(?<![\w.,:£$€])"
_TIME = re.compile(
    rf"{_START}(?P<h>1[0-2]|0?[1-9])(?:[:.](?P<m>[0-5]\d))?\s?(?P<half>[ap])\.?m\b"
    rf"|{_START}(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)\b(?![.:]\d)",
    re.IGNORECASE,
)


# A capitalised word right before "3:16", inside a sentence, makes it a reference ("as John 3:16
# says"); at a sentence's start the word is an ordinary one ("Around 9:30 ..."), and days, months and
# words that lead to a time keep it a time wherever they stand.
_CAPITALISED = re.compile(r"\b([A-Z][a-z]+)\.?\s+\Z")
_SENTENCE_START = re.compile(r"(?:\A|[.!?:;\"“(\n])\s*\Z")
_TIME_WORDS = wordset(
    "monday tuesday wednesday thursday friday saturday sunday mondays tuesdays wednesdays thursdays "
    "fridays saturdays sundays mon tue tues wed thu thur thurs fri sat sun january february march april "
    "may june july august september october november december jan feb mar apr jun jul aug sep sept oct "
    "nov dec today tonight yesterday tomorrow at by from until till to around about after before "
    "between since approximately circa noon midnight kickoff kick-off"
)
_PROPORTION_AFTER = re.compile(r"\s*(?:ratio|scale|odds|dilution|mix)\b", re.IGNORECASE)
_PROPORTION_BEFORE = re.compile(r"\b(?:ratio|scale|odds|dilution)\s+(?:of\s+)?\Z", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class ClockTime:
    start: int
    end: int
    minutes: int
    either_half: bool = False

    @property
    def value(self) -> str:
        """24-hour "HH:MM"."""
        return f"{self.minutes // 60:02d}:{self.minutes % 60:02d}"


def clock_times(text: str) -> list[ClockTime]:
    """Every time of day in `text`, in order."""
    return [_time(m) for m in _TIME.finditer(text) if m.group("half") or not _not_a_time(text, m)]


def _not_a_time(text: str, m: re.Match[str]) -> bool:
    """Whether an "h:mm" with no am or pm is a reference ("John 3:16") or a proportion ("1:10 scale")."""
    lead = text[max(0, m.start() - 40) : m.start()]
    if _PROPORTION_BEFORE.search(lead) or _PROPORTION_AFTER.match(text, m.end()):
        return True
    word = _CAPITALISED.search(lead)
    # "14:05" is a 24-hour time even after a place ("leaves Paris 14:05"); references rarely run so high.
    if word is None or word.group(1).lower() in _TIME_WORDS or int(m.group("h24")) > 12:
        return False
    return _SENTENCE_START.search(lead, 0, word.start(1)) is None


def same_time(unit_a: str | None, a: float, unit_b: str | None, b: float) -> bool | None:
    """Whether two values, at least one a time of day (`CLOCKS`), are the same time; None when they
    cannot be compared (a time and any value but a bare hour)."""
    if unit_a not in CLOCKS:
        return same_time(unit_b, b, unit_a, a) if unit_b in CLOCKS else None
    if unit_b in CLOCKS:
        either = CLOCK_EITHER_HALF in (unit_a, unit_b)
        return (a - b) % _HALF == 0 if either else a == b
    if unit_b is None and b == int(b) and 0 <= b <= 24:
        return True if (a - b * 60) % _HALF == 0 else None  # "from 9" is "9 am" or "9 pm"
    return None


def _time(m: re.Match[str]) -> ClockTime:
    if m.group("half"):
        hour = int(m.group("h")) % 12 + (12 if m.group("half").lower() == "p" else 0)
        return ClockTime(m.start(), m.end(), hour * 60 + int(m.group("m") or 0))
    hour, minute = int(m.group("h24")), int(m.group("m24"))
    return ClockTime(m.start(), m.end(), (hour * 60 + minute) % _DAY, either_half=1 <= hour <= 12)

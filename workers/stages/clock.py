"""Times of day ("2:00 PM", "2 pm", "14:00", "9.30am") read as one value: minutes after midnight.

Read digit by digit, "around 2:00 PM" held the figures 2 and 00, and "at 14:00" the figures 14 and
00: the rule checks then corrected a summary's "2:00 PM" to "14:00 PM" (three edits away from the
correct text on FaithBench `train`). As one value, "2:00 PM", "2 pm" and "14:00" are the same time,
and a different time is corrected to the window's time as the window writes it (`stages.slots`).

Usage::

    [t] = clock_times("The crash happened around 2:00 PM.")
    t.minutes  # 840
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CLOCK", "ClockTime", "clock_times"]

CLOCK = "clock"  # the unit of a time of day, in minutes after midnight
_TIME = re.compile(
    r"\b(?P<h>1[0-2]|0?[1-9])(?:[:.](?P<m>[0-5]\d))?\s?(?P<half>[ap])(?:\.m\.|m\b)"
    r"|\b(?P<h24>[01]?\d|2[0-3]):(?P<m24>[0-5]\d)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class ClockTime:
    start: int
    end: int
    minutes: int

    @property
    def value(self) -> str:
        """24-hour "HH:MM"."""
        return f"{self.minutes // 60:02d}:{self.minutes % 60:02d}"


def clock_times(text: str) -> list[ClockTime]:
    """Every time of day in `text`, in order."""
    return [ClockTime(m.start(), m.end(), _minutes(m)) for m in _TIME.finditer(text)]


def _minutes(m: re.Match[str]) -> int:
    if m.group("half"):
        hour = int(m.group("h")) % 12 + (12 if m.group("half").lower() == "p" else 0)
        return hour * 60 + int(m.group("m") or 0)
    return int(m.group("h24")) * 60 + int(m.group("m24"))

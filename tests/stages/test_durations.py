from __future__ import annotations

import pytest

from workers.stages.durations import RACE_TIME, durations, in_two_units, same_span
from workers.stages.render import render_like
from workers.stages.slots import extract_slots, values_match


@pytest.mark.parametrize(
    ("text", "number", "said"),
    [
        ("a final lasting two hours and 41 minutes", 161, "two hours and 41"),
        ("it took 2 hours 41 minutes", 161, "2 hours 41"),
        ("beat the record by 1 minute 17 seconds", 77, "1 minute 17"),
        ("a term of 3 years and 6 months", 42, "3 years and 6"),
        ("within 2 weeks 3 days", 17, "2 weeks 3"),
        ("after an hour and 5 minutes", 65, "an hour and 5"),
    ],
)
def test_a_duration_in_two_units_is_one_count_of_the_smaller(text: str, number: float, said: str) -> None:
    [d] = durations(text)
    assert (d.number, d.unit, d.text) == (number, None, said)
    assert in_two_units(d.text)


@pytest.mark.parametrize(
    "text",
    [
        "30 days and 14 days",  # the same unit twice
        "3 years and 6 days",  # units not next to each other
        "2 hours and 41 patients",
        "for 6 months",
        # a comma parts two counts; "a day" after "twice" says how often
        "within 7 days, and 24 hours for serious incidents",
        "The contract runs for 2 years, 3 months of which are probation.",
        "Take one tablet twice a day 12 hours apart.",
    ],
)
def test_other_pairs_of_counts_are_left_alone(text: str) -> None:
    assert durations(text) == []


def test_a_race_time_is_one_value_in_seconds() -> None:
    [d] = durations("Alemu finished second in 2:20:31.")
    assert (d.number, d.unit, d.text) == (8431, RACE_TIME, "2:20:31")
    assert durations("The office opens at 9:30 am.") == []
    assert durations("version 1:2:3:4") == []


def test_the_slot_reader_reads_them_whole() -> None:
    slots = extract_slots("She won in 2:19:48, in a final lasting two hours and 41 minutes.")
    assert [s.text for s in slots] == ["2:19:48", "two hours and 41"]
    assert [s.figure.number for s in slots if s.figure] == [8388, 161]


def test_a_fix_writes_them_as_the_window_does() -> None:
    [claim] = extract_slots("She finished in 2:20:41.")
    [window] = extract_slots("She finished in 2:20:31.")
    assert render_like(claim, window) == "2:20:31"
    [count] = extract_slots("It lasted 150 minutes.")
    [both] = extract_slots("It lasted two hours and 41 minutes.")
    assert render_like(count, both) == "two hours and 41"


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("touched first in 1:54.62", 114.62), ("won in 27:43.12", 1663.12), ("finished in 2:14:05.3", 8045.3)],
)
def test_a_race_time_with_hundredths_is_one_value(text: str, seconds: float) -> None:
    [d] = durations(text)
    assert d.unit == RACE_TIME
    assert abs(d.number - seconds) < 1e-6


def test_a_time_of_day_is_no_race_time() -> None:
    assert durations("Doors open at 4:05 and close at 9:30 pm.") == []


def test_race_times_are_told_apart_to_their_hundredths() -> None:
    a, b = extract_slots("in 1:54.62")[0], extract_slots("in 1:54.12")[0]
    assert values_match(a, a) and not values_match(a, b)


@pytest.mark.parametrize(
    ("a", "noun_a", "b", "noun_b", "same"),
    [
        (2, "week", 14, "day", True),
        (36, "month", 3, "year", True),
        (90, "minut", 1.5, "hour", True),
        (18, "month", 2, "year", False),
        (3, "week", 14, "day", False),
        (30, "day", 1, "month", None),  # days and months do not convert exactly
        (730, "day", 2, "year", None),
        (2, "day", 48, "hour", None),  # a working day is no 24 hours
        (2, "week", 2, "week", None),  # one unit: the aligner's own comparison
        (2, "week", 14, "patient", None),
    ],
)
def test_a_count_of_one_unit_of_time_is_a_count_of_another_where_they_convert_exactly(
    a: float, noun_a: str, b: float, noun_b: str, same: bool | None
) -> None:
    assert same_span(a, noun_a, b, noun_b) is same

from __future__ import annotations

import pytest

from workers.stages.clock import CLOCK, clock_times
from workers.stages.render import render_like
from workers.stages.slots import SlotKind, extract_slots, values_match


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("around 2:00 PM.", "14:00"),
        ("at 2 pm, resulting", "14:00"),
        ("at 14:00 on Sunday", "14:00"),
        ("starts at 9.30am.", "09:30"),
        ("by 12 a.m. sharp", "00:00"),
        ("at 12:15 p.m.", "12:15"),
    ],
)
def test_a_time_of_day_is_one_value(text: str, value: str) -> None:
    [time] = clock_times(text)
    assert time.value == value
    assert text[time.start : time.end].rstrip(".") in text  # the span is the time, not the full stop
    [slot] = [s for s in extract_slots(text) if s.kind is SlotKind.FIGURE]
    assert slot.figure is not None and slot.figure.unit == CLOCK and slot.value == value


def test_the_same_time_written_two_ways_matches_and_another_time_does_not() -> None:
    [pm], [h24], [other] = (extract_slots(t) for t in ("at 2:00 PM", "at 14:00", "at 3 pm"))
    assert values_match(pm, h24) and not values_match(pm, other)
    assert render_like(other, h24) == "14:00"  # a fix writes the window's time as the window does


def test_no_time_in_ratios_scores_or_plain_figures() -> None:
    assert clock_times("a 3:1 ratio, a 2-1 win, 5 metres and 40 pounds") == []
    assert [s.text for s in extract_slots("Revenue rose 12% in 2023.")] == ["12%", "2023"]


def test_no_time_in_references_or_proportions() -> None:
    text = "As John 3:16 says, Article 2:10 applies; a 1:10 scale, a ratio of 1:20 and 1:5 odds."
    assert clock_times(text) == []


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("on Monday 14:00, At 9:30, John 3:16 pm", ["14:00", "09:30", "15:16"]),  # am or pm: a time
        ("Around 9:30 the police arrived.", ["09:30"]),  # a sentence's first word is an ordinary word
        ("After 10:00, shops close. Kickoff 19:30.", ["10:00", "19:30"]),
        ("Tue 9:30, Mon. 9:30 and Sundays 10:00 to 16:00", ["09:30", "09:30", "10:00", "16:00"]),
        ("The train leaves Paris 14:05 and reaches Lyon 16:10.", ["14:05", "16:10"]),  # past 12
    ],
)
def test_times_after_capitalised_words_that_lead_to_them(text: str, values: list[str]) -> None:
    assert [t.value for t in clock_times(text)] == values


def test_an_hour_without_am_or_pm_is_either_half_of_the_day() -> None:
    [h12], [pm], [other] = (extract_slots(t) for t in ("at 2:30", "at 14:30", "at 15:30"))
    assert values_match(h12, pm) and not values_match(h12, other)
    [bare], [nine] = extract_slots("from 9 to"), extract_slots("from 9 am")
    assert values_match(bare, nine)


def test_a_time_is_no_value_of_a_count_or_a_price() -> None:
    [time], [count] = extract_slots("at 12:10 am"), extract_slots("10 towns")
    assert values_match(time, count) is None
    assert clock_times("Rent is £2.5 pm, or 3.5 pm a week") == []
    assert clock_times("a lap of 3:45.2 and a run of 1:00:00") == []


def test_a_sentence_ending_in_am_keeps_its_full_stop() -> None:
    text = "It happened at 3 a.m."
    [time] = clock_times(text)
    assert text[time.start : time.end] == "3 a.m" and time.value == "03:00"

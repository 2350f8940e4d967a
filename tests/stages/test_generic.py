from __future__ import annotations

import pytest

from workers.stages.generic import overgeneral


@pytest.mark.parametrize(
    ("claim", "window", "part"),
    [
        (
            "Our fixed-rate mortgages come with a free standard valuation.",
            "Some of our fixed-rate mortgages come with a free standard valuation.",
            "Some of our",
        ),
        (
            "Women experience hot flushes during menopause.",
            "Many women experience hot flushes during menopause, and HRT relieves them for most.",
            "Many",
        ),
        (
            "The fees are refundable within 14 days.",
            "Most of the fees are refundable within 14 days.",
            "Most of the",
        ),
        ("Patients recover within a week.", "In trials, most patients recover within a week.", "most"),
    ],
)
def test_a_group_said_whole_where_the_window_says_part_of_it(claim: str, window: str, part: str) -> None:
    [found] = overgeneral(claim, window)
    assert found.part == part
    assert claim[found.start : found.end] == found.group


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # a narrower or a longer group than the window's
        ("Patients with diabetes need a lower dose.", "Some patients need a lower dose."),
        (
            "Fixed-rate mortgage holders get a free valuation.",
            "Some fixed-rate mortgages come with a free valuation.",
        ),
        # the claim keeps a part of its own, or denies
        (
            "Some of our mortgages come with a free valuation.",
            "Some of our mortgages come with a free valuation.",
        ),
        ("Many women experience hot flushes.", "Most women experience hot flushes."),
        ("Patients do not recover within a week.", "Most patients recover within a week."),
        # an approximation, not a part
        ("People attended the rally.", "Some 5,000 people attended the rally."),
        # another sentence says it of the whole group
        ("Patients recover.", "Patients recover. Most patients recover within a week."),
        # the window's sentence says something else of the group
        ("Patients pay nothing for prescriptions.", "Some patients recover within a week of surgery."),
    ],
)
def test_no_group_said_whole(claim: str, window: str) -> None:
    assert overgeneral(claim, window) == []


def test_a_group_opening_a_later_clause_and_denied_on_both_sides() -> None:
    [found] = overgeneral(
        "Interest is usually paid monthly, although accounts opened before 2019 pay interest annually.",
        "Interest is usually paid monthly. Some accounts opened before 2019 pay interest annually.",
    )
    assert found.group.startswith("accounts opened before 2019")
    assert overgeneral(
        "Minor extensions don't need planning permission.",
        "Some minor extensions do not need planning permission.",
    )

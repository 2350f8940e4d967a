from __future__ import annotations

import pytest

from workers.stages.measures import apart, firm_name, short_for


def _apart(mine: str, theirs: str, *, money: bool = True) -> bool:
    return apart(mine, mine.index(" ") if " " in mine else len(mine), theirs, theirs.index(" "), money=money)


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("£500 a month", "£6,000 per year", True),
        ("£500 a month", "£600 per month", False),
        ("$40,000 per annum", "$42,000 a year", False),
        ("£500 a month", "£600 for", False),  # a period on one side only: not known to differ
        ("£30,000 a year", "£32,000 p.a.", False),
        ("£500 for", "£600 in", False),
    ],
)
def test_an_amount_for_another_period_is_apart(mine: str, theirs: str, expected: bool) -> None:
    assert _apart(mine, theirs) is expected


def test_a_period_after_a_dose_is_the_frequency_modules_business() -> None:
    assert not _apart("10 mg/day", "20 mg/day", money=False)
    assert not apart("10 mg a day", 5, "20 mg a week", 5, money=False)


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        ("1,260 units per hour", "18 units/kg/hour", True),
        ("80 mg once", "1.5 mg/kg once", True),
        ("375 mg/m2", "400 mg/m2", False),
        ("5 micrograms per kg", "10 micrograms/kg", False),
    ],
)
def test_a_dose_per_kilogram_is_apart_from_an_absolute_one(mine: str, theirs: str, expected: bool) -> None:
    end, other_end = mine.index(" "), theirs.index(" ")
    assert apart(mine, end, theirs, other_end, money=False) is expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [("EU", "Union", True), ("US", "States", True), ("EU", "Canada", False), ("EU", "United States", False),
     ("ICC", "LCIA", False), ("Paris", "France", False), ("US", "Spain", False), ("FDA", "FTC", False),
     ("IBM", "Intel", False), ("UK", "US", False), ("EU", "Egypt", False)],
)  # fmt: skip
def test_an_acronym_and_a_part_of_what_it_stands_for(a: str, b: str, expected: bool) -> None:
    assert short_for(a, b) is expected


def test_the_first_name_of_a_firm() -> None:
    text = "advised by Cravath, Swaine & Moore"
    assert firm_name(text, text.index(",")) and not firm_name("advised by Cravath in 2020", 18)


@pytest.mark.parametrize(
    ("mine", "theirs", "expected"),
    [
        # the claim names one step anywhere, the window's amount has its own
        ("Repaying early in year three would incur a 3% charge.", "5% in year one", True),
        ("Repaying early in year one would incur a 3% charge.", "5% in year one", False),
        ("The charge is 3% in the third year.", "5% in the first year", True),
        ("The fee is 2% in phase 2.", "3% in phase 1", True),
        ("The fee is 2% in year 2.", "3% in phase 1", False),  # steps of another kind
        ("The fee is 2% a year.", "3% in year one", False),  # no step in the claim
        ("In year one the fee is 2%, and in year two 1%.", "3% in year one", False),  # two steps
    ],
)
def test_an_amount_for_another_step_of_a_schedule_is_apart(mine: str, theirs: str, expected: bool) -> None:
    end = mine.index("%") + 1
    assert apart(mine, end, theirs, theirs.index("%") + 1, money=False) is expected

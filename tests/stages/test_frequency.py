from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.frequency import frequencies, frequency_clashes


@pytest.mark.parametrize(
    ("text", "per_year"),
    [
        ("paid twice a year", 2.0),
        ("reviewed every six months", 2.0),
        ("taken once a week", 52.0),
        ("taken each day", 365.0),
        ("taken 3 times a day", 1095.0),
        ("taken twice daily", 730.0),
        ("given every other week", 26.0),
        ("given every 4 weeks", 13.0),
        ("distributes income quarterly, with", 4.0),
        ("payable monthly by direct debit", 12.0),
        ("renewed annually.", 1.0),
    ],
)
def test_a_frequency_is_read_as_times_a_year(text: str, per_year: float) -> None:
    [found] = frequencies(text)
    assert found.per_year == pytest.approx(per_year, rel=0.01)


@pytest.mark.parametrize(
    "text",
    [
        "a daily dose of 10 mg",  # a kind of thing
        "the monthly premium",
        "an annual fee",
        "a salary of £30,000 a year",  # a rate after a figure
        "10 mg a day",
        "a biweekly meeting",  # two meanings
    ],
)
def test_a_kind_or_a_rate_is_no_frequency(text: str) -> None:
    assert frequencies(text) == []


def test_every_zero_days_is_no_frequency() -> None:
    assert frequencies("Take one dose every 0 days.") == []


def _clashes(claim: str, window: str) -> list[tuple[str, str | None]]:
    found = frequency_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    return [(c.word, c.fix) for c in found]


@pytest.mark.parametrize(
    ("claim", "window", "clash"),
    [
        (
            "Take one 70 mg alendronic acid tablet each day with a full glass of plain water.",
            "Alendronic acid 70 mg: take one tablet once a week, on the same day each week.",
            ("each day", "once a week"),
        ),
        (
            "The fund pays out its income twice a year, and investors can have distributions reinvested.",
            "The Fund distributes income quarterly, with payment dates in January, April, July and October.",
            ("twice a year", "quarterly"),
        ),
        (
            "Premiums are collected annually by direct debit.",
            "Premiums are payable monthly by direct debit.",
            ("annually", "monthly"),
        ),
    ],
)
def test_another_frequency_for_the_same_thing_clashes(
    claim: str, window: str, clash: tuple[str, str]
) -> None:
    assert _clashes(claim, window) == [clash]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the same, said otherwise
        ("The fund pays out its income twice a year.", "The fund distributes its income every six months."),
        ("Take the tablet each day.", "Take the tablet daily."),
        # a "not" before the window's
        ("Premiums are collected annually.", "Premiums are not collected monthly."),
        # the clause is about something else
        (
            "Premiums are collected annually.",
            "Board meetings of the insurer are held monthly at head office.",
        ),
        # the window says two frequencies, one the claim's
        ("Reviews are held twice a year.", "Reviews are held twice a year and audits once a year."),
        # the claim says two
        ("Take it daily or twice a week.", "Take it once a week."),
        # one period said in days and in weeks
        ("Take one tablet every 7 days.", "Take one tablet once a week."),
        # the window says the claim's own in another sentence
        (
            "Premiums can be paid monthly.",
            "Premiums can be paid annually. You may also pay premiums monthly.",
        ),
        # the window's phrase is said of something else in its clause
        (
            "Take 10 mg of atorvastatin daily.",
            "Atorvastatin 10 mg is taken in the evening, with cholesterol levels checked every 3 months.",
        ),
        # a ratio, a bound on one side only, a compound
        (
            "Staff get 25 days of leave each year.",
            "Staff get 25 days of leave, plus one day for every 5 years.",
        ),
        ("Boilers must be serviced at least once a year.", "Boilers must be serviced every six months."),
        ("Dividends are paid twice-yearly.", "Dividends are paid quarterly."),
        # an amount's rate, not how often
        ("Adults can take up to 4 g daily.", "Adults can take 1 g four times a day."),
        ("Take one tablet twice a day.", "Take one tablet every 12 hours, up to 2 tablets daily."),
        ("The salary is £30,000 annually.", "The salary of £30,000 is paid monthly."),
        # the window says the claim's inside a word
        (
            "You can pay your premium monthly.",
            "You can pay your premium annually or by monthly direct debit.",
        ),
        (
            "Alendronic acid is taken once a week.",
            "It is a once-weekly tablet, while the 10 mg tablet is taken daily.",
        ),
    ],
)
def test_no_clash(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []

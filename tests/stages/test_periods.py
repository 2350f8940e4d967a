from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.periods import period_after, period_clashes, periods


def _clashes(claim: str, window: str) -> list[tuple[str, str]]:
    return [(c.word, c.fix) for c in period_clashes(Parsed.of(claim), Parsed.of(window))]


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("£1,200 a month", "month"),
        ("£30,000 per annum", "year"),
        ("£12.50 an hour", "hour"),
        ("£95 annually", "year"),
        ("£40,000 p.a.", "year"),
        ("£1,200 pcm", "month"),
        ("£1,200 per calendar month", "month"),
        ("£60 each week", "week"),
        ("10mg once a day", "day"),
    ],
)
def test_a_period_after_an_amount_is_read(text: str, unit: str) -> None:
    found = period_after(text, text.index(" "))
    assert found is not None and found.unit == unit


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("The monthly rent is £1,200.", "month"),
        ("There is an annual fee of £95.", "year"),
        ("The hourly rate for support staff is £12.50.", "hour"),
        ("Weekly benefit: £90.50.", "week"),
    ],
)
def test_a_period_word_opening_the_amounts_noun_phrase_is_read(text: str, unit: str) -> None:
    [period] = periods(Parsed.of(text)).values()
    assert period.unit == unit


@pytest.mark.parametrize(
    "text",
    [
        "Rent is paid monthly and the deposit is £1,200.",  # the period word is another clause's verb's
        "You get £500 per year of service.",  # a ratio
        "In its annual report, the company said profit was £5m.",  # another clause
        "The fee is £95 per night.",  # no period of the calendar
        "The dose is 10 metres a day.",  # neither money nor a dose
    ],
)
def test_no_period_is_read_where_none_is_the_amounts(text: str) -> None:
    assert periods(Parsed.of(text)) == {}


@pytest.mark.parametrize(
    ("claim", "window", "fix"),
    [
        (
            "The rent is £1,200 per year.",
            "The monthly rent is £1,200, payable in advance.",
            ("per year", "per month"),
        ),
        (
            "Support staff are paid £12.50 a day.",
            "The hourly rate for support staff is £12.50.",
            ("a day", "an hour"),
        ),
        (
            "There is an annual fee of £95.",
            "A fee of £95 per month applies to all accounts.",
            ("an annual", "a monthly"),
        ),
        ("The allowance is £500 annually.", "The allowance is £500 a month.", ("annually", "monthly")),
        (
            "You would start on 7.5 mg of methotrexate a day, building up to a maximum of 25 mg.",
            "Methotrexate: the usual starting dose is 7.5 mg weekly, built up to a maximum of 25 mg weekly.",
            ("a day", "a week"),
        ),
    ],
)
def test_the_same_amount_for_another_period_is_a_clash_fixed_in_the_claims_words(
    claim: str, window: str, fix: tuple[str, str]
) -> None:
    assert _clashes(claim, window) == [fix]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The rent is £1,200 pcm.", "The monthly rent is £1,200."),  # the same period
        ("The allowance is £6,000 a year.", "The allowance is £500 a month."),  # another amount: its worth
        ("The rent is £1,200 a month.", "The rent is £1,200."),  # the window gives no period
        # the window gives the amount for the claim's period too
        ("The fee is £95 a year.", "The fee is £95 a month for basic accounts and £95 a year for students."),
        ("The rent is not £1,200 a year.", "The monthly rent is £1,200."),  # a "not"
        ("The deposit is £1,200 a year.", "Members of the gym pay £1,200 each month."),  # about another thing
    ],
)
def test_no_clash_where_the_window_may_say_the_claims_period(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("On the monthly plan the annual fee is £95.", "year"),  # the period word nearest the amount
        ("The monthly statement lists an annual fee of £95.", "year"),
        ("Take 7.5 mg of methotrexate weekly.", "week"),
    ],
)
def test_the_period_nearest_the_amount_is_its_own(text: str, unit: str) -> None:
    [period] = periods(Parsed.of(text)).values()
    assert period.unit == unit


def test_a_dose_taken_more_than_once_in_its_period_has_no_period() -> None:
    assert periods(Parsed.of("Patients take 2.5 mg of methotrexate three times a week.")) == {}


@pytest.mark.parametrize(
    ("claim", "window", "fix"),
    [
        (
            "The salary is £40,000 p.a.",
            "The salary is £40,000 a month.",
            ("p.a", "a month"),
        ),  # keeps the stop
        ("Annual membership is £95.", "Membership is £95 a month.", ("Annual", "Monthly")),
    ],
)
def test_a_fix_keeps_the_sentences_stop_and_capital(claim: str, window: str, fix: tuple[str, str]) -> None:
    assert _clashes(claim, window) == [fix]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # a time, not a period
        (
            "The monthly rent was £1,200 a year ago.",
            "The monthly rent was £1,200 last year and is £1,300 now.",
        ),
        # another drug's dose, another thing's amount
        (
            "The usual starting dose of prednisolone is 7.5 mg a day.",
            "The usual dose of methotrexate is 7.5 mg weekly.",
        ),
        (
            "The service charge is £1,200 a year.",
            "The rent is £1,200 a month and the service charge is £100 a month.",
        ),
        # the claim converts its own amount
        (
            "The charge of £100 a month comes to £1,200 a year.",
            "The rent is £1,200 a month and the charge is £100 a month.",
        ),
        # a compound or a verb between the period word and the amount
        ("Annual leave is paid at the hourly rate of £12.50.", "Annual leave is paid at £12.50."),
        ("Your monthly premium is £40.", "The annual review confirmed your premium at £40."),
    ],
)
def test_no_clash_for_a_time_another_things_amount_or_a_compound(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


def test_a_period_word_after_the_amount_before_a_noun_is_fixed_as_an_adjective() -> None:
    window = "The annual fee of £60 is charged on your account anniversary."
    [clash] = period_clashes(Parsed.of("The card has a £60 monthly fee."), Parsed.of(window))
    assert (clash.word, clash.fix) == ("monthly", "annual")


def test_a_period_word_after_the_amount_before_other_words_stays_an_adverb() -> None:
    window = "The card has a fee of £60 a year."
    [clash] = period_clashes(Parsed.of("The card has a fee of £60 monthly since 2020."), Parsed.of(window))
    assert clash.fix == "annually"


def test_a_rate_in_percent_for_another_period_is_a_clash() -> None:
    [clash] = period_clashes(
        Parsed.of("The platform fee is 0.25% a year, charged monthly."),
        Parsed.of("The platform fee is 0.25% per month."),
    )
    assert (clash.word, clash.fix) == ("a year", "a month")
    assert (
        period_clashes(
            Parsed.of("Prices rose 3% a year over the decade."),
            Parsed.of("Prices rose 3% annually over the decade."),
        )
        == []
    )


def test_a_period_before_on_is_read_unless_it_says_a_time() -> None:
    assert period_after("10 mg once a day on an empty stomach.", 5) is not None
    assert period_after("£5 a month on unpaid balances.", 2) is not None
    for text in ["£5 a month on, the price rose.", "£5 a week on Tuesday.", "£5 a month on from March."]:
        assert period_after(text, 2) is None, text

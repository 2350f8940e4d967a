from __future__ import annotations

import pytest

from workers.backends.locks import locked_slots
from workers.stages.align import Parsed


def _locked(claim: str, *windows: str) -> list[str]:
    read = Parsed.of(claim)
    starts = locked_slots(read, [Parsed.of(w) for w in windows])
    return [s.text for s in read.values if s.start in starts]


def test_a_figure_for_several_things_at_once_is_a_sum_no_part_corrects() -> None:
    window = "Retail Banking contributed 54% of income, Commercial Banking 31% and Wealth Management 15%."
    claim = "Commercial Banking and Wealth Management together generated 46% of income."
    assert "46%" in _locked(claim, window)
    assert _locked("Wealth Management generated 46% of income.", window) == ["Wealth Management"]


def test_a_date_given_with_the_claims_name_is_locked() -> None:
    claim = "Sandra Day O'Connor was appointed by President Ronald Reagan in 1981."
    named = "He made good on that promise in 1981, when he announced Sandra Day O'Connor's nomination."
    assert "1981" in _locked(claim, "During the 1980 campaign, Ronald Reagan made a promise.", named)
    assert "1981" not in _locked(claim, "During the 1980 campaign, Ronald Reagan made a promise.")


def test_every_value_of_a_comparison_is_locked() -> None:
    claim = "Revenue rose faster in 2021 than in 2020."
    assert _locked(claim, "Revenue rose 5% in 2021.") == ["2021", "2020"]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "Ronald Reagan was elected president in 1981.",
            "Ronald Reagan was elected president in 1980. Ronald Reagan took office in 1981.",
        ),
        ("The UK left the EU in 2016.", "The UK left the EU in 2020. The UK voted to leave the EU in 2016."),
        (
            "Steve Jobs founded Apple in 1977.",
            "Steve Jobs founded Apple in 1976. In 1977, Apple was incorporated.",
        ),
    ],
)
def test_a_date_is_not_locked_where_a_window_gives_another_with_the_claims_own_verb(
    claim: str, window: str
) -> None:
    assert not [t for t in _locked(claim, window) if t[:2] in ("19", "20")]


def test_every_amount_of_the_claim_the_windows_state_is_locked() -> None:
    claim = "Over the 48 months the borrower repays £17,280 altogether, of which £2,280 is interest."
    loan = "You will borrow £15,000 over 48 months. Your monthly repayment will be £360."
    total = "The total amount payable is £17,280, including total interest of £2,280."
    assert _locked(claim, loan, total) == ["48", "£17,280", "£2,280"]
    assert _locked(claim, loan) == []  # one window alone states only the 48


def test_a_sum_the_window_states_as_a_sum_is_not_locked() -> None:
    assert "46%" not in _locked("Alice and Bob together own 46%.", "Alice and Bob together own 40%.")
    assert (
        _locked("In total, 5,000 people applied and 300 were accepted.", "In total, 200 were accepted.") == []
    )


def test_a_total_and_its_parts_joined_by_plus_is_a_sum() -> None:
    claim = "Acme must pay $8.5 million in total: $6 million in redress plus a $2.5 million penalty."
    assert "$8.5 million" in _locked(claim, "Acme must pay $6 million in redress and a $2.5 million penalty.")


@pytest.mark.parametrize(
    ("claim", "window", "locked"),
    [
        # a rest: 4,860 - 2,916
        (
            "Of the group's 4,860 staff, 1,944 were based outside the UK.",
            "The Group employed 4,860 people, of whom 2,916 were based in the UK and the rest overseas.",
            "1,944",
        ),
        # a change, hedged: 4.82 - 4.31 billion, to 5%
        (
            "Revenue grew by roughly $500 million year on year, to $4.82 billion.",
            "Revenue was $4.82 billion, up from $4.31 billion a year earlier.",
            "$500 million",
        ),
        # a product of a count and an amount
        (
            "You make 36 payments of £412.50, which adds up to £14,850 in total.",
            "The Borrower shall repay the Loan in 36 equal monthly instalments of £412.50.",
            "£14,850",
        ),
        # from the claim's own figures
        (
            "Only 39 of the 52 weeks are paid, so the last 13 weeks carry no pay.",
            "Pay lasts for up to 39 weeks.",
            "13",
        ),
    ],
)
def test_a_figure_the_claim_works_out_is_locked(claim: str, window: str, locked: str) -> None:
    assert locked in _locked(claim, window)


def test_a_figure_with_no_word_that_works_it_out_is_not_locked() -> None:
    window = "Retail Banking contributed 54% of income, Commercial Banking 31% and Wealth Management 15%."
    assert "46%" not in _locked("Wealth Management generated 46% of income.", window)
    # not a difference to the precision it is written in
    assert "$510 million" not in _locked(
        "Revenue grew by $510 million.", "Revenue was $4.82 billion, up from $4.30 billion."
    )


def test_a_date_a_period_after_the_windows_date_is_locked() -> None:
    window = "The development must begin within 3 years of the decision date of 9 January 2024."
    assert _locked("Work must begin by 9 January 2027.", window) == ["9 January 2027"]
    assert _locked("Work must begin by 9 January 2026.", window) == []


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # "by" that is no change
        (
            "A claim must be brought by the tenant within 4 years.",
            "Claims: within 6 years, or 2 years for injury.",
        ),
        # the window states another figure for the claim's words
        ("The total fee is £1,500.", "The fee is £1,000 plus a £500 deposit; the total fee is £1,200."),
        # "up to" is a bound, not a move
        (
            "You can get pay for up to 45 weeks.",
            "Pay lasts up to 39 weeks: the first 6 weeks at 90%, then 33.",
        ),
    ],
)
def test_a_figure_a_window_gives_otherwise_is_not_locked_as_worked_out(claim: str, window: str) -> None:
    assert _locked(claim, window) == []


@pytest.mark.parametrize(
    ("claim", "window", "locked"),
    [
        # the period counts from the date; a month's end is kept
        ("Appeal by 29 February 2024.", "Appeal within 1 month of the notice dated 31 January 2024.", True),
        (
            "Work must begin by 9 January 2025.",
            "Begin within a year of the decision of 9 January 2024.",
            True,
        ),
        # the date is the start, said for itself
        (
            "The lease starts on 1 January 2026.",
            "The lease starts on 1 January 2024 and runs for 2 years.",
            False,
        ),
        # the window's words say the date is the claim's own
        (
            "The decision date was 9 January 2027.",
            "Begin within 3 years of the decision date of 9 January 2024.",
            False,
        ),
    ],
)
def test_a_date_counted_from_a_windows_date_is_locked(claim: str, window: str, locked: bool) -> None:
    assert bool(_locked(claim, window)) is locked


@pytest.mark.parametrize(
    ("claim", "window", "locked"),
    [
        # a product of a count and a price needs no word that says so, the count may be scaled
        (
            "Brightline spent about $54.6 million repurchasing 1.2 million shares.",
            "It repurchased 1.2 million shares at an average price of $45.50 per share.",
            "$54.6 million",
        ),
        # an amount over a count, with a word that says it is worked out
        (
            "Since the £1,650 deposit equals five weeks' rent, your weekly rent works out at £330.",
            "The Tenant shall pay a deposit of £1,650, equal to five weeks' rent.",
            "£330",
        ),
        # the years between two years of one sentence
        (
            "Kettering spent 18 years teaching at Yale before retiring in 1996.",
            "Kettering taught at Yale from 1978 until his retirement in 1996.",
            "18",
        ),
        # "added" is a change: the difference of the two levels
        (
            "Orion added 500,000 subscribers over the year to reach 12.4 million.",
            "Total subscribers reached 12.4 million, up from 11.9 million a year earlier.",
            "500,000",
        ),
    ],
)
def test_more_figures_the_claim_works_out_are_locked(claim: str, window: str, locked: str) -> None:
    assert locked in _locked(claim, window)


def test_a_count_of_years_that_is_no_span_is_not_locked() -> None:
    window = "Kettering taught at Yale from 1978 until his retirement in 1996."
    assert "19" not in _locked("Kettering spent 19 years teaching at Yale before retiring in 1996.", window)

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

from __future__ import annotations

import pytest

from workers.stages.duties import moved_duties

_SALE = (
    "Completion shall take place on 30 September 2025. The Seller shall bear all agent's commission and "
    "the cost of discharging any existing mortgage. The Buyer shall pay the stamp duty land tax and "
    "registration fees."
)


def test_an_item_the_window_gives_the_other_party_is_moved() -> None:
    claim = "The buyer will cover stamp duty land tax, registration fees and the agent's commission."
    [moved] = moved_duties(claim, _SALE)
    assert (moved.party, moved.other, moved.item) == ("buyer", "seller", "the agent's commission")
    assert claim[moved.start : moved.end] == "the agent's commission"


@pytest.mark.parametrize(
    ("claim", "window", "other"),
    [
        (
            "The defendant is responsible for preparing the trial bundle.",
            "The Defendant shall give disclosure by 30 May. The Claimant shall prepare the trial bundle.",
            "claimant",
        ),
        (
            "Your landlord deals with gas safety checks and unblocking the drains.",
            "The Landlord is responsible for gas safety checks. The Tenant is responsible for the cost of "
            "unblocking drains caused by the Tenant's misuse.",
            "tenant",
        ),
        (
            "The borrower pays the stamp duty, as well as the cost of the lender's valuation.",
            "The Borrower shall pay all stamp duty. The Lender shall pay the cost of its own valuation.",
            "lender",
        ),
    ],
)
def test_the_other_partys_item_in_other_shapes(claim: str, window: str, other: str) -> None:
    [moved] = moved_duties(claim, window)
    assert moved.other == other


@pytest.mark.parametrize(
    "claim",
    [
        # each item where the window puts it, in another order and other words
        "The seller bears the agent's commission, and the buyer pays stamp duty land tax.",
        # another subject's clause after "while" is not the buyer's
        "The buyer pays stamp duty land tax, while the agent's commission is at the seller's cost.",
        # the claim names the other party in its clause: the model's to read
        "The buyer shall reimburse the seller for the agent's commission.",
        # a denial
        "The buyer does not pay the agent's commission.",
        # an item of one word only
        "The buyer pays the commission.",
    ],
)
def test_no_item_moved(claim: str) -> None:
    assert moved_duties(claim, _SALE) == []


def test_an_item_the_partys_own_sentence_says_half_of_is_not_moved() -> None:
    window = (
        "The specialist will carry out baseline renal and thyroid tests. The GP will continue prescribing, "
        "and check renal and thyroid function every six months."
    )
    claim = "The GP takes over prescribing and arranges six-monthly kidney and thyroid tests."
    assert moved_duties(claim, window) == []


def test_an_object_or_an_owner_is_no_party_that_is_a_subject() -> None:
    window = (
        "The Seller shall reimburse the Buyer for the survey fee. The Seller's solicitor holds the deposit."
    )
    assert moved_duties("The buyer pays the survey fee.", window) == []


def test_a_figures_comma_does_not_split_an_item() -> None:
    [moved] = moved_duties(
        "The borrower pays a £1,995 broker fee.", "The Lender shall pay a broker fee of £1,995 on completion."
    )
    assert moved.item == "The borrower pays a £1,995 broker fee"

"""Charges denied against charges attached (`workers.stages.conditions`)."""

from __future__ import annotations

from workers.stages.conditions import charge_clashes

FEE = "Early repayment is permitted subject to a 1% prepayment fee."


def test_a_denied_charge_against_an_attached_one_clashes_with_the_documents_words_as_fix() -> None:
    claim = "Early repayment is allowed without penalty."
    [clash] = charge_clashes(claim, FEE)
    assert claim[clash.start : clash.end] == "without penalty"
    assert clash.fix == "subject to a 1% prepayment fee"


def test_a_determiner_denial_takes_the_charge_alone() -> None:
    [clash] = charge_clashes("The account has no monthly fee.", "The account carries a monthly fee of $5.")
    assert (clash.denial, clash.fix) == ("no monthly fee", "a monthly fee of $5")


def test_a_charge_with_an_exception_or_a_window_that_also_denies_one_is_left_to_the_model() -> None:
    claim = "The account has no monthly fee."
    assert charge_clashes(claim, "It carries a monthly fee of $5 unless the balance exceeds $1,000.") == []
    both = "Repayment is without penalty after two years and subject to a 1% fee before."
    assert charge_clashes("Early repayment is allowed without penalty.", both) == []


def test_no_clash_without_a_denial_or_with_two_charges() -> None:
    assert charge_clashes("Early repayment is allowed.", FEE) == []
    assert charge_clashes("Returns are free of charge.", "Returns are free of charge.") == []
    two = "Repayment is subject to a 1% fee and incurs a penalty of $50."
    assert charge_clashes("Repayment is allowed without penalty.", two) == []
    assert charge_clashes("The rate is fixed at 5%.", FEE) == []


def test_a_window_that_calls_something_free_or_a_claim_that_states_the_charge_is_left_to_the_model() -> None:
    # "six withdrawals a year without charge; after that, each costs £5" was made "subject to a fee of £5"
    claim = "You can make six withdrawals a year without charge; after that, each extra withdrawal costs £5."
    window = "You can make up to 6 free withdrawals per year. Each additional withdrawal incurs a fee of £5."
    assert charge_clashes(claim, window) == []
    assert charge_clashes(claim, "Each additional withdrawal incurs a fee of £5.") == []
    assert charge_clashes("You can make six withdrawals a year without charge.", window) == []
    assert charge_clashes("Withdrawals are made without charge.", "Each withdrawal incurs a fee of £5.") != []


def test_the_claims_own_statement_of_the_charge_is_read_as_a_whole_amount() -> None:
    window = "Any further withdrawal incurs a fee of £5."
    claim = "Six withdrawals a year are without charge; after that each costs £5 per withdrawal."
    assert charge_clashes(claim, window) == []
    # "£50" is not the charge's "£5"
    assert charge_clashes("You can withdraw £50 without charge.", window) != []

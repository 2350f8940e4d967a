"""The window as the cross-encoder reads it: a value both state is spelled as the claim spells it."""

from __future__ import annotations

import pytest

from workers.backends.restate import restated


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "Route 495 is a 3.45-mile freeway.",
            "Route 495 is a 3.45 mi freeway in Hudson County .",
            "Route 495 is a 3.45-mile freeway in Hudson County .",
        ),
        (
            "Tim Roth, born December 6, 1975, is a musician.",
            "Tim Roth ( born 6 December 1975 ) is a Canadian musician .",
            "Tim Roth ( born December 6, 1975 ) is a Canadian musician .",
        ),
        ("Costs rose 5 per cent.", "Costs rose 5% last year.", "Costs rose 5 per cent last year."),
        (
            "Revenue was $4.2 billion in 2023.",
            "Revenue reached $4,200 million in 2023.",
            "Revenue reached $4.2 billion in 2023.",
        ),
    ],
)
def test_a_value_both_state_is_spelled_as_the_claim_spells_it(claim: str, window: str, expected: str) -> None:
    assert restated(claim, window) == expected


def test_every_shared_value_is_respelled_and_the_rest_of_the_window_kept() -> None:
    claim = "The loan of $2.5 million matures on March 15, 2029 at 5.25 per cent."
    window = "The $2,500,000 loan bears 5.25% a year and matures on 15 March 2029, the bank said."
    assert restated(claim, window) == (
        "The $2.5 million loan bears 5.25 per cent a year and matures on March 15, 2029, the bank said."
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # another value: the contradiction stays for the model to read
        ("Route 495 is a 4.45-mile freeway.", "Route 495 is a 3.45 mi freeway ."),
        ("Roth was born on May 15, 1961.", "Roth ( born 14 May 1961 ) is an actor ."),
        # found by the rules, but not the same value as written: a range, a month against a day
        ("The firm employs about 5,000 people.", "The firm employs 4,900 people."),
        ("It was founded in March 2001.", "It was founded on 3 March 2001."),
        # a count in words and a name are left as the window writes them
        ("Three managers left.", "The 3 managers left."),
        ("Tim Roth is a musician.", "Timothy Roth is a musician."),
        # spelled alike already
        ("Costs rose 5% in 2023.", "Costs rose 5% in 2023 ."),
        # hedged on either side: the window does not state the claim's point as such
        ("The trial enrolled 1,200 patients.", "The trial enrolled about 1200 patients."),
        ("The company spent nearly $4.2 billion.", "The company spent $4,200 million."),
        # another value of the kind and unit: which is the claim's is the model's to read
        (
            "The jury awarded the claimant $1.2 million.",
            "The claimant sought $1,200,000 in damages; the jury awarded $300,000.",
        ),
        (
            "The company employs 12,000 people in Germany.",
            "It employs 12000 people worldwide, 3,000 in Germany.",
        ),
        (
            "The fund was closed on March 3, 2001.",
            "The fund opened on 1 May 1990 and closed on 3 March 2001.",
        ),
        # a negation over the same words: the window does not state the claim's fact
        (
            "Revenue increased by 5% in 2022.",
            "Revenue did not increase by 5 per cent in 2022 as forecast.",
        ),
    ],
)
def test_nothing_else_is_touched(claim: str, window: str) -> None:
    assert restated(claim, window) == window


def test_a_span_of_time_the_rules_find_in_another_unit_is_read_in_the_claims_words() -> None:
    assert restated("Report it within two weeks.", "Changes must be reported within 14 days.") == (
        "Changes must be reported within two weeks."
    )
    # never one end of a range alone, nor a span that does not convert
    assert (
        restated("Refunds take 2 to 3 weeks.", "Refunds take 14 to 21 days.") == "Refunds take 14 to 21 days."
    )
    assert (
        restated("The bond runs for 18 months.", "The bond runs for two years.")
        == "The bond runs for two years."
    )

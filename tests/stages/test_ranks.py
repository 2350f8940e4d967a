"""Ranks said otherwise: "the largest" against "the second-largest"."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.ranks import rank_clashes


def _clashes(claim: str, window: str) -> list[tuple[str, str]]:
    return [
        (c.word, c.fix) for c in rank_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "Acme is the largest bank in Spain.",
            "Acme is the second-largest bank in Spain.",
            ("largest", "second-largest"),
        ),
        (
            "Acme is the second-largest bank in Spain.",
            "Acme is the largest bank in Spain, with 14 million customers.",
            ("second-largest", "largest"),
        ),
        (
            "Acme is Spain's largest bank.",
            "Acme is Spain's second largest bank.",
            ("largest", "second largest"),
        ),
        (
            "Apple is the most valuable company.",
            "Apple is the third most valuable company.",
            ("most valuable", "third most valuable"),
        ),
        (
            "Acme is the 12th-largest lender.",
            "Acme is the eleventh-largest lender.",
            ("12th-largest", "eleventh-largest"),
        ),
        (
            "Acme is the 21st largest lender.",
            "Acme is the 22nd largest lender.",
            ("21st largest", "22nd largest"),
        ),
        (
            "Inflation hit its highest level since 1990 in 2022.",
            "In 2022 inflation hit its second-highest level since 1990.",
            ("highest", "second-highest"),
        ),
    ],
)
def test_a_rank_said_otherwise_is_fixed_with_the_windows(
    claim: str, window: str, expected: tuple[str, str]
) -> None:
    assert _clashes(claim, window) == [expected]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # many, not one rank
        ("Acme is one of the largest banks in Spain.", "Acme is the second-largest bank in Spain."),
        ("Acme is the second-largest bank in Spain.", "Acme is one of the largest banks in Spain."),
        ("Acme and Beta are the two largest banks in Spain.", "Acme is the second-largest bank in Spain."),
        # another place, another holder, both ranks stated, a "not", a quantity
        ("Acme is the largest bank in Spain.", "Acme is the second-largest bank in Europe."),
        ("Acme is the largest bank in Spain.", "Beta is the second-largest bank in Spain, after Acme."),
        (
            "Acme is the largest bank in Spain.",
            "Santander is the largest bank in Spain, ahead of Acme, the second-largest.",
        ),
        ("Acme is not the largest bank in Spain.", "Acme is the second-largest bank in Spain."),
        ("Acme is the twelfth-largest lender.", "Acme is the 12th-largest lender."),
        # another time's rank
        (
            "In 2019, Acme was the largest US bank.",
            "In 2023 Acme was the second-largest US bank, down from first place in 2019.",
        ),
        ("Acme was the largest bank in Spain in 2019.", "In 2022 Acme was the third-largest bank in Spain."),
        # a guess, "one of the world's largest", a "not" of the rank
        ("Acme is the largest bank in Spain.", "Acme could be the second-largest bank in Spain."),
        ("Acme is one of the world's largest banks.", "Acme is the world's fifth-largest bank."),
        ("Acme isn't Spain's largest bank.", "Acme is Spain's second-largest bank."),
        # the claim's rank in another sentence of the window
        (
            "Acme is the third-largest bank in Spain.",
            "Acme was the largest bank in Spain in 2019. After a series of losses it fell to third-largest.",
        ),
        ("Most banks lost money in 2008.", "In 2008 the second most banks lost money."),
    ],
)
def test_no_clash_unless_the_same_thing_is_ranked_once_otherwise(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


def test_a_not_elsewhere_in_the_sentence_is_no_not_of_the_rank() -> None:
    claim = "Acme, Spain's largest bank, did not cut its dividend."
    assert _clashes(claim, "Acme, Spain's second-largest bank, did not cut its dividend.") == [
        ("largest", "second-largest")
    ]


@pytest.mark.parametrize(
    ("claim", "window", "mine"),
    [
        (
            "Acme is the largest bank in Spain.",
            "Acme is the second-largest bank in Spain by deposits.",
            "largest",
        ),
        (
            "Acme is the second-largest U.S. bank.",
            "Acme, the largest U.S. bank by deposits, grew.",
            "second-largest",
        ),
        (
            "Acme is the largest bank.",
            "Acme is the third-largest bank by the value of its deposits.",
            "largest",
        ),
    ],
)
def test_a_rank_by_a_measure_the_claim_does_not_name_is_flagged_not_fixed(
    claim: str, window: str, mine: str
) -> None:
    assert _clashes(claim, window) == [(mine, None)]

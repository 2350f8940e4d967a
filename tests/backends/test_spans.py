"""Spans of figures are fixed whole or not at all (`workers.backends.spans`), through the rule checker."""

from __future__ import annotations

import pytest

from tests.backends.test_checker import _apply, _judge


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        # a hyphen leaves the second figure unread: it is read from the text and must agree
        (
            "The settlement was worth $5-6 million.",
            "The settlement was worth between $4 million and $6 million.",
            "The settlement was worth $4-6 million.",
        ),
        (
            "Adults aged 18-65 are eligible.",
            "Adults aged 16 to 65 are eligible.",
            "Adults aged 16-65 are eligible.",
        ),
        ("The board has 4–5 members.", "The board has 3–6 members.", "The board has 3–6 members."),
    ],
)
def test_a_span_is_fixed_when_both_its_figures_are_accounted_for(claim: str, window: str, fixed: str) -> None:
    assert _apply(claim, _judge(claim, window)) == fixed


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Patients aged 18-65 were enrolled in 2019.", "Patients aged 21-70 were enrolled in 2019."),
        ("Patients aged 18 to 65 were enrolled in 2019.", "Patients aged 21-70 were enrolled in 2019."),
        ("The settlement was worth $5-6 million.", "The settlement was worth $5.5 million."),
        ("The Celtics lost 98 to 104 to the Heat.", "The Heat beat the Celtics 110 to 98."),
        ("Recovery usually takes 1 to 2 years.", "Recovery usually takes 12 to 24 months."),
    ],
)
def test_a_span_is_never_fixed_in_part_or_across_units(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.fixes == (), _apply(claim, result)


def test_a_span_is_fixed_from_one_span_of_the_window_only() -> None:
    claim = "Repeat offences carry fines of £2,000 to £4,000."
    window = "First offences carry fines of £500 to £1,000, and repeat offences fines of £2,000 to £5,000."
    assert _apply(claim, _judge(claim, window)) in (claim, "Repeat offences carry fines of £2,000 to £5,000.")

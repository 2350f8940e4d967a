"""Spans of figures are fixed whole or not at all (`workers.backends.spans`), through the rule checker."""

from __future__ import annotations

import pytest

from tests.backends.test_checker import _apply, _judge
from workers.messages import Judgement


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


def test_a_fix_leaving_another_value_at_odds_is_a_flag() -> None:
    claim = "The contract was signed by John Smith, the CFO."
    result = _judge(claim, "The contract was signed by Jane Doe, the CEO, on 3 March.")
    assert result.label is Judgement.CONTRADICT and result.fixes == ()
    assert "not corrected: entity CFO in claim, CEO in evidence" in result.reason
    # every value at odds fixed: the fix stands
    claim = "The contract was signed by John Smith on 3 March."
    assert _apply(claim, _judge(claim, "The contract was signed by Jane Doe on 5 March.")) == (
        "The contract was signed by Jane Doe on 5 March."
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The trial enrolled 400 patients.", "The trial enrolled between 200 and 300 patients."),
        ("The dose was 50 mg.", "The dose was 10 to 20 mg daily."),
        ("The fee is 3%.", "The fee ranges from 1% to 2% of the balance."),
    ],
)
def test_a_figure_outside_the_windows_range_is_flagged(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT and result.fixes == ()
    assert "outside" in result.reason


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The trial enrolled 250 patients.", "The trial enrolled between 200 and 300 patients."),
        ("The trial enrolled 300 patients.", "The trial enrolled 200 to 300 patients."),
        # a change is two levels, not a range
        ("Enrollment was 500.", "Enrollment increased from 200 to 300 in 2020."),
        # another figure of the unit in the clause: whose range it is, is unclear
        ("The trial enrolled 400 patients.", "Of 900 screened, 200 to 300 patients were enrolled."),
    ],
)
def test_a_figure_in_range_or_beside_a_change_is_no_conflict(claim: str, window: str) -> None:
    assert _judge(claim, window).label is not Judgement.CONTRADICT


def test_a_closed_set_word_is_fixed_only_with_every_figure_found_or_fixed() -> None:
    claim = "The dose is 10 mg twice daily."
    assert _apply(claim, _judge(claim, "The dose is 20 mg once daily.")) == "The dose is 20 mg once daily."
    # the bound is read as a bound, so $5,000 is no fixable value: the word is not fixed either
    result = _judge("The minimum investment is $5,000.", "The maximum investment is $1,000.")
    assert result.label is Judgement.CONTRADICT and result.fixes == ()

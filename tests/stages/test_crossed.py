from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.crossed import crossed_values

RETENTION = (
    "CVs of unsuccessful candidates are retained for 6 months after the recruitment decision. "
    "Right-to-work documents for employees are retained for 2 years after employment ends."
)
DOSES = "Apixaban is given 5 mg twice daily. Rivaroxaban is given 20 mg once daily with the evening meal."


def _crossed(claim: str, window: str) -> list[tuple[str, str]]:
    return [(c.a.text, c.for_a.text) for c in crossed_values(Parsed.of(claim), Parsed.of(window))]


@pytest.mark.parametrize(
    ("claim", "window", "crossed"),
    [
        (
            "Fenwick keeps unsuccessful candidates' CVs for 2 years after the recruitment decision and "
            "employees' right-to-work documents for 6 months after employment ends.",
            RETENTION,
            [("2", "6")],
        ),
        (
            "Rivaroxaban is given as 5 mg twice daily, while apixaban is taken as 20 mg once daily.",
            DOSES,
            [("5 mg", "20 mg")],
        ),
    ],
)
def test_two_values_given_to_each_others_things_are_crossed(
    claim: str, window: str, crossed: list[tuple[str, str]]
) -> None:
    assert _crossed(claim, window) == crossed


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the right way round, in another order
        (
            "Fenwick keeps unsuccessful candidates' CVs for 6 months after the recruitment decision and "
            "employees' right-to-work documents for 2 years after employment ends.",
            RETENTION,
        ),
        ("Apixaban is given as 5 mg twice daily, while rivaroxaban is taken as 20 mg once daily.", DOSES),
        ("Rivaroxaban is taken as 20 mg once daily and apixaban as 5 mg twice daily.", DOSES),
        # counts of different things
        (
            "Denervation cut blood pressure by 8.0 mmHg at six months, against 3.0 mmHg after sham.",
            "At 6 months, blood pressure fell by 8.0 mmHg with denervation and 3.0 mmHg with sham.",
        ),
        # in two sentences of the claim
        ("Apixaban is 20 mg. Rivaroxaban is 5 mg.", DOSES),
    ],
)
def test_values_each_where_the_window_puts_them_are_not_crossed(claim: str, window: str) -> None:
    assert _crossed(claim, window) == []

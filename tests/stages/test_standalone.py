from __future__ import annotations

import pytest

from workers.messages import Claim
from workers.stages.standalone import standalone_text, with_standalone


def _claims(*texts: str) -> list[Claim]:
    return [Claim(id=f"c{i}", text=t, start=0, end=len(t)) for i, t in enumerate(texts)]


@pytest.mark.parametrize(
    ("previous", "text", "expected"),
    [
        ("Arthur's Magazine was started first.", "It was published in Philadelphia.",
         "Arthur's Magazine was published in Philadelphia."),
        ("The loan carries a fixed rate.", "It matures in March 2031.", "The loan matures in March 2031."),
        ("The Hubble Space Telescope was launched in 1990.", "Its mirror is 2.4 metres wide.",
         "The Hubble Space Telescope's mirror is 2.4 metres wide."),
        ("Acme Corp was founded in 1990.", "The company moved to Oslo.", "Acme Corp moved to Oslo."),
        ("Jane Doe joined Acme in 2019.", "She leads the audit team.", "Jane Doe leads the audit team."),
    ],
)  # fmt: skip
def test_a_leading_pronoun_is_replaced_by_the_previous_subject(
    previous: str, text: str, expected: str
) -> None:
    assert standalone_text(text, previous=previous) == expected


@pytest.mark.parametrize(
    ("previous", "text"),
    [
        ("The loan carries a fixed rate.", "It is likely that rates will rise."),  # an expletive "it"
        ("The loan carries a fixed rate.", "She signed it in 2020."),  # "she" needs a name
        ("The loan carries a fixed rate.", "The company moved to Oslo."),  # "the company" needs a name
        ("In 2023, revenue rose 12%.", "It was a record."),  # no plain subject to stand for
        ("Acme Corp was founded in 1990.", "Revenue rose 12%."),  # nothing to resolve
    ],
)
def test_nothing_is_resolved_when_it_is_unclear(previous: str, text: str) -> None:
    assert standalone_text(text, previous=previous) is None


def test_a_chain_of_pronouns_keeps_the_first_subject_and_the_company_finds_the_name() -> None:
    claims = with_standalone(
        _claims(
            "Northwind Traders reported revenue of $4.8 bn.",
            "Operating margin improved to 14%",
            "The company is headquartered in Rotterdam",
            "It operates in 14 countries",
        )
    )
    assert [c.standalone for c in claims] == [
        None,
        None,
        "Northwind Traders is headquartered in Rotterdam",
        "Northwind Traders operates in 14 countries",
    ]
    assert [c.text for c in claims][2] == "The company is headquartered in Rotterdam"


def test_a_lower_case_clause_keeps_its_case() -> None:
    claims = with_standalone(_claims("The loan carries a fixed rate", "it matures in 2031"))
    assert claims[1].standalone == "the loan matures in 2031"

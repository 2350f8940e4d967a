from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.changes import changed_by


def _changed(text: str) -> list[tuple[str, bool]]:
    read = Parsed.of(text)
    return [(s.text, changed_by(read, s)) for s in read.values if s.figure is not None]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Revenue grew by roughly $510 million.", [("$510 million", True)]),
        ("Orion added 500,000 subscribers.", [("500,000", True)]),
        ("You'd need another seven qualifying years.", [("seven", True)]),
        ("Its deductible is $2,000 lower.", [("$2,000", True)]),
        ("It costs $74 more per month.", [("$74", True)]),
        ("She finished 6 minutes 37 seconds behind the winner.", [("6 minutes 37", True)]),
        # levels, bounds and a comparative said of a noun
        ("Revenue rose from $100m to $110m.", [("$100m", False), ("$110m", False)]),
        ("Employers with 500 employees or more must report.", [("500", False)]),
        ("Smokers were 3 times more likely to smoke again.", [("3", False)]),
        ("Income is taxed at the 45% higher rate.", [("45%", False)]),
    ],
)
def test_a_change_an_increment_or_a_difference_is_no_level(
    text: str, expected: list[tuple[str, bool]]
) -> None:
    assert _changed(text) == expected

"""What a claim's clause and a window's clause share: words, dates, polarity."""

from __future__ import annotations

from workers.stages.align import Parsed
from workers.stages.clauses import negated, restated, same_time

CLAIM = Parsed.of("Revenue rose in 2023.")


def _whole(text: str) -> tuple[Parsed, tuple[int, int]]:
    return Parsed.of(text), (0, len(text))


def test_a_clause_restates_every_content_word_but_the_one_said_otherwise() -> None:
    assert restated(CLAIM, *_whole("In 2023 revenue fell."), at=CLAIM.text.index("rose"))
    assert not restated(CLAIM, *_whole("In 2023 costs fell."), at=CLAIM.text.index("rose"))
    # the word at `at` is the only one left out
    assert not restated(CLAIM, *_whole("In 2023 revenue fell."), at=0)


def test_the_same_time_is_every_year_and_date_the_claim_gives() -> None:
    assert same_time(CLAIM, *_whole("Revenue fell in 2023 and 2024."))
    assert not same_time(CLAIM, *_whole("Revenue fell in 2022."))
    assert same_time(Parsed.of("Revenue rose."), *_whole("Revenue fell in 2022."))


def test_a_negation_is_read_inside_the_span_only() -> None:
    text = "Revenue did not rise. Costs fell."
    read = Parsed.of(text)
    assert negated(read, (0, 21))
    assert not negated(read, (22, len(text)))

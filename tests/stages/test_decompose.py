"""Stage 2, decomposition: the three queries for hand-written claims."""

from __future__ import annotations

import pytest

from workers.messages import Claim, Query, QueryKind
from workers.stages.decompose import decompose, key_slot


def claim(text: str) -> Claim:
    return Claim(id="c0", text=text, start=0, end=len(text), sentence_end=len(text))


def by_kind(queries: tuple[Query, ...]) -> dict[QueryKind, str]:
    return {q.kind: q.text for q in queries}


def test_three_queries_for_a_figure_claim() -> None:
    queries = decompose(claim("Revenue rose 12% in 2023"), question="What was revenue growth?")
    assert [q.kind for q in queries] == [QueryKind.DIRECT, QueryKind.CONTEXT, QueryKind.CONTRADICTION]
    assert by_kind(queries) == {
        QueryKind.DIRECT: "Revenue rose 12% in 2023",
        QueryKind.CONTEXT: "Revenue growth",
        QueryKind.CONTRADICTION: "Revenue rose in 2023",
    }


@pytest.mark.parametrize(
    ("text", "contradiction"),
    [
        ("The company was founded in 1998", "The company was founded"),
        ("Acme reported revenue of $4.2 bn. in 2023", "Acme reported revenue in 2023"),
        ("In 2023, the company had 400 employees", "In 2023, the company had employees"),
        ("The treaty was signed on March 5, 2020 in Zürich", "The treaty was signed in Zürich"),
        ("Vaccines cut hospitalisation by 90 percent", "Vaccines cut hospitalisation"),
        ("The population grew to 1.2 million", "The population grew"),
        ("The Eiffel Tower is located in Paris", "The Eiffel Tower is located"),
        ("Marie Curie discovered radium", "discovered radium"),
        ("Water is not flammable", "Water is flammable"),
        ("Northwind operates in 14 countries", "Northwind operates in countries"),
        ("The dose is approximately 400 mg daily", "The dose is daily"),
        ("Revenue rose by about 12% to $4 bn", "Revenue rose to $4 bn"),
    ],
)
def test_contradiction_query_leaves_the_key_slot_open(text: str, contradiction: str) -> None:
    assert by_kind(decompose(claim(text)))[QueryKind.CONTRADICTION] == contradiction


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("Sales rose 12% to $4.2 bn in 2023", "percentage", "12%"),
        ("Sales reached $4.2 bn in 2023", "amount", "$4.2 bn"),
        ("Sales reached 4.2 billion units in 2023", "figure", "4.2 billion"),
        ("It opened on 5 March 2021", "date", "5 March 2021"),
        ("Take 500 mg twice in 2 days", "measure", "500 mg"),
        ("In 2023 it had 1,200 staff", "number", "1,200"),
        ("COVID-19 spread in 2020", "date", "2020"),
        ("Oslo is the capital of Norway", "entity", "Norway"),
    ],
)
def test_key_slot(text: str, kind: str, value: str) -> None:
    slot = key_slot(text)
    assert slot is not None
    start, end, found = slot
    assert (found, text[start:end]) == (kind, value)


def test_key_slot_absent() -> None:
    assert key_slot("water boils when heated") is None


def test_context_joins_subject_entities_and_question_words() -> None:
    text = "The company was founded in 1998"
    queries = by_kind(decompose(claim(text), question="When was Acme founded?"))
    assert queries[QueryKind.CONTEXT] == "company Acme founded"


def test_context_does_not_repeat_entities() -> None:
    queries = by_kind(decompose(claim("The Eiffel Tower is located in Paris"), question="Where is it?"))
    assert queries[QueryKind.CONTEXT] == "Eiffel Tower Paris"


def test_context_skipped_when_it_equals_direct() -> None:
    queries = decompose(claim("Marie Curie"), question="")
    assert [q.kind for q in queries] == [QueryKind.DIRECT, QueryKind.CONTRADICTION]


@pytest.mark.parametrize(
    "text",
    ["Revenue rose 12% in 2023", "苏黎世是瑞士最大的城市", "Zürich 🇨🇭 has 400,000 people", "1998", "it grew"],
)
def test_always_two_or_three_non_empty_queries(text: str) -> None:
    queries = decompose(claim(text), question="Tell me about Zürich?")
    assert 2 <= len(queries) <= 3
    assert queries[0] == Query(kind=QueryKind.DIRECT, text=text)
    assert queries[-1].kind is QueryKind.CONTRADICTION
    assert all(q.text.strip() for q in queries)
    assert len({q.kind for q in queries}) == len(queries)

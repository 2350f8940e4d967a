"""LLMExtractor over the scripted server: one call, exact offsets, fuzzy location, fallback."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm_server import FakeLLMServer, Scripted, make_client, reply, stage
from workers.backends.llm_extractor import ExtractMode, Item, LLMExtractor, OfflineExtractor, locate_claims
from workers.backends.llm_usage import usage_scope
from workers.backends.prompts import ClaimOut
from workers.messages import Answer, QueryKind

TEXT = (
    "Northwind Traders reported revenue of $4.2 billion in 2023. "
    "We recommend reviewing Section 4. "
    "Its “flagship” store   opened in Utrecht."
)
ANSWER = Answer(id="a1", query="How did Northwind do?", answer=TEXT)


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as s:
        yield s


def extract(
    server: FakeLLMServer, answer: Answer = ANSWER, *, mode: ExtractMode = "extract+decompose"
) -> list[Item]:
    client, _ = make_client(server, max_retries=0)
    extractor = LLMExtractor(
        client=client, stage=stage(model="extractor"), offline=OfflineExtractor(), max_claims=10, mode=mode
    )
    try:
        return extractor.extract(answer)
    finally:
        client.close()


def claim_out(text: str) -> dict[str, object]:
    return {"text": text, "claim_type": "novel", "queries": [{"kind": "DIRECT", "text": f"  {text} "}]}


def test_one_call_gives_claims_with_exact_offsets_and_queries(server: FakeLLMServer) -> None:
    items = extract(server)
    assert len(server.requests) == 1
    assert server.requests[0].payload["answer"] == TEXT
    for claim, queries in items:
        assert TEXT[claim.start : claim.end] == claim.text
        assert {q.kind for q in queries} == {QueryKind.DIRECT, QueryKind.CONTEXT, QueryKind.CONTRADICTION}
    assert [c.id for c, _ in items] == ["c0", "c1", "c2"]
    assert items[0][0].text == "Northwind Traders reported revenue of $4.2 billion in 2023"
    assert items[0][0].sentence_end == TEXT.index(" We")  # the sentence holds its full stop


def test_quotes_are_located_exactly_fuzzily_or_dropped(server: FakeLLMServer) -> None:
    server.script(
        reply(
            {
                "claims": [
                    claim_out('its "flagship" store opened in utrecht'),  # quotes, case, spaces differ
                    claim_out("Northwind Traders reported revenue of $4.2 billion in 2023"),
                    claim_out("Northwind's sales were four billion"),  # a paraphrase: not in the text
                ]
            }
        )
    )
    items = extract(server)
    texts = [c.text for c, _ in items]
    assert texts == [
        "Northwind Traders reported revenue of $4.2 billion in 2023",
        "Its “flagship” store   opened in Utrecht",
    ]
    assert [c.id for c, _ in items] == ["c0", "c1"]  # renumbered in text order
    assert items[1][0].claim_type == "novel"
    assert [q.text for q in items[1][1]] == ['its "flagship" store opened in utrecht']


def test_a_lightly_reworded_sentence_stands_for_itself() -> None:
    located = locate_claims(
        TEXT, [ClaimOut(text="Northwind Traders reported a revenue of $4.2 billion in 2023")]
    )
    assert [c.text for c, _ in located] == ["Northwind Traders reported revenue of $4.2 billion in 2023."]


def test_no_locatable_claim_falls_back_to_the_pure_stages(server: FakeLLMServer) -> None:
    server.script(reply({"claims": [claim_out("Something else entirely happened")]}))
    with usage_scope() as ledger:
        items = extract(server)
    assert items and all(TEXT[c.start : c.end] == c.text for c, _ in items)
    assert "extraction: invalid_output: no extracted claim" in ledger.fallbacks[0]
    assert ledger.stages()["extraction"].calls == 1


def test_invalid_output_twice_falls_back(server: FakeLLMServer) -> None:
    server.script(Scripted(content="{}"), Scripted(content='{"claims": "many"}'))
    with usage_scope() as ledger:
        items = extract(server)
    assert items
    assert len(server.requests) == 2
    assert ledger.fallbacks[0].startswith("extraction: invalid_output")


def test_extract_mode_takes_queries_from_the_pure_stage(server: FakeLLMServer) -> None:
    server.script(
        reply({"claims": [claim_out("Northwind Traders reported revenue of $4.2 billion in 2023")]})
    )
    items = extract(server, mode="extract")
    assert len(items) == 1
    assert items[0][1][0].text != "Northwind Traders reported revenue of $4.2 billion in 2023 "
    assert len(items[0][1]) == 3


def test_decompose_mode_asks_for_all_queries_in_one_call(server: FakeLLMServer) -> None:
    with usage_scope() as ledger:
        items = extract(server, mode="decompose")
    assert len(server.requests) == 1
    sent = server.requests[0].payload
    assert sent["task"] == "decompose_claims"
    assert [c["id"] for c in sent["claims"]] == [c.id for c, _ in items]
    assert all(len(q) == 3 for _, q in items)
    assert "decomposition" in ledger.stages()


def test_empty_answer_makes_no_call(server: FakeLLMServer) -> None:
    assert extract(server, Answer(id="e", query="q", answer="   ")) == []
    assert server.requests == []

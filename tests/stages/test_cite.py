"""Citation parsing and the citation verification tasks (workers/stages/cite.py)."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import ValidationError

from tests.fakes import HashEmbedder, ScriptedChecker
from workers.messages import Answer, CheckedClaim, CitationSpan, ClaimTask, Document, Judgement, Verdict
from workers.settings import CitationSettings, CitationStyle, RetrievalSettings, Settings
from workers.stages.cite import (
    Found,
    citation_tasks,
    cite_id,
    parse_citations,
    parse_cite_id,
    restore_claims,
    split_checked,
)
from workers.stages.decompose import decompose
from workers.stages.extract import extract_claims
from workers.stages.retrieve import build_index, retrieve_many
from workers.stages.verify import verify_many

DOCS = (
    Document(id="ar", text="Northwind reported revenue of $4.2 billion in 2023.", title="Annual Report"),
    Document(id="hr", text="Northwind employs 5,000 people in 14 countries."),
    Document(id="doc-7", text="The CEO of Northwind is Jane Doe."),
)


def _found(text: str, *, docs: tuple[Document, ...] = DOCS, **settings: Any) -> Found:
    cites = settings.pop("citations", ())
    answer = Answer(id="a", query="q", answer=text, documents=docs, citations=cites)
    return parse_citations(answer, settings=CitationSettings(**settings))


def _spans(found: Found) -> list[tuple[str, tuple[str, ...]]]:
    return [(found.text[c.start : c.end], c.cited) for c in found.citations]


def test_all_default_styles_are_recognised() -> None:
    text = (
        "Revenue was $4.2 billion [1]. Staff is 5,000 [2, 3]. The CEO is Jane Doe [doc-7]. "
        "It grew (Source: hr)."
    )
    found = _found(text)
    assert _spans(found) == [
        ("Revenue was $4.2 billion", ("ar",)),
        ("Staff is 5,000", ("hr", "doc-7")),
        ("The CEO is Jane Doe", ("doc-7",)),
        ("It grew", ("hr",)),
    ]
    assert [c.docs for c in found.citations] == [(0,), (1, 2), (2,), (1,)]


def test_masked_text_blanks_markers_and_keeps_offsets() -> None:
    text = "Revenue was $4.2 billion [1] and staff is 5,000 [2, 3]."
    found = _found(text)
    assert len(found.masked) == len(text)
    assert "[" not in found.masked
    claims = extract_claims(found.masked)
    assert claims and all("[" not in c.text and found.masked[c.start : c.end] == c.text for c in claims)


def test_markers_in_quotes_and_code_are_left_alone() -> None:
    text = (
        'The memo says "revenue rose [2]" and the code reads `rows[1]`.\n'
        "```\ny = table[3]\n```\n"
        "Staff is 5,000 [2]."
    )
    found = _found(text)
    assert _spans(found) == [("Staff is 5,000", ("hr",))]
    # Blanked for extraction all the same, so no figure check reads "[2]" as the number 2.
    assert "[" not in found.masked
    assert found.masked.replace(" ", "") == text.replace(" ", "").translate(str.maketrans("", "", "[]123"))


def test_spans_run_from_the_previous_marker_and_trailing_markers_join_their_sentence() -> None:
    found = _found("Revenue was $4.2 billion [1], and staff is 5,000 [2]. The CEO is Jane Doe. [3] [1]")
    assert _spans(found) == [
        ("Revenue was $4.2 billion", ("ar",)),
        ("and staff is 5,000", ("hr",)),
        ("The CEO is Jane Doe.", ("doc-7",)),
        ("The CEO is Jane Doe.", ("ar",)),
    ]


def test_reference_resolution_by_position_id_title_and_range() -> None:
    found = _found("A rose [1-3]. B fell (Sources: Annual Report; hr). C held [doc-2]. D [9].")
    assert [c.docs for c in found.citations] == [(0, 1, 2), (0, 1), (1,), ()]
    assert found.citations[3].cited == ("9",)
    assert not found.citations[3].complete


def test_id_mapping_reads_numbers_as_ids() -> None:
    docs = (Document(id="7", text="x"), Document(id="1", text="y"))
    assert _found("A rose [1].", docs=docs).citations[0].docs == (0,)
    assert _found("A rose [1].", docs=docs, mapping="id").citations[0].docs == (1,)


def test_custom_style_and_invalid_patterns() -> None:
    style = CitationStyle(pattern=r"\{\{(?P<refs>[a-z]+)\}\}", token="{id}")
    found = _found("A rose {{hr}}.", styles={"braces": style})
    assert found.citations[0].cited == ("hr",)
    with pytest.raises(ValidationError):
        CitationStyle(pattern=r"\[(\d+)\]")
    with pytest.raises(ValidationError):
        CitationStyle(pattern=r"\[(?P<refs>")
    assert Settings.load().citations.styles.keys() == {"numeric", "doc", "source"}


def test_markdown_link_is_not_a_citation() -> None:
    assert _found("See [1](https://example.com) for more.").citations == ()


def test_structured_citations_merge_with_inline_ones() -> None:
    text = "Revenue was $4.2 billion [1]. Staff is 5,000."
    found = _found(
        text,
        citations=(
            CitationSpan(start=0, end=24, doc_ids=("ar",)),  # the inline [1] again
            CitationSpan(start=30, end=44, doc_ids=("hr", "nope")),
            CitationSpan(start=40, end=999, doc_ids=("hr",)),  # clamped to the text
        ),
    )
    assert [(c.cited, c.marker is not None) for c in found.citations] == [
        (("ar",), True),
        (("hr", "nope"), False),
        (("hr",), False),
    ]
    assert found.citations[1].docs == (1,)
    assert found.citations[2].end == len(text)


def test_disabled_parses_nothing() -> None:
    found = _found("Revenue was $4.2 billion [1].", enabled=False)
    assert found.citations == ()
    assert found.masked == found.text


def test_cite_ids_round_trip() -> None:
    assert parse_cite_id(cite_id("c3", 2)) == ("c3", 2)
    assert parse_cite_id("c3") is None
    assert parse_cite_id("c3@x") is None


def _claim_tasks(found: Found, embedder: HashEmbedder) -> tuple[ClaimTask, ...]:
    retrieval = RetrievalSettings()
    items = [(c, decompose(c)) for c in extract_claims(found.masked)]
    index = build_index(DOCS, embedder=embedder, settings=retrieval)
    hits = retrieve_many(index, items, embedder=embedder, settings=retrieval)
    return tuple(
        ClaimTask(claim=c, queries=q, candidates=h[0], similarity=h[1], threshold=0.5)
        for (c, q), h in zip(items, hits, strict=True)
    )


def test_citation_tasks_one_per_claim_and_document_restricted_to_it() -> None:
    embedder = HashEmbedder()
    found = _found("Northwind employs 5,000 people [3].")
    tasks = _claim_tasks(found, embedder)
    index = build_index(DOCS, embedder=embedder, settings=RetrievalSettings())
    calls = embedder.calls
    extra = citation_tasks(
        found, tasks, index=index, embedder=embedder, retrieval=RetrievalSettings(),
        settings=CitationSettings(max_repair_docs=1), threshold=0.5,
    )  # fmt: skip
    assert embedder.calls == calls + 1  # every claim and query encoded once for all documents
    by_doc = {key: t for t in extra if (key := parse_cite_id(t.claim.id)) is not None}
    assert len(by_doc) == len(extra)
    assert ("c0", 2) in by_doc  # the cited document
    assert len(by_doc) == 2  # and one other to re-point to
    for (_, doc), task in by_doc.items():
        assert {e.doc_id for e in task.candidates} == {DOCS[doc].id}
        assert task.claim.text == tasks[0].claim.text
        assert task.threshold == 0.5


def test_citation_tasks_judged_in_one_batch_with_the_claims() -> None:
    embedder = HashEmbedder()
    found = _found("Northwind employs 5,000 people [2]. The CEO is Jane Doe [1].")
    tasks = _claim_tasks(found, embedder)
    index = build_index(DOCS, embedder=embedder, settings=RetrievalSettings())
    extra = citation_tasks(
        found, tasks, index=index, embedder=embedder, retrieval=RetrievalSettings(),
        settings=CitationSettings(), threshold=0.5,
    )  # fmt: skip
    checker = ScriptedChecker()
    checked = verify_many([*tasks, *extra], checker=checker)
    assert len(checker.batches) == 1
    claims, cites = split_checked(checked)
    assert [c.claim.id for c in claims] == ["c0", "c1"]
    assert ("c0", 1) in cites and ("c1", 0) in cites


def test_add_missing_asks_for_uncited_claims() -> None:
    embedder = HashEmbedder()
    found = _found("Northwind employs 5,000 people.")
    tasks = _claim_tasks(found, embedder)
    index = build_index(DOCS, embedder=embedder, settings=RetrievalSettings())
    common: dict[str, Any] = {"index": index, "embedder": embedder, "retrieval": RetrievalSettings()}
    assert citation_tasks(found, tasks, settings=CitationSettings(), threshold=0.5, **common) == ()
    extra = citation_tasks(found, tasks, settings=CitationSettings(add_missing=True), threshold=0.5, **common)
    assert extra and all(parse_cite_id(t.claim.id) for t in extra)


def test_uncovered_span_is_checked_as_a_whole() -> None:
    found = _found("See the annual report [1].")
    extra = citation_tasks(
        found, (), index=build_index(DOCS, embedder=HashEmbedder(), settings=RetrievalSettings()),
        embedder=HashEmbedder(), retrieval=RetrievalSettings(), settings=CitationSettings(), threshold=0.4,
    )  # fmt: skip
    assert [(t.claim.id, t.claim.text, t.threshold) for t in extra] == [
        ("s0@0", "See the annual report", 0.4)
    ]


def test_restore_claims_gives_back_markers_inside_a_claim() -> None:
    found = _found("According to the report [1], revenue was $4.2 billion.")
    claim = extract_claims(found.masked)[0]
    checked = CheckedClaim(
        claim=claim, verdict=Verdict.VERIFIED, judgement=Judgement.SUPPORT, similarity=1, reason="r"
    )
    restored = restore_claims(found, [checked])[0].claim
    assert "[1]" in restored.text
    assert found.text[restored.start : restored.end] == restored.text

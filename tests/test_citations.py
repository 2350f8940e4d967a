"""Citation checking and repair end to end, in process, on the real offline backends (MiniLM + rules)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from workers.batch import correct_lines
from workers.messages import (
    Action,
    Answer,
    CitationAction,
    CitationSpan,
    CitationVerdict,
    Corrected,
    Document,
)
from workers.pipeline import Pipeline
from workers.resources import load_schema
from workers.settings import Settings

pytestmark = pytest.mark.slow

DOCS = (
    Document(
        id="ar",
        text=(
            "In fiscal 2023 Northwind Traders reported revenue of $4.2 billion, up from $3.9 billion a year "
            "earlier. Operating margin improved to 14% as logistics costs fell."
        ),
    ),
    Document(
        id="hr",
        text=(
            "Northwind Traders employs 5,000 people and operates in 14 countries. "
            "Its headquarters are in Amsterdam."
        ),
    ),
    Document(id="pr", text="Jane Doe has been the chief executive of Northwind Traders since 2019."),
)


def _run(pipeline: Pipeline, text: str, **extra: Any) -> Corrected:
    answer = Answer(
        id="t", query="How did Northwind do?", answer=text, documents=DOCS, stakes="medium", **extra
    )
    out = pipeline.process(answer)
    for claim in out.claims:
        assert text[claim.start : claim.end] == claim.text
    return out


def test_citation_to_the_wrong_document_is_repointed(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "In fiscal 2023 Northwind Traders reported revenue of $4.2 billion [2].")
    assert out.corrected == "In fiscal 2023 Northwind Traders reported revenue of $4.2 billion [1]."
    (cite,) = out.citations
    assert (cite.verdict, cite.action, cite.repaired_doc_ids) == (
        CitationVerdict.UNSUPPORTED,
        CitationAction.REPOINT,
        ("ar",),
    )


def test_citation_nothing_supports_is_removed_and_the_sentence_flagged(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "Northwind Traders owns a football club in Madrid [1].")
    assert out.corrected == "Northwind Traders owns a football club in Madrid [unverified]."
    (cite,) = out.citations
    assert (cite.action, cite.flagged, cite.repaired_doc_ids) == (CitationAction.REMOVE, True, ())


def test_one_good_one_bad_document_keeps_the_good_one(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "Northwind Traders operates in 14 countries [2, 3].")
    assert out.corrected == "Northwind Traders operates in 14 countries [2]."
    assert out.citations[0].verdict is CitationVerdict.PARTIAL


def test_markers_in_quotes_and_code_are_left_alone(real_pipeline: Pipeline) -> None:
    text = (
        'The report says "revenue rose [2]" and the table is `rows[1]`. '
        "Northwind Traders operates in 14 countries [2]."
    )
    out = _run(real_pipeline, text)
    assert '"revenue rose [2]"' in out.corrected
    assert "`rows[1]`" in out.corrected
    assert len(out.citations) == 1
    assert out.citations[0].action is CitationAction.KEEP


def test_offsets_of_later_corrections_hold_after_marker_rewrites(real_pipeline: Pipeline) -> None:
    text = (
        "Northwind Traders operates in 14 countries [2, 3]. "
        "In fiscal 2023 Northwind Traders reported revenue of $4.8 billion [2]. "
        "Jane Doe has been the chief executive of Northwind Traders since 2019 [1]."
    )
    out = _run(real_pipeline, text)
    assert out.corrected == (
        "Northwind Traders operates in 14 countries [2]. "
        "In fiscal 2023 Northwind Traders reported revenue of $4.2 billion [1]. "
        "Jane Doe has been the chief executive of Northwind Traders since 2019 [3]."
    )
    assert [c.action for c in out.claims] == [Action.KEEP, Action.REPLACE, Action.KEEP]
    assert [c.action for c in out.citations] == [CitationAction.REPOINT] * 3


def test_structured_citations(real_pipeline: Pipeline) -> None:
    text = "Northwind Traders operates in 14 countries. Jane Doe has been the chief executive since 2019."
    spans = (CitationSpan(start=0, end=42, doc_ids=("pr",)), CitationSpan(start=44, end=92, doc_ids=("pr",)))
    out = _run(real_pipeline, text, citations=spans)
    assert out.corrected.startswith("Northwind Traders operates in 14 countries.")
    first = out.citations[0]
    assert (first.action, first.repaired_doc_ids) == (CitationAction.REPOINT, ("hr",))


def test_batch_correct_carries_citations_and_validates(real_pipeline: Pipeline, settings: Settings) -> None:
    import jsonschema

    line = Answer(
        id="b1",
        query="q",
        answer="Northwind Traders operates in 14 countries [3].",
        documents=DOCS,
        stakes="high",
    ).to_json()
    (out,) = correct_lines([line], pipeline=real_pipeline, settings=settings)
    assert isinstance(out, Corrected)
    record = orjson.loads(out.to_json())
    jsonschema.Draft202012Validator(load_schema("corrected.v1")).validate(record)
    assert record["corrected"] == "Northwind Traders operates in 14 countries [2]."
    assert record["citations"][0]["action"] == "REPOINT"

"""The five stages end to end, in process, on the real offline backends (MiniLM + rule checker)."""

from __future__ import annotations

from typing import Any

import pytest

from workers.messages import Action, Answer, Corrected, Document, Route, Verdict
from workers.pipeline import Pipeline

pytestmark = pytest.mark.slow

FIN_DOC = Document(
    id="ar",
    text=(
        "Northwind Traders is headquartered in Amsterdam and operates in 14 countries. "
        "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier. "
        "Operating margin improved to 14% as logistics costs fell."
    ),
)


def _run(pipeline: Pipeline, text: str, *docs: Document, **extra: Any) -> Corrected:
    fields: dict[str, Any] = {"id": "t", "query": "How did Northwind do?", "stakes": "medium"} | extra
    out = pipeline.process(Answer(answer=text, documents=docs, **fields))
    for claim in out.claims:
        assert text[claim.start : claim.end] == claim.text
    return out


def _claim(out: Corrected, needle: str) -> Any:
    return next(c for c in out.claims if needle in c.text)


def test_wrong_figure_is_replaced_in_place(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "In fiscal 2023 Northwind Traders reported revenue of $4.8 bn.", FIN_DOC)
    claim = _claim(out, "4.8")
    assert claim.verdict is Verdict.CONTRADICTED
    assert claim.action is Action.REPLACE
    assert "4.2" in out.corrected
    assert "4.8" not in out.corrected
    assert out.corrected.startswith("In fiscal 2023 Northwind Traders reported revenue of $4.2")
    assert claim.evidence and claim.evidence[0].doc_id == "ar"


def test_wrong_entity_is_replaced(real_pipeline: Pipeline) -> None:
    doc = Document(id="k", text="The Oberoi Group is a hotel company with its head office in Delhi.")
    out = _run(real_pipeline, "The Oberoi Group is a hotel company with its head office in Mumbai.", doc)
    claim = _claim(out, "Mumbai")
    assert claim.verdict is Verdict.CONTRADICTED
    assert claim.action is Action.REPLACE
    assert out.corrected == "The Oberoi Group is a hotel company with its head office in Delhi."


def test_claim_absent_from_documents_is_flagged(real_pipeline: Pipeline) -> None:
    text = "Northwind Traders operates in 14 countries. The company also owns a football club in Madrid."
    out = _run(real_pipeline, text, FIN_DOC)
    claim = _claim(out, "football")
    assert claim.verdict is Verdict.UNVERIFIED
    assert claim.action is Action.FLAG
    assert "[unverified]" in out.corrected
    assert out.corrected.startswith("Northwind Traders operates in 14 countries.")


def test_supported_claims_stay_byte_identical(real_pipeline: Pipeline) -> None:
    text = "In fiscal 2023 the company reported revenue of $4.2 billion. Operating margin improved to 14%."
    out = _run(real_pipeline, text, FIN_DOC)
    assert out.corrected == text
    assert out.claims
    assert all(c.verdict is Verdict.VERIFIED and c.action is Action.KEEP for c in out.claims)


def test_procedural_sentences_are_not_claims(real_pipeline: Pipeline) -> None:
    text = "Operating margin improved to 14%. We recommend reviewing Section 4 of the report."
    out = _run(real_pipeline, text, FIN_DOC)
    assert len(out.claims) == 1
    assert "Section 4" not in out.claims[0].text
    assert out.corrected == text


def test_several_corrections_keep_offsets(real_pipeline: Pipeline) -> None:
    text = (
        "Northwind Traders is headquartered in Rotterdam. "
        "Operating margin improved to 14%. "
        "In fiscal 2023 the company reported revenue of $4.8 billion."
    )
    out = _run(real_pipeline, text, FIN_DOC)
    assert "Amsterdam" in out.corrected
    assert "Rotterdam" not in out.corrected
    assert "$4.2 billion" in out.corrected
    assert "Operating margin improved to 14%." in out.corrected
    assert [c.action for c in out.claims].count(Action.REPLACE) == 2


def test_empty_answer(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "", FIN_DOC)
    assert out.corrected == ""
    assert out.claims == ()


def test_no_documents_all_unverified(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "Revenue was $4.2 billion in 2023. The CEO is Jane Doe.")
    assert out.claims
    assert all(c.verdict is Verdict.UNVERIFIED for c in out.claims)


def test_unicode(real_pipeline: Pipeline) -> None:
    doc = Document(
        id="z", text="Der Hauptsitz von Müller AG ist in Zürich. Das Unternehmen hat 1200 Mitarbeiter ☃."
    )
    text = "☃ Müller AG hat 1500 Mitarbeiter. Der Hauptsitz von Müller AG ist in Zürich."
    out = _run(real_pipeline, text, doc)
    assert "1200" in out.corrected
    assert out.corrected.endswith("Der Hauptsitz von Müller AG ist in Zürich.")


def test_evidence_at_the_end_of_a_long_document_is_found(real_pipeline: Pipeline) -> None:
    filler = " ".join(
        f"Paragraph {i} discusses unrelated weather patterns over the northern sea." for i in range(200)
    )
    doc = Document(id="long", text=filler + " The Kestrel bridge was opened to traffic in 1987.")
    assert len(doc.text) > 10_000  # MiniLM reads 256 word pieces (~1,000 characters) at most
    out = _run(real_pipeline, "The Kestrel bridge was opened to traffic in 1987.", doc)
    claim = out.claims[0]
    assert claim.verdict is Verdict.VERIFIED
    assert claim.evidence[0].start > 10_000
    assert doc.text[claim.evidence[0].start : claim.evidence[0].end] == claim.evidence[0].text


def test_fast_path_leaves_answer_unchanged(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "Hello! How can I help you today?", stakes="low", query="hi")
    assert out.route is Route.FAST_PATH
    assert out.corrected == out.original
    assert out.claims == ()


def test_stage_timings_recorded(real_pipeline: Pipeline) -> None:
    out = _run(real_pipeline, "Operating margin improved to 14%.", FIN_DOC)
    assert {"route", "extract", "decompose", "retrieve", "verify", "correct"} <= set(out.stats.stage_ms)


def test_several_answers_verified_in_one_call_get_what_each_would_alone(real_pipeline: Pipeline) -> None:
    texts = [
        "Northwind reported revenue of $4.8 billion in fiscal 2023. It is headquartered in Amsterdam.",
        "Operating margin improved to 14%. Northwind operates in 41 countries.",
        "Northwind is headquartered in Rotterdam.",
    ]
    plans = [
        real_pipeline.prepare(
            Answer(id=f"v{i}", query="How did Northwind do?", answer=t, documents=(FIN_DOC,))
        )
        for i, t in enumerate(texts)
    ]
    alone = [real_pipeline.verify(p.tasks) for p in plans]
    together = real_pipeline.verify_each([(p.tasks, 0.0) for p in plans])
    assert [c.claims for c in together] == [c.claims for c in alone]
    assert [len(c.claims) for c in together] == [len(p.tasks) for p in plans] and len(plans[0].tasks) == 2
    # The shared call's time is shared out by claim count; each answer's ledger has a part of it.
    shares = [c.ledger.stage_ms["verify"] for c in together]
    assert all(s > 0 for s in shares) and shares[0] == pytest.approx(2 * shares[2], rel=0.01, abs=0.002)
    # Verdict cache hits stay with the answer that had them: the third group repeats the second's claim
    # (judged once in the shared call, a hit for the repeat), and the rest were judged.
    fresh = Answer(id="f", query="q", answer="Northwind has 9,137 employees in Oslo.", documents=(FIN_DOC,))
    again = real_pipeline.prepare(fresh).tasks
    shared = real_pipeline.verify_each([(plans[2].tasks, 0.0), (again, 0.0), (again, 0.0)])
    assert [c.ledger.cache_hits.get("verdict") for c in shared] == [1, 0, 1]

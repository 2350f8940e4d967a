"""Citation verdicts and repairs, and how marker rewrites compose with claim corrections.

The pipeline runs its real pure stages on fakes: `HashEmbedder` and a `ScriptedChecker` whose script is
keyed by claim id, `c0` for a claim and `c0@1` for that claim judged against document index 1 alone.
The two-tier threshold is 0, so the script alone decides each verdict.
"""

from __future__ import annotations

from typing import Any

from tests.fakes import HashEmbedder, ScriptedChecker
from workers.agents.records import ClaimMessage
from workers.backends.cache import LruCache
from workers.messages import (
    Action,
    Answer,
    CitationAction,
    CitationSpan,
    CitationVerdict,
    ClaimTask,
    Corrected,
    Document,
    Evidence,
    Judgement,
    Plan,
    SlotFix,
)
from workers.pipeline import Pipeline, unverified_for_missing
from workers.protocols import CheckResult
from workers.settings import CitationSettings, Settings
from workers.stages.cite import parse_citations
from workers.stages.cite_repair import Edit, apply_edits, plan_repair, shift_offset
from workers.stages.extract import extract_claims

DOCS = (
    Document(id="ar", text="Northwind reported revenue of $4.2 billion in 2023."),
    Document(id="hr", text="Northwind employs 5,000 people in 14 countries."),
    Document(id="pr", text="The CEO of Northwind is Jane Doe."),
)
YES = CheckResult(Judgement.SUPPORT, "scripted support")
NO = CheckResult(Judgement.NEUTRAL, "scripted neutral")


def _contradiction(claim_text: str, wrong: str, right: str) -> CheckResult:
    at = claim_text.index(wrong)
    fix = SlotFix(start=at, end=at + len(wrong), wrong=wrong, right=right, evidence_doc_id="ar")
    evidence = Evidence(doc_id="ar", start=0, end=len(DOCS[0].text), text=DOCS[0].text)
    return CheckResult(Judgement.CONTRADICT, "figure differs", evidence=evidence, fixes=(fix,))


def _run(text: str, script: dict[str, CheckResult], *, citations: Any = (), **cite: Any) -> Corrected:
    settings = Settings.load(
        routing={"enabled": False}, thresholds={"default": 0.0, "by_claim_type": {}}, citations=cite
    )
    pipeline = Pipeline(settings=settings, embedder=HashEmbedder(), checker=ScriptedChecker(script))
    out = pipeline.process(Answer(id="t", query="q", answer=text, documents=DOCS, citations=citations))
    for claim in out.claims:
        assert text[claim.start : claim.end] == claim.text
    return out


def test_citation_to_the_wrong_document_is_repointed() -> None:
    out = _run("Northwind reported revenue of $4.2 billion in 2023 [2].", {"c0": YES, "c0@0": YES})
    assert out.corrected == "Northwind reported revenue of $4.2 billion in 2023 [1]."
    (cite,) = out.citations
    assert (cite.verdict, cite.action) == (CitationVerdict.UNSUPPORTED, CitationAction.REPOINT)
    assert (cite.doc_ids, cite.supporting_doc_ids, cite.repaired_doc_ids) == (("hr",), ("ar",), ("ar",))
    assert (cite.marker, cite.replacement) == ("[2]", "[1]")


def test_citation_no_document_supports_is_removed_and_the_sentence_flagged() -> None:
    # The claim itself is unverified: correction flags the sentence, the marker just goes.
    out = _run(
        "Northwind owns a football club in Madrid [3]. The CEO is Jane Doe [3].", {"c1": YES, "c1@2": YES}
    )
    assert out.corrected == "Northwind owns a football club in Madrid [unverified]. The CEO is Jane Doe [3]."
    first, second = out.citations
    assert (first.verdict, first.action, first.flagged) == (
        CitationVerdict.UNSUPPORTED,
        CitationAction.REMOVE,
        True,
    )
    assert first.repaired_doc_ids == ()
    assert (second.verdict, second.action) == (CitationVerdict.SUPPORTED, CitationAction.KEEP)


def test_removed_citation_of_a_kept_claim_flags_in_place_of_the_marker() -> None:
    out = _run("Northwind owns a football club in Madrid [3].", {"c0": YES})
    assert out.claims[0].action is Action.KEEP
    assert out.corrected == "Northwind owns a football club in Madrid [citation needed]."
    assert out.citations[0].replacement == "[citation needed]"


def test_one_good_one_bad_document_keeps_the_good_one() -> None:
    out = _run("Northwind employs 5,000 people [2, 3].", {"c0": YES, "c0@1": YES, "c0@2": NO})
    assert out.corrected == "Northwind employs 5,000 people [2]."
    (cite,) = out.citations
    assert (cite.verdict, cite.action) == (CitationVerdict.PARTIAL, CitationAction.REPOINT)
    assert cite.repaired_doc_ids == ("hr",)


def test_two_documents_each_supporting_one_claim_are_both_kept() -> None:
    text = "Northwind employs 5,000 people and its CEO is Jane Doe [2, 3]."
    script = {"c0": YES, "c1": YES, "c0@1": YES, "c1@2": YES}
    out = _run(text, script)
    assert out.corrected == text
    assert out.citations[0].verdict is CitationVerdict.SUPPORTED


def test_markers_in_quotes_and_code_are_left_alone() -> None:
    text = 'The memo says "revenue rose [2]" and the query is `rows[1]`.\n```\ny = table[3]\n```\n'
    out = _run(text, {})
    assert out.citations == ()
    assert (
        '"revenue rose [2]"' in out.corrected and "`rows[1]`" in out.corrected and "table[3]" in out.corrected
    )


def test_offsets_of_later_corrections_hold_after_marker_rewrites() -> None:
    claim = "Revenue was $4.8 billion in 2023"
    text = f"Northwind employs 5,000 people [2, 3]. {claim} [2]. The CEO is Jane Doe [1]."
    wrong = _contradiction(claim, "4.8", "4.2")
    script = {"c0": YES, "c0@1": YES, "c1": wrong, "c1@0": wrong, "c2": YES, "c2@2": YES}
    out = _run(text, script)
    assert out.corrected == (
        "Northwind employs 5,000 people [2]. Revenue was $4.2 billion in 2023 [1]. The CEO is Jane Doe [3]."
    )
    replaced = next(c for c in out.claims if c.action is Action.REPLACE)
    assert (replaced.text, replaced.replacement) == (claim, "Revenue was $4.2 billion in 2023")
    assert [c.action for c in out.citations] == [CitationAction.REPOINT] * 3


def test_marker_inside_a_claim_is_rewritten_and_the_fix_still_lands() -> None:
    text = "According to the annual report [2, 3], revenue was $4.8 billion in 2023."
    masked_claim = extract_claims(
        parse_citations(Answer(id="t", query="", answer=text), settings=CitationSettings()).masked
    )
    wrong = _contradiction(masked_claim[0].text, "4.8", "4.2")
    out = _run(text, {"c0": wrong, "c0@0": wrong})
    assert out.corrected == "According to the annual report [1], revenue was $4.2 billion in 2023."
    assert out.claims[0].text == text[: text.index(" 2023") + 5]


def test_citation_of_a_removed_clause_goes_with_it() -> None:
    text = "Northwind employs 5,000 people [2], and it owns 40 ships [3]."
    out = _run(text, {"c0": YES, "c0@1": YES, "c1": CheckResult(Judgement.CONTRADICT, "no ships")})
    assert out.corrected == "Northwind employs 5,000 people [2]."
    assert out.citations[1].action is CitationAction.REMOVE and not out.citations[1].flagged


def test_other_marker_styles_are_kept() -> None:
    docs_style = _run("The CEO is Jane Doe [doc-1].", {"c0": YES, "c0@2": YES})
    assert docs_style.corrected == "The CEO is Jane Doe [doc-3]."
    source = _run("The CEO is Jane Doe (Source: ar).", {"c0": YES, "c0@2": YES})
    assert source.corrected == "The CEO is Jane Doe (Source: pr)."


def test_duplicate_citation_of_a_span_is_dropped_not_repointed() -> None:
    out = _run("The CEO is Jane Doe [3][1].", {"c0": YES, "c0@2": YES})
    assert out.corrected == "The CEO is Jane Doe [3]."
    assert [c.action for c in out.citations] == [CitationAction.KEEP, CitationAction.REMOVE]
    assert not out.citations[1].flagged


def test_structured_citations_are_checked_and_repaired() -> None:
    text = "Northwind employs 5,000 people. The CEO is Jane Doe. Northwind owns a football club."
    spans = (
        CitationSpan(start=0, end=30, doc_ids=("pr",)),
        CitationSpan(start=32, end=51, doc_ids=("pr",)),
        CitationSpan(start=53, end=84, doc_ids=("ar",)),
    )
    out = _run(text, {"c0": YES, "c0@1": YES, "c1": YES, "c1@2": YES, "c2": YES}, citations=spans)
    assert out.corrected == text[:-1] + " [citation needed]."
    assert [(c.action, c.repaired_doc_ids) for c in out.citations] == [
        (CitationAction.REPOINT, ("hr",)),
        (CitationAction.KEEP, ("pr",)),
        (CitationAction.REMOVE, ()),
    ]
    assert out.citations[2].marker is None and out.citations[2].flagged


def test_missing_citation_is_added_when_asked() -> None:
    text = "Northwind employs 5,000 people. The CEO is Jane Doe [3]."
    script = {"c0": YES, "c0@1": YES, "c1": YES, "c1@2": YES}
    assert _run(text, script).corrected == text
    out = _run(text, script, add_missing=True)
    assert out.corrected == "Northwind employs 5,000 people [2]. The CEO is Jane Doe [3]."
    assert out.citations[0].action is CitationAction.ADD
    assert out.citations[0].repaired_doc_ids == ("hr",)


def test_missing_verdicts_leave_the_citation_alone() -> None:
    text = "Northwind employs 5,000 people [3]."
    found = parse_citations(
        Answer(id="t", query="", answer=text, documents=DOCS), settings=CitationSettings()
    )
    claim = extract_claims(found.masked)[0]
    checked = unverified_for_missing(ClaimTask(claim=claim), reason="deadline")
    cite = unverified_for_missing(ClaimTask(claim=claim.model_copy(update={"id": "c0@2"})), reason="deadline")
    repair = plan_repair(found, [checked], {("c0", 2): cite}, [], settings=CitationSettings())
    assert repair.text == text
    assert repair.citations[0].action is CitationAction.KEEP
    assert repair.citations[0].reason.startswith("not checked")


def test_answer_without_documents_keeps_its_markers() -> None:
    found = parse_citations(Answer(id="t", query="", answer="Revenue rose [1]."), settings=CitationSettings())
    repair = plan_repair(found, [], {}, [], settings=CitationSettings())
    assert repair.text == found.text
    assert repair.citations[0].action is CitationAction.KEEP


def test_shift_offset_and_apply_edits() -> None:
    text = "ab [12] cd"
    edits = [Edit(2, 7, ""), Edit(10, 10, "!")]
    assert apply_edits(text, edits) == "ab cd!"
    assert shift_offset(8, edits, right=True) == 3
    assert shift_offset(10, edits, right=False) == 5
    assert shift_offset(10, edits, right=True) == 6
    assert shift_offset(4, edits, right=False) == 2


def _phases(plan_for_finish: Any) -> Corrected:
    """prepare / verify / finish as the agents run them: plan and tasks through JSON, two replicas."""
    text = "Northwind reported revenue of $4.2 billion in 2023 [2]."
    settings = Settings.load(routing={"enabled": False}, thresholds={"default": 0.0, "by_claim_type": {}})
    pipeline = Pipeline(
        settings=settings, embedder=HashEmbedder(), checker=ScriptedChecker({"c0": YES, "c0@0": YES})
    )
    answer = Answer(id="t", query="q", answer=text, documents=DOCS)
    plan = pipeline.prepare(answer)
    wire = [ClaimMessage(answer_id="t", expected=len(plan.tasks), tasks=(t,)).to_json() for t in plan.tasks]
    tasks = [t for raw in wire for t in ClaimMessage.from_json(raw).tasks]
    checked = [pipeline.verify(tasks[::2]), pipeline.verify(tasks[1::2])]
    sent = Plan.from_json(plan_for_finish(pipeline, plan).to_json())
    return pipeline.finish(sent, checked)


def test_phases_split_across_agents_carry_citations_as_tasks() -> None:
    out = _phases(lambda _pipeline, plan: plan)
    assert out.corrected == "Northwind reported revenue of $4.2 billion in 2023 [1]."
    assert not out.needs_review


def test_a_plan_sent_by_reference_still_checks_its_citations() -> None:
    out = _phases(lambda pipeline, plan: pipeline.by_reference(plan))
    assert out.corrected == "Northwind reported revenue of $4.2 billion in 2023 [1]."
    assert not out.needs_review and out.stats.fallback is None


def test_a_lost_reference_is_held_for_review_never_passed_as_checked() -> None:
    def lose(pipeline: Pipeline, plan: Plan) -> Plan:
        slim = pipeline.by_reference(plan)
        pipeline.documents.cache.close()
        pipeline.documents.cache = LruCache()  # the reference expired: nothing under its key
        return slim

    out = _phases(lose)
    assert out.needs_review
    assert "documents sent by reference could not be resolved" in out.review_reasons
    assert out.stats.fallback is not None and "documents" in out.stats.fallback
    # The citation was still checked from the plan's own parse: the fix is there, for the reviewer.
    assert out.citations[0].action is not CitationAction.KEEP


def test_checks_over_the_cap_leave_the_citation_alone() -> None:
    text = "Northwind employs 5,000 people [2, 3]."
    out = _run(text, {"c0": YES, "c0@1": YES, "c0@2": NO}, max_checks=1)
    assert out.corrected == text
    assert out.citations[0].action is CitationAction.KEEP

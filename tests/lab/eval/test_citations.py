"""Citation precision and recall before and after repair (lab/eval/citations.py)."""

from __future__ import annotations

from lab.eval.citations import CitationCounts, citation_counts, citation_metrics
from workers.messages import (
    Action,
    CitationAction,
    CitationResult,
    CitationVerdict,
    ClaimResult,
    Corrected,
    Judgement,
    Route,
    Verdict,
)

TEXT = "Revenue was $4.2 billion [2, 3]. Staff is 5,000 [1]. The CEO is Jane Doe."


def _claim(cid: str, needle: str, verdict: Verdict = Verdict.VERIFIED) -> ClaimResult:
    start = TEXT.index(needle)
    return ClaimResult(
        id=cid, text=needle, start=start, end=start + len(needle), verdict=verdict,
        judgement=Judgement.SUPPORT, similarity=1.0, reason="r", action=Action.KEEP,
    )  # fmt: skip


def _cite(needle: str, cited: tuple[str, ...], supporting: tuple[str, ...]) -> CitationResult:
    start = TEXT.index(needle)
    return CitationResult(
        start=start, end=start + len(needle), doc_ids=cited, verdict=CitationVerdict.PARTIAL,
        supporting_doc_ids=supporting, action=CitationAction.REPOINT, repaired_doc_ids=supporting,
    )  # fmt: skip


def _record(*cites: CitationResult, text: str = TEXT) -> Corrected:
    claims = (
        _claim("c0", "Revenue was $4.2 billion"),
        _claim("c1", "Staff is 5,000"),
        _claim("c2", "The CEO is Jane Doe"),
    )
    return Corrected(id="a", original=text, corrected=text, route=Route.FULL, claims=claims, citations=cites)


def test_counts_per_cited_document_and_per_supported_sentence() -> None:
    record = _record(
        _cite("Revenue was $4.2 billion", ("d1", "d2"), ("d1",)),
        _cite("Staff is 5,000", ("d3",), ("d4",)),
    )
    counts = citation_counts(record)
    assert counts == CitationCounts(cited=3, cited_ok=1, supported_sentences=3, supported_cited=1)
    assert counts.precision == 1 / 3
    assert counts.recall == 1 / 3


def test_unsupported_sentences_do_not_count_for_recall() -> None:
    record = _record()
    claims = (_claim("c0", "Revenue was $4.2 billion", Verdict.UNVERIFIED), *record.claims[1:])
    record = record.model_copy(update={"claims": claims})
    assert citation_counts(record).supported_sentences == 2


def test_metrics_before_and_after_and_empty_populations() -> None:
    before = _record(_cite("Staff is 5,000", ("d3",), ("d4",)))
    after = _record(_cite("Staff is 5,000", ("d4",), ("d4",)))
    report = citation_metrics([(before, after), (None, None)])
    assert report["citation_precision_before"] == 0.0
    assert report["citation_precision_after"] == 1.0
    assert report["citation_recall_after"] == 1 / 3
    assert report["citation_actions"] == {"REPOINT": 1}
    empty = citation_metrics([])
    assert empty["citation_precision_before"] is None
    assert empty["citation_recall_after"] is None

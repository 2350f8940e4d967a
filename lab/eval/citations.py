"""Citation precision and recall of corrected records, before and after repair. Pure.

- citation precision: of the (citation, cited document) pairs, the share whose document supports the span
  the citation is attached to (`CitationResult.supporting_doc_ids`, the verification stage's verdicts);
- citation recall: of the supported factual sentences (at least one claim, every claim VERIFIED), the share
  that carry a correct citation (one overlapping the sentence with a supporting cited document).

"Before" reads the record of the original answer. "After" reads the record that describes the corrected
text: the same record when nothing changed, else the harness's second pass over the corrected answer, so
the repair is judged afresh rather than by its own say-so. Shares of an empty population are None.

Usage::

    counts = citation_counts(record)                       # one record, as written
    report = citation_metrics([(first_pass, recheck), ...])
    report["citation_precision_before"], report["citation_recall_after"]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from workers.messages import CitationResult, ClaimResult, Corrected, Verdict
from workers.stages.extract import split_sentences

__all__ = ["CitationCounts", "citation_counts", "citation_metrics"]


@dataclass(frozen=True, slots=True)
class CitationCounts:
    cited: int = 0
    cited_ok: int = 0
    supported_sentences: int = 0
    supported_cited: int = 0

    def __add__(self, other: CitationCounts) -> CitationCounts:
        return CitationCounts(
            self.cited + other.cited,
            self.cited_ok + other.cited_ok,
            self.supported_sentences + other.supported_sentences,
            self.supported_cited + other.supported_cited,
        )

    @property
    def precision(self) -> float | None:
        return self.cited_ok / self.cited if self.cited else None

    @property
    def recall(self) -> float | None:
        return self.supported_cited / self.supported_sentences if self.supported_sentences else None


def citation_counts(record: Corrected) -> CitationCounts:
    """Precision and recall counts of the citations of `record.original`, as written."""
    cites = [c for c in record.citations if c.doc_ids]
    pairs = [(c, d) for c in cites for d in dict.fromkeys(c.doc_ids)]
    sentences = _supported_sentences(record.original, record.claims)
    carried = [s for s in sentences if any(_correct(c) and _overlaps(c, s) for c in cites)]
    return CitationCounts(
        len(pairs), sum(d in c.supporting_doc_ids for c, d in pairs), len(sentences), len(carried)
    )


def _supported_sentences(text: str, claims: Sequence[ClaimResult]) -> list[tuple[int, int]]:
    out = []
    for start, end in split_sentences(text):
        inside = [c for c in claims if start <= c.start < end]
        if inside and all(c.verdict is Verdict.VERIFIED for c in inside):
            out.append((start, end))
    return out


def _correct(cite: CitationResult) -> bool:
    return bool(set(cite.doc_ids) & set(cite.supporting_doc_ids))


def _overlaps(cite: CitationResult, sentence: tuple[int, int]) -> bool:
    return cite.start < sentence[1] and sentence[0] < cite.end


def citation_metrics(pairs: Iterable[tuple[Corrected | None, Corrected | None]]) -> dict[str, Any]:
    """Report keys for (first pass, record of the corrected text) pairs; None where a pass is missing."""
    before, after = CitationCounts(), CitationCounts()
    verdicts: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    for first, final in pairs:
        if first is not None:
            before += citation_counts(first)
            verdicts.update(c.verdict.value for c in first.citations if c.doc_ids)
            actions.update(c.action.value for c in first.citations)
        if final is not None:
            after += citation_counts(final)
    return {
        "citation_precision_before": before.precision,
        "citation_precision_after": after.precision,
        "citation_recall_before": before.recall,
        "citation_recall_after": after.recall,
        "cited_documents_before": before.cited,
        "cited_documents_after": after.cited,
        "supported_sentences_before": before.supported_sentences,
        "supported_sentences_after": after.supported_sentences,
        "citation_verdicts": dict(sorted(verdicts.items())),
        "citation_actions": dict(sorted(actions.items())),
    }

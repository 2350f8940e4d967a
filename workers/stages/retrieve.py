"""Stage 3, evidence retrieval: hybrid BM25 + dense over sentence windows of the answer's documents.

Pure apart from the embedder it is given. Long documents are windowed end to end, never truncated;
each window is embedded once per answer.

Usage::

    index = build_index(answer.documents, embedder=embedder, settings=settings.retrieval)
    hits = retrieve_many(index, [(claim, queries)], embedder=embedder, settings=settings.retrieval)
    candidates, similarity = hits[0]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from workers.messages import Claim, Document, Evidence, Query
from workers.protocols import Embedder, Vectors
from workers.settings import RetrievalSettings

__all__ = ["EvidenceIndex", "Window", "build_index", "make_windows", "retrieve_many"]


@dataclass(frozen=True, slots=True)
class Window:
    """One to `max_sentences` consecutive sentences of one document; `doc.text[start:end] == text`."""

    doc_id: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class EvidenceIndex:
    windows: tuple[Window, ...]
    vectors: Vectors


def make_windows(documents: Sequence[Document], *, max_sentences: int = 3) -> list[Window]:
    raise NotImplementedError


def build_index(documents: Sequence[Document], *, embedder: Embedder, settings: RetrievalSettings) -> EvidenceIndex:
    raise NotImplementedError


def retrieve_many(
    index: EvidenceIndex,
    items: Sequence[tuple[Claim, Sequence[Query]]],
    *,
    embedder: Embedder,
    settings: RetrievalSettings,
) -> list[tuple[tuple[Evidence, ...], float]]:
    """Per claim: top-k candidate windows (best first, `score` = hybrid score) and the tier-1 similarity
    (cosine of the claim with its best window). One `embedder.encode` call for all claims and queries."""
    raise NotImplementedError

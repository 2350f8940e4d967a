"""Stage 3, evidence retrieval: hybrid BM25 + dense over sentence windows of the answer's documents.

Pure apart from the embedder it is given. Long documents are windowed end to end, never truncated.
Each sentence is embedded once per answer; a window of several sentences is the normalised mean of
its sentences' vectors (a sentence would otherwise go through the model up to three times).
Candidates are windows of whole sentences; the tier-1 similarity also looks at the sentences'
clauses, since claims are often one clause long. A claim is searched for and compared in its
standalone form (`Claim.standalone`) when extraction gave it one.

Usage::

    index = build_index(answer.documents, embedder=embedder, settings=settings.retrieval)
    hits = retrieve_many(index, [(claim, queries)], embedder=embedder, settings=settings.retrieval)
    candidates, similarity = hits[0]
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from workers.messages import Claim, Document, Evidence, Query
from workers.protocols import Embedder, Vectors
from workers.settings import RetrievalSettings
from workers.stages.extract import split_sentences
from workers.stages.slots import content_terms

__all__ = [
    "Bm25",
    "EvidenceIndex",
    "Window",
    "build_index",
    "make_windows",
    "query_texts",
    "retrieve_many",
    "window_vectors",
]

# A window the embedder can read whole (MiniLM reads 256 word pieces, about 1000 characters).
MAX_WINDOW_CHARS = 1000
# Shorter clauses ("in 2023") say too little to be compared with a claim.
MIN_PROBE_CHARS = 15
_CLAUSE_BREAK = re.compile(
    r"[,;:]\s+|\s+(?:as|while|whereas|but|although|though|because|and|which|after|before|when)\s+"
)

Floats = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class Window:
    """One to `max_sentences` consecutive sentences of one document; `doc.text[start:end] == text`."""

    doc_id: str
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Bm25:
    """Okapi BM25 over a fixed list of texts, on the stemmed content words of `content_terms`."""

    postings: dict[str, tuple[npt.NDArray[np.intp], Floats]]
    idf: dict[str, float]
    norms: Floats  # k1 * (1 - b + b * length / average length), per text
    k1: float = 1.5

    @classmethod
    def build(cls, texts: Sequence[str], *, k1: float = 1.5, b: float = 0.75) -> Bm25:
        bags = [Counter(t.stem for t in content_terms(text)) for text in texts]
        lengths = np.array([sum(bag.values()) for bag in bags], dtype=np.float64)
        average = float(lengths.mean()) if len(bags) and lengths.mean() > 0 else 1.0
        rows: dict[str, list[tuple[int, int]]] = {}
        for i, bag in enumerate(bags):
            for term, tf in bag.items():
                rows.setdefault(term, []).append((i, tf))
        postings = {
            t: (np.array([i for i, _ in r], dtype=np.intp), np.array([f for _, f in r], float))
            for t, r in rows.items()
        }
        idf = {t: math.log(1.0 + (len(bags) - len(r) + 0.5) / (len(r) + 0.5)) for t, r in rows.items()}
        return cls(postings, idf, k1 * (1.0 - b + b * lengths / average), k1)

    def scores(self, query: str) -> Floats:
        """One score per text; zero where no query term occurs."""
        out = np.zeros(len(self.norms), dtype=np.float64)
        for term in {t.stem for t in content_terms(query)}:
            if term in self.postings:
                rows, tf = self.postings[term]
                out[rows] += self.idf[term] * tf * (self.k1 + 1.0) / (tf + self.norms[rows])
        return out


@dataclass(frozen=True)
class EvidenceIndex:
    windows: tuple[Window, ...]
    vectors: Vectors
    # Clauses of the documents' sentences, for tier-1 similarity only (see `clause_probes`).
    probes: Vectors = field(default_factory=lambda: np.zeros((0, 0), dtype=np.float32))
    # The vectors of the texts embedded for the index (sentences, clauses), by text: a claim or query
    # that is one of them is not embedded again.
    embedded: dict[str, Vectors] = field(default_factory=dict, repr=False, compare=False)
    bm25: Bm25 = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "bm25", Bm25.build([w.text for w in self.windows]))


def make_windows(
    documents: Sequence[Document], *, max_sentences: int = 3, max_chars: int = MAX_WINDOW_CHARS
) -> list[Window]:
    """Every run of 1..max_sentences consecutive sentences of each document, in document order.

    A run longer than `max_chars` is kept only as its single sentences; a sentence longer than that is
    cut at spaces, so the whole of every document is in some window and every window can be read whole.
    """
    return [w for w, _ in _runs(documents, max_sentences=max_sentences, max_chars=max_chars)[0]]


def _runs(
    documents: Sequence[Document], *, max_sentences: int, max_chars: int = MAX_WINDOW_CHARS
) -> tuple[list[tuple[Window, range]], list[str]]:
    """The windows, each with the rows of its sentences in the second list: the sentences (pieces) of
    every document, in order, that the windows are made of."""
    runs: list[tuple[Window, range]] = []
    pieces: list[str] = []
    for doc in documents:
        spans = _pieces(doc.text, _sentences(doc.text), max_chars=max_chars)
        runs += [
            (w, range(len(pieces) + r.start, len(pieces) + r.stop))
            for w, r in _windows(doc, spans, max_sentences, max_chars)
        ]
        pieces += [doc.text[s:e] for s, e in spans]
    return runs, pieces


def _windows(
    doc: Document, pieces: Sequence[tuple[int, int]], max_sentences: int, max_chars: int
) -> list[tuple[Window, range]]:
    windows: list[tuple[Window, range]] = []
    for i in range(len(pieces)):
        for last in range(i, min(i + max_sentences, len(pieces))):
            start, end = pieces[i][0], pieces[last][1]
            if last > i and end - start > max_chars:
                break
            windows.append((Window(doc.id, start, end, doc.text[start:end]), range(i, last + 1)))
    return windows


def clause_probes(documents: Sequence[Document]) -> list[str]:
    """The clauses of every sentence that has more than one ("Margin improved to 14%" of "Margin improved
    to 14% as costs fell."): what a claim extracted as one clause is compared with in tier 1."""
    probes: list[str] = []
    for doc in documents:
        for start, end in _sentences(doc.text):
            parts = [p.strip(" .!?") for p in _CLAUSE_BREAK.split(doc.text[start:end])]
            if len(parts) > 1:
                probes.extend(p for p in parts if len(p) >= MIN_PROBE_CHARS)
    return probes


def _sentences(text: str) -> list[tuple[int, int]]:
    spans = split_sentences(text)
    if spans or not text.strip():
        return spans
    # Never lose a document to a splitter that found nothing to split.
    start = len(text) - len(text.lstrip())
    return [(start, len(text.rstrip()))]


def _pieces(text: str, spans: Sequence[tuple[int, int]], *, max_chars: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for start, end in spans:
        while end - start > max_chars:
            cut = text.rfind(" ", start + max_chars // 2, start + max_chars)
            cut = cut if cut > start else start + max_chars
            out.append((start, cut))
            start = cut
            while start < end and text[start].isspace():
                start += 1
        if end > start:
            out.append((start, end))
    return out


def build_index(
    documents: Sequence[Document],
    *,
    embedder: Embedder,
    settings: RetrievalSettings,
    also: Sequence[str] = (),
) -> EvidenceIndex:
    """The answer's windows (and clause probes) with their vectors, from one `encode` call in which each
    distinct sentence (and clause) is embedded once: a window of several sentences gets the normalised
    mean of its sentences' vectors (`window_vectors`), so no sentence is read up to three times.

    `also` (the claims and queries, `query_texts`) ride in the same call, so `retrieve_many` finds
    them embedded: one embedder call per answer for retrieval."""
    runs, pieces = _runs(documents, max_sentences=settings.max_window_sentences)
    if not runs:
        return EvidenceIndex((), np.zeros((0, 0), dtype=np.float32))
    probes = clause_probes(documents) if settings.clause_probes else []
    distinct = list(dict.fromkeys([*pieces, *probes, *also]))
    encoded = _finite(embedder.encode(distinct))
    row = {text: i for i, text in enumerate(distinct)}
    sentences = encoded[[row[p] for p in pieces]]
    probe_rows = [row[p] for p in dict.fromkeys(probes)]
    windows = tuple(w for w, _ in runs)
    vectors = window_vectors(sentences, [r for _, r in runs])
    return EvidenceIndex(windows, vectors, encoded[probe_rows], dict(zip(distinct, encoded, strict=True)))


def window_vectors(sentences: Vectors, runs: Sequence[range]) -> Vectors:
    """Per run of sentence rows, the L2-normalised mean of their unit vectors (a one-sentence window is
    its sentence's vector unchanged).

    Example::

        window_vectors(np.eye(2, dtype=np.float32), [range(0, 1), range(0, 2)])  # [[1, 0], [.71, .71]]
    """
    sums = np.stack([sentences[r.start : r.stop].sum(axis=0) for r in runs]).astype(np.float32)
    norms = np.linalg.norm(sums, axis=1, keepdims=True)
    out: Vectors = np.divide(sums, norms, out=np.zeros_like(sums), where=norms > 0)
    return out


def retrieve_many(
    index: EvidenceIndex,
    items: Sequence[tuple[Claim, Sequence[Query]]],
    *,
    embedder: Embedder,
    settings: RetrievalSettings,
) -> list[tuple[tuple[Evidence, ...], float]]:
    """Per claim: top-k candidate windows (best first, `score` = hybrid score) and the tier-1 similarity
    (cosine of the claim, in its standalone form when it has one, with its best window or clause probe,
    in [0, 1]). One `embedder.encode` call for
    all claims and queries."""
    if not items or not index.windows:
        return [((), 0.0) for _ in items]
    texts = query_texts(items)
    vectors = _encode_new(texts, known=index.embedded, embedder=embedder)
    row = {text: i for i, text in enumerate(texts)}
    return [_retrieve_one(index, claim, queries, vectors, row, settings=settings) for claim, queries in items]


def query_texts(items: Sequence[tuple[Claim, Sequence[Query]]]) -> list[str]:
    """The distinct texts `retrieve_many` embeds for these claims: each claim (standalone) and its queries."""
    return list(
        dict.fromkeys(t for claim, queries in items for t in (_probe(claim), *(q.text for q in queries)))
    )


def _encode_new(texts: list[str], *, known: dict[str, Vectors], embedder: Embedder) -> Vectors:
    """The texts' vectors; only those the index has not embedded already go to the embedder."""
    new = [t for t in texts if t not in known]
    fresh = dict(zip(new, _finite(embedder.encode(new)), strict=True)) if new else {}
    return np.stack([known[t] if t in known else fresh[t] for t in texts]).astype(np.float32, copy=False)


def _retrieve_one(
    index: EvidenceIndex,
    claim: Claim,
    queries: Sequence[Query],
    vectors: Vectors,
    row: dict[str, int],
    *,
    settings: RetrievalSettings,
) -> tuple[tuple[Evidence, ...], float]:
    texts = list(dict.fromkeys((_probe(claim), *(q.text for q in queries))))
    dense = np.clip(vectors[[row[t] for t in texts]] @ index.vectors.T, 0.0, 1.0).astype(np.float64)
    lexical = np.stack([_unit_max(index.bm25.scores(t)) for t in texts])
    hybrid = settings.dense_weight * dense.max(axis=0) + (1.0 - settings.dense_weight) * lexical.max(axis=0)
    best = np.argsort(-hybrid, kind="stable")[: settings.top_k]
    candidates = tuple(_evidence(index.windows[i], float(hybrid[i])) for i in best)
    return candidates, max(float(dense[0].max()), _probe_similarity(index, vectors[row[_probe(claim)]]))


def _probe(claim: Claim) -> str:
    """What the claim is compared with: its standalone form, since "It orbits ..." names nothing."""
    return claim.standalone or claim.text


def _probe_similarity(index: EvidenceIndex, claim: Vectors) -> float:
    if index.probes.shape[0] == 0:
        return 0.0
    return float(np.clip(index.probes @ claim, 0.0, 1.0).max())


def _evidence(window: Window, score: float) -> Evidence:
    return Evidence(doc_id=window.doc_id, start=window.start, end=window.end, text=window.text, score=score)


def _unit_max(scores: Floats) -> Floats:
    top = float(scores.max()) if len(scores) else 0.0
    return scores / top if top > 0 else scores


def _finite(vectors: Vectors) -> Vectors:
    out: Vectors = np.nan_to_num(np.asarray(vectors, dtype=np.float32), nan=0.0, posinf=0.0, neginf=0.0)
    return out

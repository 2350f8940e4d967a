"""Issue 15: each document sentence, claim and query goes through the embedder once per answer, and
the embedding cache serves them again to the next answer on the same documents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from tests.fakes import HashEmbedder
from workers.backends.cache import LruCache
from workers.backends.cached import CachedEmbedder
from workers.messages import Claim, Document, Query, QueryKind
from workers.protocols import Embedder, Vectors
from workers.settings import RetrievalSettings
from workers.stages.retrieve import _runs, build_index, retrieve_many, window_vectors

SETTINGS = RetrievalSettings()
DOCS = (
    Document(id="d1", text="Revenue rose 12% in 2023. Margins held at 14%. The CEO, Ann Lee, left in May."),
    Document(id="d2", text="Sales grew in Europe. Margins held at 14%."),
)


class CountingEmbedder:
    """Counts how often each text reaches the model, across calls."""

    def __init__(self) -> None:
        self.inner = HashEmbedder()
        self.seen: Counter[str] = Counter()
        self.calls = 0

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        self.seen.update(texts)
        return self.inner.encode(texts)


def _items() -> list[tuple[Claim, tuple[Query, ...]]]:
    text = "Revenue rose 12% in 2023."
    claim = Claim(id="c0", text=text, start=0, end=len(text))
    return [(claim, (Query(kind=QueryKind.DIRECT, text="revenue growth 2023"),))]


def _answer(embedder: Embedder) -> None:
    index = build_index(DOCS, embedder=embedder, settings=SETTINGS)
    retrieve_many(index, _items(), embedder=embedder, settings=SETTINGS)


def test_each_sentence_claim_and_query_is_embedded_once_per_answer() -> None:
    counting = CountingEmbedder()
    _answer(counting)
    _, pieces = _runs(DOCS, max_sentences=SETTINGS.max_window_sentences)
    assert all(counting.seen[p] == 1 for p in pieces)
    assert counting.seen["Revenue rose 12% in 2023."] == 1  # a sentence and the claim: one text, once
    assert counting.seen["revenue growth 2023"] == 1
    assert max(counting.seen.values()) == 1
    assert not any(" Margins held" in t for t in counting.seen)  # no multi-sentence window was embedded


def test_the_cache_serves_the_next_answer_on_the_same_documents() -> None:
    counting = CountingEmbedder()
    cached = CachedEmbedder(counting, cache=LruCache(max_items=1000), ttl_s=60)
    _answer(cached)
    first = sum(counting.seen.values())
    _answer(cached)
    assert sum(counting.seen.values()) == first  # nothing new reached the model
    assert max(counting.seen.values()) == 1


def test_window_vectors_are_unit_means_of_their_sentences() -> None:
    sentences = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 0]], dtype=np.float32)
    out = window_vectors(sentences, [range(0, 1), range(0, 2), range(2, 3)])
    np.testing.assert_allclose(out[0], [1, 0, 0])
    np.testing.assert_allclose(out[1], [2**-0.5, 2**-0.5, 0], rtol=1e-6)
    np.testing.assert_array_equal(out[2], [0, 0, 0])  # an all-zero sentence stays zero, never NaN


def test_single_sentence_windows_keep_their_sentence_vector() -> None:
    embedder = HashEmbedder()
    index = build_index(DOCS, embedder=embedder, settings=SETTINGS)
    for window, vector in zip(index.windows, index.vectors, strict=True):
        if window.text == "Margins held at 14%.":
            np.testing.assert_allclose(vector, embedder.encode([window.text])[0], rtol=1e-6)

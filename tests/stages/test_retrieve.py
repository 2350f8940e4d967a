from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from tests.fakes import HashEmbedder
from workers.messages import Claim, Document, Query, QueryKind
from workers.protocols import Vectors
from workers.settings import RetrievalSettings
from workers.stages.retrieve import (
    MAX_WINDOW_CHARS,
    build_index,
    clause_probes,
    make_windows,
    query_texts,
    retrieve_many,
)

SETTINGS = RetrievalSettings()
NEEDLE = "The Zephyr turbine produced 42 megawatts at the Kolding plant in 2021."


def _claim(text: str, cid: str = "c0") -> Claim:
    return Claim(id=cid, text=text, start=0, end=len(text))


def _long_document() -> Document:
    filler = " ".join(
        f"Paragraph {i} describes the weather in region {i % 17}, which was mild and calm."
        for i in range(700)
    )
    return Document(id="long", text=f"{filler} {NEEDLE}")


def test_windows_are_runs_of_one_to_max_sentences_with_exact_offsets() -> None:
    doc = Document(id="d1", text="First one here.  Second one here. Third one here.\n\nFourth one here.")
    windows = make_windows([doc], max_sentences=3)
    assert all(doc.text[w.start : w.end] == w.text and w.doc_id == "d1" for w in windows)
    assert [w.text for w in windows[:3]] == [
        "First one here.",
        "First one here.  Second one here.",
        "First one here.  Second one here. Third one here.",
    ]
    assert len(windows) == 3 + 3 + 2 + 1
    assert len(make_windows([doc], max_sentences=1)) == 4


def test_windows_cover_long_documents_end_to_end() -> None:
    doc = _long_document()
    windows = make_windows([doc], max_sentences=3)
    assert len(doc.text) > 50_000
    assert max(w.end for w in windows) == len(doc.text)
    assert windows[-1].text == NEEDLE


def test_a_sentence_longer_than_a_window_is_cut_not_dropped() -> None:
    text = " ".join(["word"] * 900) + "."
    windows = make_windows([Document(id="d", text=text)], max_sentences=3)
    assert all(len(w.text) <= MAX_WINDOW_CHARS for w in windows)
    assert "".join(w.text for w in windows).replace(" ", "") == text.replace(" ", "")


def test_build_index_embeds_each_sentence_once_in_one_call() -> None:
    embedder = HashEmbedder()
    docs = [Document(id="a", text="Same sentence. Other sentence."), Document(id="b", text="Same sentence.")]
    index = build_index(docs, embedder=embedder, settings=SETTINGS)
    assert embedder.calls == 1
    # The two-sentence window is made from its sentences' vectors, never embedded itself.
    assert sorted(embedder.texts) == ["Other sentence.", "Same sentence."]
    assert index.vectors.shape == (len(index.windows), embedder.dim)


def test_evidence_at_the_end_of_a_long_document_is_found_with_one_encode_call() -> None:
    embedder = HashEmbedder()
    index = build_index([_long_document()], embedder=embedder, settings=SETTINGS)
    embedder.calls = 0
    claims = [
        (
            _claim("The Zephyr turbine produced 42 megawatts at Kolding."),
            (Query(kind=QueryKind.DIRECT, text="Zephyr output"),),
        ),
        (_claim("Region 3 had mild weather.", "c1"), ()),
    ]
    hits = retrieve_many(index, claims, embedder=embedder, settings=SETTINGS)
    assert embedder.calls == 1
    candidates, similarity = hits[0]
    assert candidates[0].text == NEEDLE
    assert candidates[0].doc_id == "long"
    assert len(candidates) == SETTINGS.top_k
    assert [c.score for c in candidates] == sorted((c.score for c in candidates), reverse=True)
    assert 0.0 < similarity <= 1.0


def test_similarity_is_the_best_claim_cosine_over_all_windows() -> None:
    embedder = HashEmbedder()
    docs = [Document(id="d", text="Cats purr loudly. Dogs bark at night. Birds sing.")]
    index = build_index(docs, embedder=embedder, settings=SETTINGS)
    claim = _claim("Dogs bark at night.")
    [(candidates, similarity)] = retrieve_many(index, [(claim, ())], embedder=embedder, settings=SETTINGS)
    expected = float(np.max(index.vectors @ embedder.encode([claim.text])[0]))
    assert similarity == pytest.approx(min(1.0, expected), abs=1e-6)
    assert candidates[0].text == "Dogs bark at night."


MARGIN = Document(id="m", text="Operating margin improved to 14% as logistics costs fell. Sales rose.")


def test_clause_probes_split_sentences_at_clause_breaks() -> None:
    assert clause_probes([MARGIN]) == ["Operating margin improved to 14%", "logistics costs fell"]


def test_a_one_clause_claim_is_compared_with_clauses_but_never_given_one_as_evidence() -> None:
    claim = _claim("Operating margin improved to 14%")
    sims = {}
    for probes in (True, False):
        settings = RetrievalSettings(clause_probes=probes)
        embedder = HashEmbedder()
        index = build_index([MARGIN], embedder=embedder, settings=settings)
        [(candidates, sims[probes])] = retrieve_many(
            index, [(claim, ())], embedder=embedder, settings=settings
        )
        # With probes the claim is one of the clauses already embedded for the index: not embedded again.
        assert embedder.calls == (1 if probes else 2)
        assert {c.text for c in candidates} <= {w.text for w in index.windows}
    assert sims[True] == pytest.approx(1.0, abs=1e-6)
    assert sims[False] < 0.9


def test_no_documents_gives_no_candidates_and_no_encode_call() -> None:
    embedder = HashEmbedder()
    index = build_index([], embedder=embedder, settings=SETTINGS)
    hits = retrieve_many(index, [(_claim("Anything."), ())], embedder=embedder, settings=SETTINGS)
    assert hits == [((), 0.0)]
    assert embedder.calls == 0
    assert retrieve_many(index, [], embedder=embedder, settings=SETTINGS) == []


class _NanEmbedder(HashEmbedder):
    def encode(self, texts: Sequence[str]) -> Vectors:
        out = super().encode(texts)
        out[:, 0] = np.nan
        return out


def test_scores_and_similarity_are_never_nan() -> None:
    embedder = _NanEmbedder()
    index = build_index([Document(id="d", text="One. Two. Three.")], embedder=embedder, settings=SETTINGS)
    [(candidates, similarity)] = retrieve_many(
        index, [(_claim("Two."), ())], embedder=embedder, settings=SETTINGS
    )
    assert np.isfinite(similarity) and 0.0 <= similarity <= 1.0
    assert all(np.isfinite(c.score) for c in candidates)


def test_a_claim_is_searched_and_compared_in_its_standalone_form() -> None:
    embedder = HashEmbedder()
    docs = [Document(id="d", text="Zephyr turbines run quietly. Kolding hosts a plant. Birds sing.")]
    index = build_index(docs, embedder=embedder, settings=SETTINGS)
    text = "It runs quietly."
    bare = Claim(id="c0", text=text, start=0, end=len(text))
    resolved = bare.model_copy(update={"standalone": "Zephyr turbines run quietly."})
    hits = retrieve_many(index, [(bare, ()), (resolved, ())], embedder=embedder, settings=SETTINGS)
    (_, bare_sim), (candidates, resolved_sim) = hits
    assert resolved_sim == pytest.approx(1.0, abs=1e-6)
    assert bare_sim < resolved_sim
    assert candidates[0].text == "Zephyr turbines run quietly."
    embedder.texts.clear()
    retrieve_many(index, [(resolved, ())], embedder=embedder, settings=SETTINGS)
    assert text not in embedder.texts


def test_claims_and_queries_ride_in_the_index_call_and_give_the_same_hits() -> None:
    items = [
        (
            _claim("The Zephyr turbine produced 42 megawatts at Kolding."),
            (Query(kind=QueryKind.DIRECT, text="Zephyr output"),),
        ),
        (_claim("Region 3 had mild weather.", "c1"), ()),
    ]
    apart, together = HashEmbedder(), HashEmbedder()
    index = build_index([_long_document()], embedder=apart, settings=SETTINGS)
    expected = retrieve_many(index, items, embedder=apart, settings=SETTINGS)
    joined = build_index([_long_document()], embedder=together, settings=SETTINGS, also=query_texts(items))
    got = retrieve_many(joined, items, embedder=together, settings=SETTINGS)
    assert (apart.calls, together.calls) == (2, 1)
    assert got == expected

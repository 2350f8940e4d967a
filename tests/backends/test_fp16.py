"""fp16 weights with fp32 arithmetic: fp32's numbers, the same in any batch."""

from __future__ import annotations

import pytest
import torch

from workers.backends.fp16 import HalfLinear, available, half_weights

pytestmark = pytest.mark.skipif(not available(), reason="this torch build has no fbgemm")


def _layers() -> torch.nn.Module:
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(64, 256), torch.nn.GELU(), torch.nn.Linear(256, 8))


def test_every_linear_layer_is_swapped_and_the_numbers_stay_fp32s() -> None:
    fp32 = _layers()
    x = torch.randn(40, 64)
    with torch.inference_mode():
        expected = fp32(x)
        half = half_weights(_layers())
        got = half(x)
    assert [type(m) for m in half] == [HalfLinear, torch.nn.GELU, HalfLinear]
    assert (got - expected).abs().max() < 1e-2  # only the weights' rounding to fp16


def test_a_row_gets_the_same_numbers_alone_or_in_a_batch() -> None:
    half = half_weights(_layers())
    x = torch.randn(33, 64)
    with torch.inference_mode():
        together = half(x)
        alone = torch.cat([half(x[i : i + 1]) for i in range(len(x))])
    assert (together - alone).abs().max() < 1e-5


def test_the_embedder_gives_fp32s_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    from sentence_transformers import SentenceTransformer

    monkeypatch.setenv("WOODPECKER_FP16", "on")  # fp16 weights whatever this CPU would choose

    from workers.backends.embedder import MiniLMEmbedder, model_dir

    texts = ["Revenue rose 12% in 2023.", "The fund is run by five portfolio managers."]
    fp32 = SentenceTransformer(str(model_dir()), device="cpu", local_files_only=True)
    expected = fp32.encode(texts, convert_to_numpy=True, normalize_embeddings=True)
    embedder = MiniLMEmbedder()
    assert embedder.model_id.endswith("-fp16")
    got = embedder.encode(texts)
    assert float(abs(got - expected).max()) < 1e-3

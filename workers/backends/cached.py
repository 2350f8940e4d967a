"""Cache wrappers for the two expensive backends; each satisfies the protocol of what it wraps.

Usage::

    cache = open_cache(settings.cache)
    embedder = CachedEmbedder(load_embedder(name), cache=cache, ttl_s=settings.cache.embedding_ttl_s)
    checker = CachedChecker(OfflineChecker(), cache=cache, ttl_s=settings.cache.verdict_ttl_s)
    embedder.encode(["a", "b"])      # one MGET; the model sees only the misses, in one call

Embeddings are stored as raw little-endian float32 bytes under `emb:<model id>:<hash of text>`.
Verdicts are stored as JSON under `vrd:<verifier>:<hash of claim, evidence windows, verifier, threshold>`.
Hits and misses are counted on `cache.stats` and in the caller's `collect_hits()`.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import replace
from typing import Any

import numpy as np
import orjson
from pydantic import ValidationError

from workers.backends.cache import Cache, note_hits, note_item_hits
from workers.messages import Claim, Evidence, Judgement, SlotFix
from workers.protocols import CheckResult, Embedder, Vectors, VerdictComponent

__all__ = ["CachedChecker", "CachedEmbedder", "text_digest"]

_F32 = np.dtype("<f4")
# How workers.backends.llm_checker marks a verdict its offline fallback made.
_FALLBACK_PREFIX = "offline fallback:"


def text_digest(*parts: bytes | str) -> str:
    """A short, stable hex digest of the parts (lone surrogates survive encoding)."""
    h = hashlib.blake2b(digest_size=16)
    for part in parts:
        raw = part.encode("utf-8", "surrogatepass") if isinstance(part, str) else part
        h.update(len(raw).to_bytes(8, "little"))
        h.update(raw)
    return h.hexdigest()


class CachedEmbedder:
    """An `Embedder` that asks the cache first and the wrapped model only for the misses."""

    def __init__(self, inner: Embedder, *, cache: Cache, ttl_s: float) -> None:
        self.inner = inner
        self.cache = cache
        self._ttl_s = ttl_s

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def encode(self, texts: Sequence[str]) -> Vectors:
        if not texts:
            return self.inner.encode(texts)
        unique = list(dict.fromkeys(texts))
        found = self._lookup(unique)
        missing = [t for t in unique if t not in found]
        if missing:
            found.update(self._compute(missing))
        self.cache.stats.record("embedding", hits=len(unique) - len(missing), misses=len(missing))
        note_hits("embedding", len(unique) - len(missing))
        rows = [found[t] for t in texts]
        if len({r.shape for r in rows}) != 1:
            return self.inner.encode(texts)  # a stale entry of another size: recompute, never fail
        return np.stack(rows).astype(np.float32, copy=False)

    def _key(self, text: str) -> str:
        return f"emb:{self.inner.model_id}:{text_digest(text)}"

    def _lookup(self, unique: list[str]) -> dict[str, Vectors]:
        raw = self.cache.get_many([self._key(t) for t in unique])
        decoded = ((t, _vector(b)) for t, b in zip(unique, raw, strict=True))
        return {t: v for t, v in decoded if v is not None}

    def _compute(self, missing: list[str]) -> dict[str, Vectors]:
        fresh = np.asarray(self.inner.encode(missing), dtype=np.float32)
        self.cache.set_many(
            {self._key(t): v.astype(_F32).tobytes() for t, v in zip(missing, fresh, strict=True)},
            ttl_s=self._ttl_s,
        )
        return dict(zip(missing, fresh, strict=True))


def _vector(raw: bytes | None) -> Vectors | None:
    if not raw or len(raw) % _F32.itemsize:
        return None
    vec = np.frombuffer(raw, dtype=_F32).astype(np.float32)
    return vec if bool(np.isfinite(vec).all()) else None


class CachedChecker:
    """A `VerdictComponent` that reuses verdicts for the same claim on the same evidence windows.

    `threshold` is the component's own decision threshold where it has one (an NLI cut-off, say); it is
    part of the key because it changes the labels. The tier-1 similarity threshold is applied after the
    checker, by the verify stage, so it does not change what is cached here.
    """

    def __init__(
        self, inner: VerdictComponent, *, cache: Cache, ttl_s: float, threshold: float | None = None
    ) -> None:
        self.inner = inner
        self.cache = cache
        self._ttl_s = ttl_s
        self._threshold = threshold
        self._flights = _Flights()

    @property
    def name(self) -> str:
        return self.inner.name

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        if not items:
            return []
        keys = [self._key(claim, windows) for claim, windows in items]
        # A pair asked twice in one call (a claim and its citation check on the same window) is judged
        # once and counts as a hit the second time, as it would when the two come one by one.
        first: dict[str, int] = {}
        for i, key in enumerate(keys):
            first.setdefault(key, i)
        owned, waiting = self._flights.claim(list(first))
        done: dict[str, CheckResult] = {}
        judged: set[str] = set()
        try:
            done, judged = self._judge({k: items[first[k]] for k in owned})
        finally:
            self._flights.land(owned, {k: r for k, r in done.items() if _cacheable(r)})
        # Another caller's verdict, its evidence swapped for this call's window as a cache hit's is.
        shared = {
            k: replace(r, evidence=_same_window(r.evidence, items[first[k]][1]))
            for k, f in waiting.items()
            if (r := f.result()) is not None
        }
        late, judged_late = self._judge({k: items[first[k]] for k in waiting if k not in shared})
        results, judged = done | shared | late, judged | judged_late
        self.cache.stats.record("verdict", hits=len(items) - len(judged), misses=len(judged))
        note_hits("verdict", len(items) - len(judged))
        note_item_hits(i for i, k in enumerate(keys) if first[k] != i or k not in judged)
        return [results[k] for k in keys]

    def _judge(
        self, pending: dict[str, tuple[Claim, Sequence[Evidence]]]
    ) -> tuple[dict[str, CheckResult], set[str]]:
        """`pending`'s verdicts, cached or judged in one call and stored; and the keys judged."""
        if not pending:
            return {}, set()
        keys = list(pending)
        raw = self.cache.get_many(keys)
        found = {k: r for k, b in zip(keys, raw, strict=True) if (r := _result(b, pending[k][1])) is not None}
        todo = [k for k in keys if k not in found]
        fresh = (
            dict(zip(todo, self.inner.judge_many([pending[k] for k in todo]), strict=True)) if todo else {}
        )
        self.cache.set_many(
            {k: _result_bytes(r) for k, r in fresh.items() if _cacheable(r)}, ttl_s=self._ttl_s
        )
        return found | fresh, set(todo)

    def _key(self, claim: Claim, windows: Sequence[Evidence]) -> str:
        spans = [[w.doc_id, w.start, w.end, w.text] for w in windows]
        body = orjson.dumps(
            [self.name, self._threshold, claim.text, claim.standalone, claim.claim_type, spans]
        )
        return f"vrd:{self.name}:{text_digest(body)}"


class _Flights:
    """The verdicts this process is judging now, by key. A thread that asks for one another thread is
    judging waits for it instead of judging it too: the work is done once, and the second asker counts a
    hit, as it would had the two come one after the other (so the stream, verifying two claim records at
    once, counts what the batch CLI counts)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pending: dict[str, Future[CheckResult | None]] = {}

    def claim(self, keys: Sequence[str]) -> tuple[list[str], dict[str, Future[CheckResult | None]]]:
        """(the keys this caller now judges, the futures of those another caller is judging)."""
        owned: list[str] = []
        waiting: dict[str, Future[CheckResult | None]] = {}
        with self._lock:
            for key in keys:
                if (future := self._pending.get(key)) is not None:
                    waiting[key] = future
                else:
                    self._pending[key] = Future()
                    owned.append(key)
        return owned, waiting

    def land(self, keys: Sequence[str], results: dict[str, CheckResult]) -> None:
        """Hands the owner's verdicts to the waiters; None where it has none to share (they judge it)."""
        with self._lock:
            futures = [self._pending.pop(key) for key in keys]
        for key, future in zip(keys, futures, strict=True):
            future.set_result(results.get(key))


def _cacheable(result: CheckResult) -> bool:
    """A stand-in verdict (the LLM checker's offline fallback) must not be served as the real one later."""
    return "fallback" not in result.extra and not result.reason.startswith(_FALLBACK_PREFIX)


def _result_bytes(result: CheckResult) -> bytes:
    return orjson.dumps(
        {
            "label": result.label.value,
            "reason": result.reason,
            "evidence": result.evidence.model_dump(mode="json") if result.evidence else None,
            "fixes": [f.model_dump(mode="json") for f in result.fixes],
            "confidence": result.confidence,
            "extra": result.extra,
        }
    )


def _result(raw: bytes | None, windows: Sequence[Evidence]) -> CheckResult | None:
    """The cached result, its evidence swapped for this call's window (same span, today's score)."""
    if raw is None:
        return None
    try:
        data: dict[str, Any] = orjson.loads(raw)
        evidence = Evidence.model_validate(data["evidence"]) if data["evidence"] else None
        return CheckResult(
            label=Judgement(data["label"]),
            reason=str(data["reason"]),
            evidence=_same_window(evidence, windows),
            fixes=tuple(SlotFix.model_validate(f) for f in data["fixes"]),
            confidence=float(data["confidence"]),
            extra={str(k): float(v) for k, v in data["extra"].items()},
        )
    except (orjson.JSONDecodeError, ValidationError, KeyError, TypeError, ValueError, AttributeError):
        return None  # unreadable entry: a miss


def _same_window(evidence: Evidence | None, windows: Sequence[Evidence]) -> Evidence | None:
    if evidence is None:
        return None
    span = (evidence.doc_id, evidence.start, evidence.end, evidence.text)
    return next((w for w in windows if (w.doc_id, w.start, w.end, w.text) == span), evidence)

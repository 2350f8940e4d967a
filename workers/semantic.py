"""The tenant-scoped semantic cache: a near-identical answer on the same documents reuses a correction.

Usage::

    semantic = SemanticCache(cache, embedder=embedder, threshold=0.97, ttl_s=86_400)
    reused = semantic.lookup(answer)        # Corrected (route semantic_cache, this answer's id) or None
    if reused is None:
        corrected = ...                     # the full pipeline
        semantic.store(answer, corrected)

Keys are namespaced by tenant (no tenant is its own namespace, `_`) and by a hash of the document set,
domain and stakes (and a `salt` for the settings that shape a correction), so tenant B is never served
tenant A's result and other documents never match. Look-up reads the exact-text key first (one round
trip, no embedding); only then are the recent answers of the same scope (a capped list of answer hashes
and vectors) compared by cosine, and the best few entries at or above the threshold fetched at once.
A near match must also be the same text but for its spacing, since a sentence embedding barely
moves when "4.2" becomes "4.8", "is" becomes "is not", "?" becomes ".", one name takes another's place
or two sentences change places. And it reuses only a correction that changed nothing: the output is
always this answer's own text, never the text stored for another one, so a stored edit or flag is
recomputed for the new text instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from pydantic import ValidationError

from workers.backends.cache import Cache, note_hits, open_cache
from workers.backends.cached import CachedChecker, CachedEmbedder, text_digest
from workers.errors import InvalidMessage
from workers.messages import Answer, ClaimResult, Corrected, Route, Stats
from workers.protocols import Embedder, Vectors, VerdictComponent
from workers.settings import Settings

__all__ = ["CachedBackends", "SemanticCache", "cached_backends", "namespace", "scope_of", "settings_salt"]

_DIGEST_BYTES = 16
_F32 = np.dtype("<f4")
# A space before punctuation ("countries ." from tokenised text): spacing, not wording.
_SPACE_BEFORE_MARK = re.compile(r"\s+(?=[.,;:!?])")


def namespace(tenant: str | None) -> str:
    """The tenant's key namespace; `_` for no tenant, which no named tenant can collide with."""
    return "_" if tenant is None else f"t.{tenant}"


def scope_of(answer: Answer, *, salt: str = "") -> str:
    """A hash of what a correction depends on besides the answer text: the document set and context."""
    docs = sorted(text_digest(d.id, d.text) for d in answer.documents)
    return text_digest(salt, answer.domain or "", answer.stakes or "", *docs)


@dataclass(frozen=True, slots=True)
class _Candidate:
    digest: str
    cosine: float


class SemanticCache:
    """Reuses corrections of near-identical answers within one tenant and one document set."""

    def __init__(
        self,
        cache: Cache,
        *,
        embedder: Embedder,
        threshold: float = 0.97,
        ttl_s: float = 86_400,
        salt: str = "",
        max_recent: int = 256,
        max_fetch: int = 4,
    ) -> None:
        self.cache = cache
        self._embedder = embedder
        self._threshold = threshold
        self._ttl_s = ttl_s
        self._salt = salt
        self._max_recent = max_recent
        self._max_fetch = max_fetch

    def lookup(self, answer: Answer) -> Corrected | None:
        """The stored correction reused for `answer`, or None; counts a hit or a miss.

        A miss also indexes the answer's vector here, where the embedder is at hand, so `store` (called
        when the correction is done, on a correction worker that loads no model) needs no embedding.
        """
        ns, scope = namespace(answer.tenant), scope_of(answer, salt=self._salt)
        digest = text_digest(answer.answer)
        exact = self._entries(ns, scope, [digest])
        found = exact[0] if exact else self._nearest(answer, ns, scope, digest)
        self.cache.stats.record("semantic", hits=int(found is not None), misses=int(found is None))
        note_hits("semantic", int(found is not None))
        return None if found is None else _reuse(found, answer)

    def store(self, answer: Answer, corrected: Corrected) -> None:
        """Remembers a full correction; fallbacks and reused results are not stored."""
        if corrected.route is not Route.FULL or corrected.stats.fallback is not None:
            return
        ns, scope = namespace(answer.tenant), scope_of(answer, salt=self._salt)
        key = _entry_key(ns, scope, text_digest(answer.answer))
        self.cache.set_many({key: corrected.to_json()}, ttl_s=self._ttl_s)

    def _nearest(self, answer: Answer, ns: str, scope: str, digest: str) -> Corrected | None:
        recent = self.cache.recent(_recent_key(ns, scope), limit=self._max_recent)
        vector = _unit(self._embedder.encode([answer.answer])[0])
        self._index(ns, scope, digest, vector, recent=recent)
        best = _ranked(recent, vector, threshold=self._threshold, exclude=digest)[: self._max_fetch]
        spaced = _spacing(answer.answer)
        entries = self._entries(ns, scope, [c.digest for c in best])
        # A near match's citations would point into the stored text: it must have none to reuse.
        usable = (
            e
            for e in entries
            if _spacing(e.original) == spaced and e.corrected == e.original and not e.citations
        )
        return next((e for e in usable if _placed(e.claims, answer.answer)), None)

    def _index(self, ns: str, scope: str, digest: str, vector: Vectors, *, recent: Sequence[bytes]) -> None:
        """Adds the answer to the scope's recent vectors (once: a repeat of a recent text is not re-added);
        its entry follows in `store` if its correction is kept."""
        item = bytes.fromhex(digest) + vector.astype(_F32).tobytes()
        if not any(r[:16] == item[:16] for r in recent):
            self.cache.push_recent(_recent_key(ns, scope), item, limit=self._max_recent, ttl_s=self._ttl_s)

    def _entries(self, ns: str, scope: str, digests: Sequence[str]) -> list[Corrected]:
        """The stored corrections under `digests` that still exist and parse, in order."""
        if not digests:
            return []
        raw = self.cache.get_many([_entry_key(ns, scope, d) for d in digests])
        return [c for c in (_parse(b) for b in raw) if c is not None]


def _entry_key(ns: str, scope: str, digest: str) -> str:
    return f"sem:{ns}:{scope}:{digest}"


def _recent_key(ns: str, scope: str) -> str:
    return f"semidx:{ns}:{scope}"


def _unit(vector: Vectors) -> Vectors:
    v = np.nan_to_num(np.asarray(vector, dtype=np.float32).ravel())
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def _ranked(recent: Sequence[bytes], vector: Vectors, *, threshold: float, exclude: str) -> list[_Candidate]:
    """Stored answers at or above the threshold, best first, one per answer text."""
    width = _DIGEST_BYTES + vector.size * _F32.itemsize
    seen: dict[str, float] = {}
    for item in recent:
        if len(item) != width:
            continue  # another model's vector, or damaged
        digest = item[:_DIGEST_BYTES].hex()
        cosine = float(np.frombuffer(item, dtype=_F32, offset=_DIGEST_BYTES) @ vector)
        if cosine >= threshold and digest != exclude and digest not in seen:
            seen[digest] = cosine
    return sorted((_Candidate(d, c) for d, c in seen.items()), key=lambda c: -c.cosine)


def _spacing(text: str) -> str:
    """The text with its spacing normalised: what a near match must equal, character for character."""
    return _SPACE_BEFORE_MARK.sub("", " ".join(text.split()))


def _placed(claims: Sequence[ClaimResult], text: str) -> bool:
    """Whether every claim can be put at one place in `text` (a near match reuses all of them or none)."""
    return len(_reanchor(claims, text)) == len(claims)


def _parse(raw: bytes | None) -> Corrected | None:
    if raw is None:
        return None
    try:
        return Corrected.from_json(raw)
    except (InvalidMessage, ValidationError):
        return None


def _reuse(found: Corrected, answer: Answer) -> Corrected:
    """The stored correction as this answer's: its id, tenant and text, route semantic_cache.

    An exact hit's text is the stored correction; a near match changed nothing, so its text is this
    answer's own (its spacing and punctuation, not the stored answer's)."""
    unchanged = found.corrected == found.original
    return found.model_copy(
        update={
            "id": answer.id,
            "tenant": answer.tenant,
            "original": answer.answer,
            "corrected": answer.answer if unchanged else found.corrected,
            "route": Route.SEMANTIC_CACHE,
            "claims": _reanchor(found.claims, answer.answer),
            "stats": Stats(),
        }
    )


def _reanchor(claims: Sequence[ClaimResult], text: str) -> tuple[ClaimResult, ...]:
    """Claims moved to where their text sits in `text`; a claim that cannot be placed once is left out."""
    out: list[ClaimResult] = []
    for c in claims:
        if text[c.start : c.end] == c.text:
            out.append(c)
        elif c.text and text.count(c.text) == 1:
            at = text.index(c.text)
            out.append(c.model_copy(update={"start": at, "end": at + len(c.text)}))
    return tuple(out)


# ---- wiring ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CachedBackends:
    """The backends behind one shared cache; `cache.stats` holds the hit counters by kind."""

    cache: Cache
    embedder: CachedEmbedder
    checker: CachedChecker
    semantic: SemanticCache


def cached_backends(
    settings: Settings, *, embedder: Embedder, checker: VerdictComponent, cache: Cache | None = None
) -> CachedBackends:
    """Wraps the backends in caches: `cache`, else Redis when `settings.cache.redis_url` is set, else LRU."""
    c = settings.cache
    store = cache if cache is not None else open_cache(c)
    threshold = _decision_threshold(checker)
    cached_embedder = CachedEmbedder(embedder, cache=store, ttl_s=c.embedding_ttl_s)
    cached_checker = CachedChecker(checker, cache=store, ttl_s=c.verdict_ttl_s, threshold=threshold)
    salt = settings_salt(settings, embedder.model_id, checker.name)
    semantic = SemanticCache(
        store, embedder=cached_embedder, threshold=c.semantic_threshold, ttl_s=c.semantic_ttl_s, salt=salt
    )
    return CachedBackends(store, cached_embedder, cached_checker, semantic)


def settings_salt(settings: Settings, *parts: str) -> str:
    """A digest of the settings that shape a correction: changing them starts a fresh semantic cache."""
    shaping = {"thresholds", "routing", "correction", "retrieval", "limits", "models"}
    return text_digest(settings.model_dump_json(include=shaping), *parts)


def _decision_threshold(checker: VerdictComponent) -> float | None:
    value = getattr(checker, "threshold", None)
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None

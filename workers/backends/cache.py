"""Caches behind the pipeline: Redis when configured, an in-process LRU without it or while Redis is down.

Usage::

    cache = open_cache(settings.cache)              # RedisCache with a URL, LruCache without one
    cache.set_many({"k": b"v"}, ttl_s=60)           # one pipelined round trip for the whole batch
    cache.get_many(["k", "missing"])                # [b"v", None], one MGET
    cache.stats.hit_ratio("embedding")              # counters the wrappers fill, by kind
    with collect_hits() as hits:                    # per-answer hit counts, for Corrected.stats
        ...
    cache.close()

Degrade, never fail: the pipeline is synchronous, so `RedisCache` runs a `redis.asyncio` client (pool,
short socket timeouts) on one background event-loop thread and waits for each call with a deadline.
Any Redis error or timeout falls back to the LRU (which mirrors every write), is logged once per
outage without the URL's credentials, is counted, and Redis is probed again after a growing back-off.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import urlsplit

from opentelemetry import metrics

from workers.errors import ConfigError
from workers.settings import CacheSettings

if TYPE_CHECKING:
    from redis.asyncio import Redis

__all__ = [
    "KINDS",
    "Cache",
    "CacheStats",
    "LruCache",
    "RedisCache",
    "collect_hits",
    "collect_item_hits",
    "note_hits",
    "note_item_hits",
    "open_cache",
    "redact_url",
]

KINDS = ("embedding", "verdict", "semantic")

log = logging.getLogger(__name__)
_T = TypeVar("_T")

# ---- per-answer hit counts ---------------------------------------------------------------------

_HITS: ContextVar[dict[str, int] | None] = ContextVar("woodpecker_cache_hits", default=None)
_ITEM_HITS: ContextVar[list[int] | None] = ContextVar("woodpecker_item_hits", default=None)


@contextmanager
def collect_hits() -> Iterator[dict[str, int]]:
    """Counts the cache hits made in this context (thread or task), by kind; every kind starts at 0."""
    counts = dict.fromkeys(KINDS, 0)
    token = _HITS.set(counts)
    try:
        yield counts
    finally:
        _HITS.reset(token)


@contextmanager
def collect_item_hits() -> Iterator[list[int]]:
    """The positions, in a `judge_many` call made in this context, of the items it did not judge (a
    cached verdict, or one judged for an earlier item): what shares one call's hits out among answers."""
    positions: list[int] = []
    token = _ITEM_HITS.set(positions)
    try:
        yield positions
    finally:
        _ITEM_HITS.reset(token)


def note_item_hits(positions: Iterable[int]) -> None:
    """Notes the positions of the items a call took without judging, if `collect_item_hits()` asks."""
    found = _ITEM_HITS.get()
    if found is not None:
        found.extend(positions)


def note_hits(kind: str, n: int) -> None:
    """Adds `n` hits of `kind` to the enclosing `collect_hits()`, if any."""
    counts = _HITS.get()
    if counts is not None and n:
        counts[kind] = counts.get(kind, 0) + n


# ---- counters and metrics ----------------------------------------------------------------------

_meter = metrics.get_meter("woodpecker.cache")
_HIT_COUNTER = _meter.create_counter("woodpecker.cache.hits", description="cache hits by kind")
_MISS_COUNTER = _meter.create_counter("woodpecker.cache.misses", description="cache misses by kind")
_DEGRADED_COUNTER = _meter.create_counter(
    "woodpecker.cache.degradations", description="times Redis was given up for the in-process LRU"
)
_LIVE: weakref.WeakSet[CacheStats] = weakref.WeakSet()


class CacheStats:
    """Hit and miss counters by kind and the number of Redis outages; thread-safe, cheap to update."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._hits: Counter[str] = Counter()
        self._misses: Counter[str] = Counter()
        self.degradations = 0
        _LIVE.add(self)

    def record(self, kind: str, *, hits: int, misses: int) -> None:
        with self._lock:
            self._hits[kind] += hits
            self._misses[kind] += misses
        _HIT_COUNTER.add(hits, {"kind": kind})
        _MISS_COUNTER.add(misses, {"kind": kind})

    def degraded(self) -> None:
        with self._lock:
            self.degradations += 1
        _DEGRADED_COUNTER.add(1)

    def counts(self, kind: str) -> tuple[int, int]:
        """(hits, misses) of one kind."""
        with self._lock:
            return self._hits[kind], self._misses[kind]

    def hit_ratio(self, kind: str) -> float:
        hits, misses = self.counts(kind)
        return hits / (hits + misses) if hits + misses else 0.0

    def snapshot(self) -> dict[str, Any]:
        """Plain numbers for reports: hits, misses and ratio by kind, and degradations."""
        by_kind = {
            k: {"hits": self.counts(k)[0], "misses": self.counts(k)[1], "ratio": self.hit_ratio(k)}
            for k in KINDS
        }
        return {"kinds": by_kind, "degradations": self.degradations}


def _observe_ratios(_options: metrics.CallbackOptions) -> Iterable[metrics.Observation]:
    live = list(_LIVE)  # a copy: other threads may create caches meanwhile
    totals = [(sum(s.counts(k)[0] for s in live), sum(sum(s.counts(k)) for s in live)) for k in KINDS]
    return [metrics.Observation(h / n, {"kind": k}) for k, (h, n) in zip(KINDS, totals, strict=True) if n]


_meter.create_observable_gauge(
    "woodpecker.cache.hit_ratio", callbacks=[_observe_ratios], description="hits / lookups, by kind"
)


# ---- the interface -----------------------------------------------------------------------------


class Cache(Protocol):
    """Bytes by key with a TTL, and capped most-recent-first lists; never raises on a backend failure."""

    @property
    def stats(self) -> CacheStats: ...

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]: ...

    def set_many(self, items: Mapping[str, bytes], *, ttl_s: float) -> None: ...

    def recent(self, key: str, *, limit: int) -> list[bytes]: ...

    def push_recent(self, key: str, value: bytes, *, limit: int, ttl_s: float) -> None: ...

    def close(self) -> None: ...


# ---- in-process LRU ----------------------------------------------------------------------------


class LruCache:
    """Thread-safe LRU with per-entry expiry: the fallback, and the cache when no Redis is configured."""

    def __init__(self, *, max_items: int = 10_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._max = max(1, max_items)
        self._clock = clock
        self._items: OrderedDict[str, tuple[float, bytes | tuple[bytes, ...]]] = OrderedDict()
        self._lock = threading.Lock()
        self._stats = CacheStats()

    @property
    def stats(self) -> CacheStats:
        return self._stats

    def __len__(self) -> int:
        return len(self._items)

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        with self._lock:
            found = [self._get(k) for k in keys]
        return [v if isinstance(v, bytes) else None for v in found]

    def set_many(self, items: Mapping[str, bytes], *, ttl_s: float) -> None:
        with self._lock:
            for key, value in items.items():
                self._put(key, value, ttl_s)

    def recent(self, key: str, *, limit: int) -> list[bytes]:
        with self._lock:
            found = self._get(key)
        return list(found[:limit]) if isinstance(found, tuple) else []

    def push_recent(self, key: str, value: bytes, *, limit: int, ttl_s: float) -> None:
        with self._lock:
            found = self._get(key)
            older = found if isinstance(found, tuple) else ()
            self._put(key, (value, *older)[: max(1, limit)], ttl_s)

    def close(self) -> None:
        with self._lock:
            self._items.clear()

    def _get(self, key: str) -> bytes | tuple[bytes, ...] | None:
        entry = self._items.get(key)
        if entry is None:
            return None
        if entry[0] <= self._clock():
            del self._items[key]
            return None
        self._items.move_to_end(key)
        return entry[1]

    def _put(self, key: str, value: bytes | tuple[bytes, ...], ttl_s: float) -> None:
        self._items[key] = (self._clock() + ttl_s, value)
        self._items.move_to_end(key)
        while len(self._items) > self._max:
            self._items.popitem(last=False)


# ---- Redis -------------------------------------------------------------------------------------


def redact_url(url: str) -> str:
    """The URL without user, password, path secrets or query: safe for logs."""
    try:
        parts = urlsplit(url)
        host = parts.hostname or "localhost"
        port = f":{parts.port}" if parts.port else ""
    except ValueError:
        return "<unparseable redis url>"
    return f"{parts.scheme}://{host}{port}{parts.path if parts.path[1:].isdigit() else ''}"


class RedisCache:
    """Redis through `redis.asyncio` on a private event-loop thread, behind small synchronous calls.

    Keys are stored under `prefix`. Every write also goes to the LRU, so an outage starts warm.
    `retry_after_s` is the first back-off before Redis is probed again; it doubles up to `max_retry_after_s`.
    """

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "wp:",
        socket_timeout_s: float = 0.25,
        lru_size: int = 10_000,
        retry_after_s: float = 1.0,
        max_retry_after_s: float = 30.0,
        max_connections: int = 32,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.location = redact_url(url)
        self.prefix = prefix
        self.fallback = LruCache(max_items=lru_size, clock=clock)
        self._stats = CacheStats()
        self._clock = clock
        # Connect, command and AUTH each get the socket timeout; the whole call gets a few of them.
        self._deadline_s = 3 * socket_timeout_s + 0.05
        self._backoff = (retry_after_s, max_retry_after_s, retry_after_s)
        self._down_since: float | None = None
        self._retry_at = 0.0
        self._lock = threading.Lock()
        self._closed = False
        # The client first: a bad URL must fail before a thread exists to leak.
        self._client = self._make_client(
            url, socket_timeout_s=socket_timeout_s, max_connections=max_connections
        )
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="woodpecker-redis", daemon=True)
        self._thread.start()
        self._finalizer = weakref.finalize(self, _shutdown, self._loop, self._thread, self._client)

    @property
    def stats(self) -> CacheStats:
        return self._stats

    @property
    def degraded(self) -> bool:
        """True while Redis is considered down and the LRU serves."""
        return self._down_since is not None

    def get_many(self, keys: Sequence[str]) -> list[bytes | None]:
        if not keys:
            return []
        full = [self.prefix + k for k in keys]

        async def op(r: Redis) -> list[bytes | None]:
            return [v if isinstance(v, bytes) else None for v in await r.mget(full)]

        return self._call(op, lambda: self.fallback.get_many(keys))

    def set_many(self, items: Mapping[str, bytes], *, ttl_s: float) -> None:
        if not items:
            return
        self.fallback.set_many(items, ttl_s=ttl_s)
        px = max(1, int(ttl_s * 1000))

        async def op(r: Redis) -> None:
            async with r.pipeline(transaction=False) as pipe:
                for key, value in items.items():
                    pipe.set(self.prefix + key, value, px=px)
                await pipe.execute()

        self._call(op, lambda: None)

    def recent(self, key: str, *, limit: int) -> list[bytes]:
        async def op(r: Redis) -> list[bytes]:
            return [v for v in await r.lrange(self.prefix + key, 0, limit - 1) if isinstance(v, bytes)]

        return self._call(op, lambda: self.fallback.recent(key, limit=limit))

    def push_recent(self, key: str, value: bytes, *, limit: int, ttl_s: float) -> None:
        self.fallback.push_recent(key, value, limit=limit, ttl_s=ttl_s)
        full, px = self.prefix + key, max(1, int(ttl_s * 1000))

        async def op(r: Redis) -> None:
            async with r.pipeline(transaction=False) as pipe:
                pipe.lpush(full, value)
                pipe.ltrim(full, 0, limit - 1)
                pipe.pexpire(full, px)
                await pipe.execute()

        self._call(op, lambda: None)

    def close(self) -> None:
        """Closes the pool and stops the loop thread; later calls use the LRU only."""
        self._closed = True
        self._finalizer()

    def __enter__(self) -> RedisCache:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # ---- internals -----------------------------------------------------------------------------

    def _make_client(self, url: str, *, socket_timeout_s: float, max_connections: int) -> Redis:
        from redis.asyncio import BlockingConnectionPool, Redis
        from redis.asyncio.retry import Retry
        from redis.backoff import NoBackoff

        try:
            pool = BlockingConnectionPool.from_url(
                url,
                max_connections=max_connections,
                timeout=socket_timeout_s,
                socket_timeout=socket_timeout_s,
                socket_connect_timeout=socket_timeout_s,
                # One immediate retry re-dials a pooled connection the server dropped (a restart);
                # more would only stretch an outage past the deadline.
                retry=Retry(NoBackoff(), 1),
            )
        except (ValueError, TypeError) as exc:
            # `from None`: the original message may quote the URL, password included.
            raise ConfigError(f"cache.redis_url is not a usable Redis URL ({type(exc).__name__})") from None
        return Redis.from_pool(pool)

    def _call(self, op: Callable[[Redis], Coroutine[Any, Any, _T]], fallback: Callable[[], _T]) -> _T:
        if not self._due():
            return fallback()
        coro = op(self._client)
        try:
            future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        except RuntimeError:  # closed from another thread meanwhile
            coro.close()
            return fallback()
        try:
            result = future.result(timeout=self._deadline_s)
        except Exception as exc:  # any failure at all: degrade, never fail
            future.cancel()
            self._went_down(exc)
            return fallback()
        self._came_back()
        return result

    def _due(self) -> bool:
        """Whether to try Redis now; while down, only one caller per back-off gets to probe."""
        if self._closed:
            return False
        if self._down_since is None:
            return True
        with self._lock:
            now = self._clock()
            if now < self._retry_at:
                return False
            self._retry_at = now + self._backoff[2]
            return True

    def _went_down(self, exc: BaseException) -> None:
        with self._lock:
            first, now = self._down_since is None, self._clock()
            base, cap, current = self._backoff
            wait = base if first else min(cap, current * 2)
            self._backoff = (base, cap, wait)
            self._retry_at = now + wait
            if first:
                self._down_since = now
        if first:
            self._stats.degraded()
            log.warning(
                "redis cache at %s unavailable (%s); using the in-process LRU until it returns",
                self.location,
                type(exc).__name__,
            )
        else:
            log.debug("redis cache at %s still unavailable (%s)", self.location, type(exc).__name__)

    def _came_back(self) -> None:
        if self._down_since is None:
            return
        with self._lock:
            since, self._down_since = self._down_since, None
            self._backoff = (self._backoff[0], self._backoff[1], self._backoff[0])
        if since is not None:
            log.info("redis cache at %s is back after %.1f s", self.location, self._clock() - since)


def _shutdown(loop: asyncio.AbstractEventLoop, thread: threading.Thread, client: Redis) -> None:
    """Closes the client on its loop, then stops and closes the loop; safe to call twice."""
    if loop.is_closed():
        return
    try:
        asyncio.run_coroutine_threadsafe(client.aclose(), loop).result(timeout=2.0)
    except Exception:  # closing a pool whose server is gone may fail; the sockets close anyway
        log.debug("redis cache: error while closing the pool", exc_info=False)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=2.0)
    if not thread.is_alive():
        loop.close()


def open_cache(settings: CacheSettings, *, prefix: str = "wp:", retry_after_s: float = 1.0) -> Cache:
    """Redis (with the LRU behind it) when `settings.redis_url` is set, else the LRU alone."""
    if settings.redis_url is None:
        return LruCache(max_items=settings.lru_size)
    return RedisCache(
        settings.redis_url.get_secret_value(),
        prefix=prefix,
        socket_timeout_s=settings.socket_timeout_s,
        lru_size=settings.lru_size,
        retry_after_s=retry_after_s,
    )

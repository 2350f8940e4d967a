"""A recording HTTP proxy in front of an OpenAI-compatible server: what a user would measure with.

Every request is forwarded unchanged to `upstream` and recorded with its start and end times, its
status and the usage the server reported, so a test or `make run-llm` can count the sequential round
trips of one answer (`round_trips`, concurrent requests count once) and check them against `stats`.

Usage::

    with RecordingProxy(upstream="http://127.0.0.1:8080") as proxy:
        settings.models.verification.base_url = proxy.url       # "http://127.0.0.1:PORT/v1"
        ...
        proxy.round_trips(), proxy.tokens(), [r.status for r in proxy.requests]
"""

from __future__ import annotations

import http.client
import threading
import time
import urllib.error
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import orjson

from lab.llm_fake import FakeLLMServer, Recorded

__all__ = ["RecordingProxy"]

# Long enough for any request a test or the demo sends; the client's own timeout hangs up first.
_UPSTREAM_TIMEOUT_S = 600.0


class RecordingProxy:
    def __init__(self, *, upstream: str) -> None:
        # "http://host:port" or ".../v1": requests keep their own path.
        self.upstream = upstream.rstrip("/").removesuffix("/v1")
        self.requests: list[Recorded] = []
        self.replies: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._arrived = threading.Event()
        self._in_flight = 0
        self._idle = threading.Condition(self._lock)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def round_trips(self) -> int:
        return FakeLLMServer.depth(self.requests)

    def tokens(self) -> tuple[int, int]:
        """Prompt and completion tokens the server reported, over all answered requests."""
        with self._lock:
            usage = [r.get("usage") or {} for r in self.replies]
        return sum(int(u.get("prompt_tokens", 0)) for u in usage), sum(
            int(u.get("completion_tokens", 0)) for u in usage
        )

    def wait_in_flight(self, *, timeout_s: float) -> bool:
        """Wait until a request has reached the proxy (it is then on its way to the upstream)."""
        return self._arrived.wait(timeout_s)

    def wait_idle(self, *, timeout_s: float) -> bool:
        """Wait until every request that arrived is answered and recorded (a client that timed out
        has hung up, but its request is still on the upstream and is recorded when it returns)."""
        with self._idle:
            return self._idle.wait_for(lambda: self._in_flight == 0, timeout=timeout_s)

    def clear(self) -> None:
        with self._lock:
            self.requests.clear()
            self.replies.clear()

    def start(self) -> RecordingProxy:
        threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="llm-proxy", daemon=True
        ).start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> RecordingProxy:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _begin(self) -> None:
        with self._lock:
            self._in_flight += 1
        self._arrived.set()

    def _record(self, rec: Recorded, reply: dict[str, Any] | None) -> None:
        with self._idle:
            self.requests.append(rec)
            if reply is not None:
                self.replies.append(reply)
            self._in_flight -= 1
            self._idle.notify_all()


def _handler_for(proxy: RecordingProxy) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            started = time.perf_counter()
            proxy._begin()
            data = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            request = urllib.request.Request(
                proxy.upstream + self.path,
                data=data,
                headers={
                    "Content-Type": "application/json",
                    "Authorization": self.headers.get("Authorization", ""),
                },
                method="POST",
            )
            try:
                with urllib.request.urlopen(request, timeout=_UPSTREAM_TIMEOUT_S) as response:
                    status, out = response.status, response.read()
            except urllib.error.HTTPError as exc:
                status, out = exc.code, exc.read()
            except (urllib.error.URLError, OSError, http.client.HTTPException) as exc:
                # The upstream died or refused: the client sees a 502, as behind any gateway.
                status, out = 502, orjson.dumps({"error": {"message": f"upstream: {exc}", "type": "proxy"}})
            reply = _json(out) if status == 200 else None
            body = _json(data) or {}
            proxy._record(
                Recorded(body, dict(self.headers.items()), started, time.perf_counter(), status), reply
            )
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)
            except (BrokenPipeError, ConnectionResetError):
                return  # the client timed out and hung up

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

    return Handler


def _json(data: bytes) -> dict[str, Any] | None:
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    return obj if isinstance(obj, dict) else None

"""Runs the HTTP API on uvicorn until a signal, then drains: in-flight requests finish, new ones get 503.

Usage::

    serve(pipeline, settings=settings, host="127.0.0.1", port=8080)     # blocks; closes the pipeline

    server = DrainingServer(uvicorn.Config(app, port=8080), state=state, grace_s=30.0)
    server.run()            # in a thread too (tests); `server.handle_exit(signal.SIGTERM, None)` drains
"""

from __future__ import annotations

import logging
from types import FrameType
from typing import Any

import uvicorn

from workers.server.app import create_app
from workers.server.state import ServeState
from workers.settings import Settings

__all__ = ["DrainingServer", "serve"]

log = logging.getLogger(__name__)


class DrainingServer(uvicorn.Server):
    """uvicorn's server, but the first SIGTERM/SIGINT drains instead of stopping; a second stops at once.

    Draining: `state.draining` is set, so /readyz answers 503 and new requests get 503; once nothing is
    in flight (or `grace_s` has passed) the server stops as uvicorn does. The signal is not re-raised
    afterwards, so a drained process exits 0.
    """

    def __init__(self, config: uvicorn.Config, *, state: ServeState, grace_s: float) -> None:
        super().__init__(config)
        self.state = state
        self.grace_s = grace_s

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.state.draining:
            self.should_exit = self.force_exit = True
            return
        log.info("draining: %d request(s) in flight, new ones get 503", self.state.in_flight)
        self.state.start_draining()

    async def on_tick(self, counter: int) -> bool:
        if self.state.drained(grace_s=self.grace_s):
            self.should_exit = True
        return await super().on_tick(counter)


def serve(pipeline: Any, *, settings: Settings, host: str, port: int, log_level: str = "info") -> None:
    """Serves until SIGTERM/SIGINT, then drains and closes `pipeline` (when it has `close`)."""
    config = settings.server
    state = ServeState(
        max_concurrency=config.max_concurrency, max_queue=config.max_queue, retry_after_s=config.retry_after_s
    )
    app = create_app(
        pipeline=pipeline, settings=settings, state=state, on_close=getattr(pipeline, "close", None)
    )
    uv_config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=max(1, int(config.shutdown_grace_s)),
        lifespan="on",
        ws="none",  # no WebSocket routes
    )
    DrainingServer(uv_config, state=state, grace_s=config.shutdown_grace_s).run()

"""Makes faust's producer flush wait until its buffer is really handed to the Kafka client.

Usage::

    flush_producer_buffer_fully()    # once per process, before the apps start

faust queues table changelog writes (the correction agent's gather state) in a `ProducerBuffer` that a
background task hands to the Kafka client one at a time. Before each offset commit, and when the app
stops, faust calls `Producer.flush()`: the buffer, then the client. The installed faust's buffer flush
returns as soon as no message went out for 0.1 s, however many are still queued, and at stop it raises
instead of draining ("Cannot flush: Producer not Running"), so what is left is dropped. On busy cores
the buffer often holds a hundred writes ("producer buffer full size 103"), so offsets can be committed
for verdicts whose gather-state writes have not gone out yet, and a stop drops the writes still queued:
a restarted correction worker would then wait for verdicts it had already consumed. (The answers lost
in the SIGTERM test runs were traced to a different fault, see seeking.py; this one is shown by
tests/agents/test_flushing.py against faust's own buffer.)

With this patch `flush()` returns once every message queued before the call has been handed to the
Kafka client, in order: a marker goes through the same queue behind them. When the background task is
no longer running (the buffer is stopping), the flush hands the rest over itself. The per-batch flush
faust uses for back-pressure (`flush_atmost(n)`) is left as it is. Switches itself off (with a warning)
when faust's buffer no longer has the parts this relies on, or for `producer_threaded` apps.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["flush_producer_buffer_fully"]

log = logging.getLogger(__name__)

# How long one wait for the background task lasts before checking it is still alive, and how long
# the queue may stand still before the flush gives up on it.
_POLL_S = 1.0
_STALL_S = 30.0


def flush_producer_buffer_fully() -> bool:
    """Install once (idempotent); False when faust's ProducerBuffer changed shape."""
    from faust.transport.producer import ProducerBuffer

    flush: Any = getattr(ProducerBuffer, "flush", None)
    if flush is None or not hasattr(ProducerBuffer, "_send_pending"):
        log.warning("faust ProducerBuffer changed; its flush may return with messages still queued")
        return False
    if getattr(flush, "__woodpecker__", False):
        return True
    ProducerBuffer.flush = _draining(flush)  # type: ignore[method-assign,assignment]
    return True


class _Marker:
    """Stands in for a FutureMessage: the buffer's task 'sends' it by calling publish_message."""

    def __init__(self) -> None:
        self.passed = asyncio.Event()
        self.message = self  # FutureMessage.message.channel.publish_message(fut, wait=False)
        self.channel = self

    async def publish_message(self, fut: Any, wait: bool = False) -> None:
        self.passed.set()


def _draining(original: Callable[[Any], Awaitable[None]]) -> Callable[[Any], Awaitable[None]]:
    @functools.wraps(original)
    async def flush(self: Any) -> None:
        app = getattr(self, "app", None)
        pending = getattr(self, "pending", None)
        if not isinstance(pending, asyncio.Queue) or (app is not None and app.conf.producer_threaded):
            await original(self)
            return
        if _stopping(self):
            await _hand_over(self, pending)  # the buffer's task takes nothing more
            return
        marker = _Marker()
        pending.put_nowait(marker)
        await _wait_for_marker(self, pending, marker)

    flush.__woodpecker__ = True  # type: ignore[attr-defined]
    return flush


def _stopping(buffer: Any) -> bool:
    return bool(buffer.should_stop) or buffer.state != "running"


async def _wait_for_marker(buffer: Any, pending: asyncio.Queue[Any], marker: _Marker) -> None:
    left, stalled_s = pending.qsize(), 0.0
    while not marker.passed.is_set():
        if _stopping(buffer):
            await _hand_over(buffer, pending)
            return
        try:
            await asyncio.wait_for(marker.passed.wait(), timeout=_POLL_S)
        except TimeoutError:
            now = pending.qsize()
            stalled_s = stalled_s + _POLL_S if now >= left else 0.0
            left = now
            if stalled_s >= _STALL_S:
                # The buffer's task is gone without the buffer stopping: faust's own flush would not
                # have waited either. Say so rather than hold every commit of this worker.
                log.warning("producer buffer stalled with %d messages queued; flush gives up", now)
                return


async def _hand_over(buffer: Any, pending: asyncio.Queue[Any]) -> None:
    """Send what is queued from here, in order (the buffer's task takes nothing more once stopping)."""
    while not pending.empty():
        fut = pending.get_nowait()
        if not isinstance(fut, _Marker):
            await buffer._send_pending(fut)

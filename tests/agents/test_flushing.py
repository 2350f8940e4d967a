"""faust's ProducerBuffer flush, patched (workers/agents/flushing.py): it returns only once every queued
message went to the Kafka client, in order, and a stopping buffer hands its rest over instead of dropping it.

Runs faust's real ProducerBuffer service; a slow channel stands in for the Kafka client.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from types import SimpleNamespace
from typing import Any

import pytest
from faust.transport.producer import ProducerBuffer

from workers.agents.flushing import flush_producer_buffer_fully

# Longer than the 0.1 s after which faust's own flush gives up.
SEND_S = 0.15


class SlowChannel:
    def __init__(self) -> None:
        self.sent: list[int] = []

    async def publish_message(self, fut: Any, wait: bool = False) -> None:
        await asyncio.sleep(SEND_S)
        self.sent.append(fut.n)


def _message(n: int, channel: SlowChannel) -> Any:
    return SimpleNamespace(n=n, message=SimpleNamespace(channel=channel))


@pytest.fixture
async def buffer() -> AsyncIterator[ProducerBuffer]:
    assert flush_producer_buffer_fully()
    running = ProducerBuffer()
    running.app = SimpleNamespace(conf=SimpleNamespace(producer_threaded=False))  # type: ignore[assignment]
    await running.start()
    yield running
    if not running.should_stop:
        await running.stop()


async def test_flush_waits_until_every_queued_message_went_out_in_order(buffer: ProducerBuffer) -> None:
    channel = SlowChannel()
    for n in range(5):
        buffer.put(_message(n, channel))
    started = time.monotonic()
    await buffer.flush()
    assert channel.sent == [0, 1, 2, 3, 4]
    assert buffer.size == 0
    assert time.monotonic() - started >= 4 * SEND_S  # it waited, instead of giving up after 0.1 s


async def test_a_stopping_buffer_hands_over_what_is_queued_instead_of_dropping_it(
    buffer: ProducerBuffer,
) -> None:
    channel = SlowChannel()
    for n in range(4):
        buffer.put(_message(n, channel))
    await buffer.stop()  # faust's own on_stop raised "Cannot flush: Producer not Running" here
    assert sorted(channel.sent) == [0, 1, 2, 3]
    assert buffer.size == 0


async def test_flushing_an_empty_buffer_returns_at_once(buffer: ProducerBuffer) -> None:
    started = time.monotonic()
    await buffer.flush()
    assert time.monotonic() - started < 1.0


def test_installing_is_idempotent() -> None:
    assert flush_producer_buffer_fully()
    patched = ProducerBuffer.flush
    assert flush_producer_buffer_fully()
    assert ProducerBuffer.flush is patched
    assert getattr(patched, "__woodpecker__", False)

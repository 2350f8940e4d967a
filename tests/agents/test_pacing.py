"""Empty fetches are paced (the embedded broker answers them at once); fetches with records are not."""

from __future__ import annotations

import asyncio
import time

from aiokafka.consumer import fetcher

from workers.agents.pacing import _paced, pace_empty_fetches


async def _fetch(result: bool) -> bool:
    return result


async def test_an_empty_fetch_waits_out_the_interval() -> None:
    paced = _paced(lambda _self: _fetch(False), 0.05)
    started = time.monotonic()
    assert await paced(object()) is False
    assert time.monotonic() - started >= 0.045


async def test_a_fetch_with_records_returns_at_once() -> None:
    paced = _paced(lambda _self: _fetch(True), 5.0)
    assert await asyncio.wait_for(paced(object()), timeout=1.0) is True


async def test_cancelling_a_paused_fetch_ends_it_quietly_like_aiokafka_does() -> None:
    task = asyncio.ensure_future(_paced(lambda _self: _fetch(False), 5.0)(object()))
    await asyncio.sleep(0.01)
    task.cancel()
    assert await task is False


def test_installing_twice_wraps_once_and_zero_restores_the_original() -> None:
    original = fetcher.Fetcher._proc_fetch_request
    try:
        assert pace_empty_fetches(0.0)
        unpaced = fetcher.Fetcher._proc_fetch_request
        assert pace_empty_fetches(0.05) and pace_empty_fetches(0.02)
        assert fetcher.Fetcher._proc_fetch_request.__wrapped_unpaced__ is unpaced
        assert pace_empty_fetches(0.0)
        assert fetcher.Fetcher._proc_fetch_request is unpaced
    finally:
        fetcher.Fetcher._proc_fetch_request = original

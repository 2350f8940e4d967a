"""Stops the fetch flow while table recovery hands the source partitions back, so no record is skipped.

Usage::

    stop_flow_before_stream_seek()    # once per process, before the apps start

At the end of table recovery faust resumes the source partitions, seeks them to their committed
offsets and clears the streams' queues (`Recovery.on_recovery_completed`), all while the fetch flow is
still on: recovery turned it on to read the changelogs. A batch the fetch loop took before the seek goes
on being delivered after it. Its next record X is then compared with the read offset the seek set (the
committed offset C): faust takes the distance for offsets the broker skipped, marks C+1..X as done
(`Consumer._add_gap`) and delivers X; the records before X, fetched again from C, are dropped as
already read, and the commit moves past them (`Consumer._new_offset` lets the first acked offset be C+1).
Those in the queue the resume cleared were never handled: a verdict committed by the correction worker
without reaching its gather state, its answer never out. Seen in 4 of 16 runs of the SIGTERM test
(tests/agents/test_faults.py: the lost answer's last verdict below the committed offset, its gather
state without it), with the read-offset patch (seeking.py) in place, which drops only the one stale
write and not the rest of the batch.

With this patch the flow is stopped first, as faust itself does before a revocation: the fetch loop's
batch stops at the next record (`Consumer.getmany` checks the flow per record), a delivery waiting on a
full queue is abandoned (`suspend_flow`), and a batch fetched meanwhile is dropped and sought back. faust
turns the flow on again after its seek, as before. If faust returns early (another rebalance began),
the flow stays off until that rebalance's recovery ends, which resumes it.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["stop_flow_before_stream_seek"]

log = logging.getLogger(__name__)


def stop_flow_before_stream_seek() -> bool:
    """Install once (idempotent); False when faust's recovery changed shape.

    Usage::

        assert stop_flow_before_stream_seek()    # Recovery.on_recovery_completed stops the flow first
    """
    from faust.tables import recovery

    cls: Any = recovery.Recovery
    done = getattr(cls, "on_recovery_completed", None)
    if done is None or not hasattr(cls, "_restart_recovery"):
        log.warning("faust Recovery changed; a batch fetched before the stream seek may skip records")
        return False
    if not getattr(done, "__woodpecker__", False):
        cls.on_recovery_completed = _flow_stopped_first(done)
    return True


def _flow_stopped_first(done: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
    @functools.wraps(done)
    async def on_recovery_completed(self: Any, generation_id: int = 0) -> None:
        self.app.consumer.stop_flow()  # faust resumes it after seeking the stream partitions
        await done(self, generation_id)

    on_recovery_completed.__woodpecker__ = True  # type: ignore[attr-defined]
    return on_recovery_completed

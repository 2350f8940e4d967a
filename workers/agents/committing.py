"""Keeps faust's commit below every record still in flight, so acks out of order lose nothing.

Usage::

    commit_below_records_in_flight()    # once per process, before the apps start

An agent with concurrency above 1 (`kafka.verification_concurrency`) works on several records of a
partition at once, and a later one can be acked first. faust commits the end of the first run of
consecutive acked offsets (`Consumer._new_offset`), and refuses a run that starts two or more past the
committed offset, but not one that starts one past it (and checks nothing while the committed offset is
0 or unknown). So with record C in flight and C+1 acked, it commits C+2: a graceful stop still waits for C
(`wait_empty`), but a crash in that moment loses it, and its claim's verdict never comes.
`tests/agents/test_compat.py` runs the pinned faust's own method on that state. Upstream:
https://github.com/faust-streaming/faust/issues/606 (open PR 707 caps the commit the same way).

With this patch a partition's commit waits while the lowest acked offset lies above a record of that
partition still in flight: one a stream took (faust tracks it in `Consumer._unacked_messages`) and did
not ack. Left out of "in flight" are records below the committed offset and offsets already acked by
another copy of the record: a record taken before a seek or a revocation and then dropped unacked
stays in faust's set while something refers to it, and must not hold the commit for ever. Below the
lowest record in flight faust's own run-finding is right, so it runs unchanged.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any

__all__ = ["commit_below_records_in_flight", "lowest_in_flight"]

log = logging.getLogger(__name__)

# faust's commit state this reads: records taken and not acked, acked offsets, committed offsets.
_STATE = ("_unacked_messages", "_acked_index", "_committed_offset", "_acked")


def commit_below_records_in_flight() -> bool:
    """Install once (idempotent); False when faust's Consumer changed shape.

    Usage::

        assert commit_below_records_in_flight()    # Consumer._new_offset now waits for records in flight
    """
    from faust.transport import consumer

    cls: Any = consumer.Consumer
    new_offset = getattr(cls, "_new_offset", None)
    declared = getattr(cls, "__annotations__", {})  # instance attributes, declared on the class
    if new_offset is None or not all(name in declared for name in _STATE):
        log.warning("faust Consumer changed; a commit may pass a record still in flight")
        return False
    if not getattr(new_offset, "__woodpecker__", False):
        cls._new_offset = _held_below_in_flight(new_offset)
    return True


def lowest_in_flight(consumer: Any, tp: Any) -> int | None:
    """The lowest offset of `tp` a stream took and did not ack, ignoring records already settled.

    Usage::

        lowest_in_flight(app.consumer, tp)   # None: nothing of tp is being worked on
    """
    committed = consumer._committed_offset[tp]
    done = consumer._acked_index[tp]
    offsets = [
        message.offset
        for message in list(consumer._unacked_messages)  # a WeakSet: copy before reading
        if message.tp == tp
        and not message.acked
        and message.offset not in done
        and (committed is None or message.offset >= committed)
    ]
    return min(offsets, default=None)


def _held_below_in_flight(new_offset: Callable[[Any, Any], int | None]) -> Callable[[Any, Any], int | None]:
    @functools.wraps(new_offset)
    def _new_offset(self: Any, tp: Any) -> int | None:
        acked = self._acked[tp]
        floor = lowest_in_flight(self, tp) if acked else None
        if floor is not None and min(acked) > floor:
            return None  # the run would start past a record in flight; commit once that one is acked
        return new_offset(self, tp)

    _new_offset.__woodpecker__ = True  # type: ignore[attr-defined]
    return _new_offset

"""Keeps faust's fetch loop from undoing a seek, which silently skipped records after a restart.

Usage::

    keep_read_offsets_after_seek()    # once per process, before the apps start

faust remembers per partition the offset of the last record its fetch loop handed to the streams
(`Consumer._read_offset`) and drops any fetched record below it as already read. When partitions are
assigned, faust seeks them back to the committed offsets and resets these read offsets. The fetch loop
writes a record's offset after the record's delivery returns, and that delivery can be waiting (a full
stream buffer, flow control) across the seek: the loop then writes a read offset from before the seek
over the one the seek set. Measured in the correction worker restarted mid-stream (table recovery
seeks after the fetch loop has started): the seek set partition 2 to 139, the fetch loop then wrote
198, and records 139-197, fetched again, were dropped as already read. They were never processed or
committed, so that partition's commit stood still and their answers never came out: answers lost in
5 of 25 SIGTERM test runs of 1,000 answers (3 of 6 runs without tracing), traced with the commits,
seeks and flow events of each process. With the patch: none in 8 runs; in 3 of them a stale write was
caught and ignored.

With this patch a read offset the fetch loop writes is ignored when a seek (or a revocation) touched
that partition after the loop read the value it compared against; every other write passes as before.
A record delivered just before such a seek is then fetched and processed again, which at-least-once
delivery and the idempotent agents allow for. The fetch loop is told apart by how it reaches the
mapping, not by frames or tasks: faust's `Consumer._drain_messages` binds `_read_offset.__getitem__` and
`.__setitem__` once, at its start, and calls those bound methods; every other reader and writer (seeks,
`perform_seek`, revocations) uses `[]`, `update`, `pop` and `del`, which go through the type's slots. So
the bound accessors this mapping hands out are the loop's, and only the loop's. A test drives the pinned
faust's own fetch loop to prove it still binds them so. Switches itself off (with a warning) when faust's
consumer no longer has the parts this relies on.
"""

from __future__ import annotations

import functools
import logging
from collections import defaultdict
from collections.abc import Callable, Iterable
from typing import Any

__all__ = ["ReadOffsets", "keep_read_offsets_after_seek"]

log = logging.getLogger(__name__)


def keep_read_offsets_after_seek() -> bool:
    """Install once (idempotent); False when faust's Consumer changed shape.

    Usage::

        assert keep_read_offsets_after_seek()    # Consumer.__init__ now makes its read offsets ReadOffsets
    """
    from faust.transport import consumer

    cls: Any = consumer.Consumer
    if getattr(cls, "_drain_messages", None) is None or not hasattr(cls, "perform_seek"):
        log.warning("faust Consumer changed; a seek during delivery may still skip records")
        return False
    if not getattr(cls.__init__, "__woodpecker__", False):
        cls.__init__ = _with_read_offsets(cls.__init__)
    return True


class ReadOffsets(defaultdict[Any, int | None]):
    """faust's read offsets, with a seek count per partition.

    The fetch loop reads a partition's offset before it delivers a record and writes the record's offset
    after, through the accessors it binds (`offsets.__getitem__`, `offsets.__setitem__`); a write whose
    read came before the latest seek of that partition is stale and ignored. Everything else (`[]`,
    `[] =`, `update`, `pop`, `del`) is a plain read or a seek::

        get, put = offsets.__getitem__, offsets.__setitem__   # as faust's fetch loop binds them
        read = get(tp); ...; put(tp, offset)                  # ignored if a seek came in between
    """

    def __init__(self, items: Iterable[tuple[Any, int | None]] = ()) -> None:
        super().__init__(lambda: None, items)
        self._seeks: dict[Any, int] = {}
        self._read_at: dict[Any, int] = {}
        self.stale_writes = 0

    def __getattribute__(self, name: str) -> Any:
        # Only an explicit attribute lookup reaches here for these two (`x[k]` uses the type's slots):
        # that is how faust's fetch loop takes them, so it gets the checked accessors.
        if name == "__getitem__":
            return object.__getattribute__(self, "_loop_read")
        if name == "__setitem__":
            return object.__getattribute__(self, "_loop_write")
        return super().__getattribute__(name)

    def __missing__(self, tp: Any) -> None:
        return None  # as faust's defaultdict(lambda: None), without inserting (an insert is no seek)

    def __setitem__(self, tp: Any, offset: int | None) -> None:
        self._seeked(tp)  # a write from outside the fetch loop: Consumer.seek
        super().__setitem__(tp, offset)

    def __delitem__(self, tp: Any) -> None:
        self._seeked(tp)
        super().__delitem__(tp)

    def pop(self, tp: Any, *default: Any) -> Any:
        self._seeked(tp)
        return super().pop(tp, *default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        changes = dict(*args, **kwargs)
        for tp in changes:
            self._seeked(tp)
        super().update(changes)

    def _loop_read(self, tp: Any) -> int | None:
        self._read_at[tp] = self._seeks.get(tp, 0)
        return self[tp]

    def _loop_write(self, tp: Any, offset: int | None) -> None:
        if self._read_at.pop(tp, None) != self._seeks.get(tp, 0):
            self.stale_writes += 1
            return
        dict.__setitem__(self, tp, offset)

    def _seeked(self, tp: Any) -> None:
        self._seeks[tp] = self._seeks.get(tp, 0) + 1


def _with_read_offsets(init: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._read_offset = ReadOffsets(self._read_offset.items())

    __init__.__woodpecker__ = True  # type: ignore[attr-defined]
    return __init__

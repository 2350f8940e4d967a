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
delivery and the idempotent agents allow for. The fetch loop is told apart by its task, not by its
frame: the patched `Consumer._drain_messages` marks the task it runs in, and only reads and writes made
in that task count as the loop's (seeks come from the rebalance and recovery tasks, or faust's consumer
thread). Switches itself off (with a warning) when faust's consumer no longer has the parts this relies on.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any

__all__ = ["ReadOffsets", "keep_read_offsets_after_seek"]

log = logging.getLogger(__name__)

_Loop = Callable[[Any, Any], Awaitable[None]]


def keep_read_offsets_after_seek() -> bool:
    """Install once (idempotent); False when faust's Consumer changed shape.

    Usage::

        assert keep_read_offsets_after_seek()    # Consumer.__init__ and _drain_messages now wrapped
    """
    from faust.transport import consumer

    cls: Any = consumer.Consumer
    loop: Any = getattr(cls, "_drain_messages", None)
    if loop is None or not hasattr(cls, "perform_seek"):
        log.warning("faust Consumer changed; a seek during delivery may still skip records")
        return False
    if not getattr(cls.__init__, "__woodpecker__", False):
        cls.__init__ = _with_read_offsets(cls.__init__)
    if not getattr(loop, "__woodpecker__", False):
        cls._drain_messages = _marking_fetch_loop(loop)
    return True


class ReadOffsets(defaultdict[Any, int | None]):
    """faust's read offsets, with a seek count per partition.

    The fetch loop reads a partition's offset (`[]`) before it delivers a record and writes the record's
    offset (`[] =`) after; a write whose read came before the latest seek of that partition is stale.
    Seeks and revocations reach the mapping through `update`, `pop`, `del` and writes from other tasks.

        offsets = ReadOffsets()
        with offsets.fetch_loop():        # in the fetch loop's task: its reads and writes are checked
            ...
    """

    def __init__(self, items: Iterable[tuple[Any, int | None]] = ()) -> None:
        super().__init__(lambda: None, items)
        self._seeks: dict[Any, int] = {}
        self._read_at: dict[Any, int] = {}
        self._loop_task: asyncio.Task[Any] | None = None
        self.stale_writes = 0

    @contextlib.contextmanager
    def fetch_loop(self) -> Iterator[None]:
        """Marks the running task as faust's fetch loop while the block runs."""
        task = asyncio.current_task()
        self._loop_task = task
        try:
            yield
        finally:
            if self._loop_task is task:
                self._loop_task = None

    def __missing__(self, tp: Any) -> None:
        return None  # as faust's defaultdict(lambda: None), without inserting (an insert is no seek)

    def __getitem__(self, tp: Any) -> int | None:
        if self._in_fetch_loop():
            self._read_at[tp] = self._seeks.get(tp, 0)
        return super().__getitem__(tp)

    def __setitem__(self, tp: Any, offset: int | None) -> None:
        if self._in_fetch_loop():
            if self._read_at.pop(tp, None) != self._seeks.get(tp, 0):
                self.stale_writes += 1
                return
        else:
            self._seeked(tp)
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

    def _seeked(self, tp: Any) -> None:
        self._seeks[tp] = self._seeks.get(tp, 0) + 1

    def _in_fetch_loop(self) -> bool:
        if self._loop_task is None:
            return False
        try:
            return asyncio.current_task() is self._loop_task
        except RuntimeError:  # no event loop in this thread: faust's consumer thread seeking
            return False


def _with_read_offsets(init: Callable[..., None]) -> Callable[..., None]:
    @functools.wraps(init)
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self._read_offset = ReadOffsets(self._read_offset.items())

    __init__.__woodpecker__ = True  # type: ignore[attr-defined]
    return __init__


def _marking_fetch_loop(drain: _Loop) -> _Loop:
    @functools.wraps(drain)
    async def _drain_messages(self: Any, fetcher: Any) -> None:
        offsets = self._read_offset
        marked = offsets.fetch_loop() if isinstance(offsets, ReadOffsets) else contextlib.nullcontext()
        with marked:
            await drain(self, fetcher)

    _drain_messages.__woodpecker__ = True  # type: ignore[attr-defined]
    return _drain_messages

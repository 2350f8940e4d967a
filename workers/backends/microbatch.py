"""Micro-batching: calls from several threads within a bounded wait share one forward pass.

The first caller of a batch leads it: it waits until the batch holds `max_items` items or `max_wait_s`
has passed, then runs the function once on every caller's items, while later callers join the next
batch. While the model is busy with one batch the next keeps filling, so under load batches grow by
themselves; with one caller and `max_wait_s=0` a call costs what calling the function directly costs.
Each caller gets its own slice of the results, in order, or the batch's exception.

Usage::

    batched = MicroBatcher(model.encode_list, max_items=256, max_wait_s=0.01)
    vectors = batched(["a sentence", "another"])     # from any thread; same results as encode_list
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

__all__ = ["BatchStats", "MicroBatcher", "length_buckets"]

T = TypeVar("T")
R = TypeVar("R")


class BatchStats:
    """Counts of calls and forward passes, to see how well calls coalesce."""

    def __init__(self) -> None:
        self.calls = 0
        self.runs = 0
        self.items = 0


class _Batch(Generic[T, R]):
    def __init__(self) -> None:
        self.items: list[T] = []
        self.results: list[R] = []
        self.error: BaseException | None = None
        self.closed = False
        self.done = threading.Event()


class MicroBatcher(Generic[T, R]):
    """Thread-safe: `batched(items)` returns `fn(items)`'s results, computed in a shared call of `fn`.

    `concurrent` > 1 lets that many calls of `fn` run at once (fn must then be safe to call so).

    `fn` must return one result per item, in order, and give each item the same result whatever it is
    batched with (the caller's job: e.g. fp32 with attention masks, or one pass per group inside `fn`).
    """

    def __init__(
        self,
        fn: Callable[[list[T]], Sequence[R]],
        *,
        max_items: int = 256,
        max_wait_s: float = 0.0,
        concurrent: int = 1,
    ) -> None:
        self._fn = fn
        self._max_items = max_items
        self._max_wait_s = max_wait_s
        self._cond = threading.Condition()
        # At most `concurrent` passes at once: one per core the model's threads leave free.
        self._run_lock = threading.BoundedSemaphore(max(1, concurrent))
        self._open: _Batch[T, R] | None = None
        self.stats = BatchStats()

    def __call__(self, items: Sequence[T]) -> list[R]:
        if not items:
            return []
        batch, start, leader = self._join(items)
        if leader:
            self._lead(batch)
        batch.done.wait()
        if batch.error is not None:
            raise batch.error
        return batch.results[start : start + len(items)]

    def _join(self, items: Sequence[T]) -> tuple[_Batch[T, R], int, bool]:
        with self._cond:
            self.stats.calls += 1
            batch = self._open
            leader = batch is None or len(batch.items) + len(items) > self._max_items
            if batch is None or leader:
                if batch is not None:
                    batch.closed = True  # full: its leader need not wait any longer
                batch = self._open = _Batch()
            start = len(batch.items)
            batch.items.extend(items)
            self._cond.notify_all()
            return batch, start, leader

    def _lead(self, batch: _Batch[T, R]) -> None:
        deadline = time.monotonic() + self._max_wait_s
        with self._cond:
            while not batch.closed and len(batch.items) < self._max_items:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._cond.wait(left)
        with self._run_lock:
            self._run(batch)

    def _run(self, batch: _Batch[T, R]) -> None:
        with self._cond:  # closed now: whoever comes later opens the next batch
            batch.closed = True
            if self._open is batch:
                self._open = None
            self.stats.runs += 1
            self.stats.items += len(batch.items)
        try:
            results = list(self._fn(batch.items))
            if len(results) != len(batch.items):
                raise RuntimeError(f"batched call gave {len(results)} results for {len(batch.items)} items")
            batch.results = results
        except BaseException as exc:  # every caller of the batch gets it, not only the leader
            batch.error = exc
        finally:
            batch.done.set()


def length_buckets(lengths: Sequence[int], *, max_items: int, budget: int) -> list[list[int]]:
    """Indices grouped shortest first so that a bucket's size times its longest text stays within
    `budget` characters (a text counts at most 1,200: the models truncate). One batch pads every text
    to its longest, so a batch of similar lengths wastes little; the embedder's texts and the verifier's
    claim-window pairs both go through it.

    >>> length_buckets([10, 900, 12, 11], max_items=64, budget=100)
    [[0, 3, 2], [1]]
    """
    buckets: list[list[int]] = []
    current: list[int] = []
    for i in sorted(range(len(lengths)), key=lambda j: lengths[j]):
        longest = min(1200, max(1, lengths[i]))
        if current and ((len(current) + 1) * longest > budget or len(current) >= max_items):
            buckets.append(current)
            current = []
        current.append(i)
    return [*buckets, current] if current else buckets

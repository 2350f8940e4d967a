"""The micro-batcher: calls from several threads coalesce, each caller gets its own results in order,
a failure reaches every caller of the batch, and no call waits longer than the bound."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from workers.backends.microbatch import MicroBatcher, length_buckets


class Recorder:
    """Doubles its items, records each batch; `gate` holds the first batch until released."""

    def __init__(self, *, fail_on: int | None = None) -> None:
        self.batches: list[list[int]] = []
        self.gate = threading.Event()
        self.gate.set()
        self._fail_on = fail_on

    def __call__(self, items: list[int]) -> list[int]:
        self.gate.wait(5)
        self.batches.append(list(items))
        if self._fail_on is not None and self._fail_on in items:
            raise ValueError(f"bad item {self._fail_on}")
        return [2 * i for i in items]


def test_a_single_call_is_the_function_itself() -> None:
    fn = Recorder()
    batched = MicroBatcher(fn)
    assert batched([1, 2, 3]) == [2, 4, 6]
    assert batched([]) == []
    assert fn.batches == [[1, 2, 3]]


def test_calls_within_the_wait_share_one_pass_and_get_their_own_results() -> None:
    fn = Recorder()
    batched = MicroBatcher(fn, max_wait_s=0.5, max_items=12)
    inputs = [[10 * k + i for i in range(3)] for k in range(4)]
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(batched, inputs))
    assert results == [[2 * i for i in items] for items in inputs]
    assert len(fn.batches) == 1  # 4 callers x 3 items filled the batch: one pass, no waiting it out
    assert sorted(fn.batches[0]) == sorted(i for items in inputs for i in items)
    assert batched.stats.calls == 4 and batched.stats.runs == 1


def test_calls_arriving_while_the_model_is_busy_go_together_in_the_next_pass() -> None:
    fn = Recorder()
    fn.gate.clear()  # the first pass blocks, as a long forward pass would
    batched = MicroBatcher(fn, max_wait_s=0.0)
    with ThreadPoolExecutor(4) as pool:
        first = pool.submit(batched, [0])
        while not batched.stats.runs:
            time.sleep(0.001)
        later = [pool.submit(batched, [k]) for k in (1, 2, 3)]
        while batched.stats.calls < 4:
            time.sleep(0.001)
        fn.gate.set()
        assert first.result() == [0]
        assert [f.result() for f in later] == [[2], [4], [6]]
    assert fn.batches[0] == [0]
    assert sorted(fn.batches[1]) == [1, 2, 3]


def test_the_wait_is_bounded() -> None:
    batched = MicroBatcher(Recorder(), max_wait_s=0.05, max_items=1000)
    start = time.perf_counter()
    assert batched([1]) == [2]
    assert time.perf_counter() - start < 1.0


def test_an_exception_reaches_every_caller_of_the_batch() -> None:
    fn = Recorder(fail_on=13)
    batched = MicroBatcher(fn, max_wait_s=0.5, max_items=3)
    with ThreadPoolExecutor(3) as pool:
        futures = [pool.submit(batched, [k]) for k in (11, 12, 13)]
        for f in futures:
            with pytest.raises(ValueError, match="bad item 13"):
                f.result()
    assert batched([4]) == [8]  # the batcher still works after a failed batch


def test_a_function_giving_the_wrong_number_of_results_is_an_error() -> None:
    batched: MicroBatcher[int, int] = MicroBatcher(lambda items: items[:-1])
    with pytest.raises(RuntimeError, match="1 results for 2 items"):
        batched([1, 2])


def test_a_full_batch_closes_and_the_next_caller_opens_another() -> None:
    fn = Recorder()
    batched = MicroBatcher(fn, max_wait_s=0.2, max_items=2)
    with ThreadPoolExecutor(4) as pool:
        results = list(pool.map(batched, [[1], [2], [3], [4]]))
    assert results == [[2], [4], [6], [8]]
    assert all(len(b) <= 2 for b in fn.batches)


def test_concurrent_passes_run_side_by_side() -> None:
    both = threading.Barrier(2, timeout=5)

    def fn(items: list[int]) -> list[int]:
        both.wait()  # only returns when the other pass is running at the same time
        return items

    batched = MicroBatcher(fn, max_items=1, concurrent=2)
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(batched, [[1], [2]])) == [[1], [2]]
    assert batched.stats.runs == 2


def test_length_buckets_cover_every_text_once_within_the_budget() -> None:
    lengths = [40, 900, 35, 2000, 60, 38, 45, 880]
    buckets = length_buckets(lengths, max_items=3, budget=2000)
    assert sorted(i for b in buckets for i in b) == list(range(len(lengths)))
    for bucket in buckets:
        assert len(bucket) <= 3
        # Only a lone text may exceed the budget (it is truncated by the model anyway).
        assert len(bucket) == 1 or len(bucket) * min(1200, max(lengths[i] for i in bucket)) <= 2000
    # The long texts are not padded into the short ones' batch.
    assert all(({1, 7, 3} & set(b)) == set() for b in buckets if 0 in b)

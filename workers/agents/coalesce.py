"""Claim records in flight in one verification worker share their verify calls.

Usage::

    queue = VerifyQueue()                     # one per worker (`AgentContext.verify_queue`)
    call = partial(ctx.blocking, ctx.pipeline.verify_each)
    checked = await queue.verify(tasks, llm_s=0.0, call=call, calls=2)   # from each record's handler

A claim record holds up to `kafka.claims_per_record` claims of one answer (one each before claim.v2):
verified alone, a one-claim record's verifier pass holds three pairs, and each record costs a
hand-off to a pipeline thread. Under a burst the worker has `kafka.verification_concurrency`
records in flight but only `kafka.verification_calls` calls running; the records that come in while the
calls run wait here, and the next call takes all of them (`Pipeline.verify_each`), so a burst gets the
batch CLI's batches. Nothing waits on purpose: a record that finds a call free goes at once, so a lone
answer's latency is unchanged.

A shared call that fails is run again one record at a time, so a record that breaks the verifier fails
alone and its batch-mates are answered (each handler then retries or dead-letters its own record).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from workers.messages import Checked, ClaimTask

__all__ = ["Call", "VerifyQueue"]

# One verify call for several records' (tasks, llm_s): `Pipeline.verify_each` off the event loop.
Call = Callable[[list[tuple[Sequence[ClaimTask], float]]], Awaitable[list[Checked]]]


@dataclass(eq=False)
class _Waiting:
    tasks: Sequence[ClaimTask]
    llm_s: float
    result: asyncio.Future[Checked]


@dataclass(eq=False)
class VerifyQueue:
    """The worker's waiting records and how many verify calls are running (event-loop state only)."""

    waiting: list[_Waiting] = field(default_factory=list)
    running: int = 0  # drain loops started
    busy: int = 0  # of them, those inside a call
    # Claims per call, for `counts` and the tests: how well the records coalesce.
    calls: int = 0
    claims: int = 0
    _drains: set[asyncio.Future[None]] = field(default_factory=set, repr=False)

    async def verify(self, tasks: Sequence[ClaimTask], *, llm_s: float, call: Call, calls: int) -> Checked:
        """`tasks` verified by `call`, shared with whatever waits beside them; at most `calls` at once."""
        result: asyncio.Future[Checked] = asyncio.get_running_loop().create_future()
        self.waiting.append(_Waiting(tasks=tasks, llm_s=llm_s, result=result))
        self._start(call, calls)
        return await result

    def _start(self, call: Call, calls: int) -> None:
        if self.running < min(calls, self.busy + len(self.waiting)):
            self.running += 1
            drain = asyncio.ensure_future(self._drain(call, calls))
            self._drains.add(drain)  # a reference, so the task is not collected mid-run
            drain.add_done_callback(self._drains.discard)

    async def _drain(self, call: Call, calls: int) -> None:
        try:
            while self.waiting:
                # An equal share for each loop between calls: two records that come in the same
                # moment run side by side on the two cores rather than one after the other in one call.
                self._start(call, calls)
                take = -(-len(self.waiting) // max(1, self.running - self.busy))
                batch, self.waiting = self.waiting[:take], self.waiting[take:]
                self.busy += 1
                try:
                    await _run(call, batch)
                finally:
                    self.busy -= 1
                    for waiting in batch:  # never leave a handler waiting, whatever happened above
                        _settle(waiting, RuntimeError("the shared verify call ended without a result"))
                self.calls += 1
                self.claims += sum(len(w.tasks) for w in batch)
        finally:
            self.running -= 1


async def _run(call: Call, batch: list[_Waiting]) -> None:
    groups = [(w.tasks, w.llm_s) for w in batch]
    try:
        checked = await call(groups)
        if len(checked) != len(batch):
            raise RuntimeError(f"verify_each gave {len(checked)} results for {len(batch)} groups")
    except Exception as exc:
        if len(batch) == 1:
            _settle(batch[0], exc)
            return
        for one in batch:  # isolate the record that broke the shared call
            await _run(call, [one])
        return
    for waiting, each in zip(batch, checked, strict=True):
        _settle(waiting, each)


def _settle(waiting: _Waiting, outcome: Checked | BaseException) -> None:
    if waiting.result.done():  # settled already, or its handler was cancelled (a shutdown)
        return
    if isinstance(outcome, BaseException):
        waiting.result.set_exception(outcome)
    else:
        waiting.result.set_result(outcome)

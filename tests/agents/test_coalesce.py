"""Claim records in flight share verify calls (workers/agents/coalesce.py), with a fake pipeline."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Sequence
from functools import partial

from tests.agents.helpers import ListSink, light_pipeline, make_ctx, settings_for
from workers.agents.context import AgentContext
from workers.messages import Checked, ClaimTask
from workers.pipeline import Pipeline


class Recording(Pipeline):
    """The light pipeline, noting each `verify_each` call's groups; `gate` holds the first call."""

    def __init__(self, *, broken: str = "", **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.calls: list[list[str]] = []
        self.gate = threading.Event()
        self.broken = broken

    def verify_each(self, groups: Sequence[tuple[Sequence[ClaimTask], float]]) -> list[Checked]:
        self.calls.append([t.claim.id for tasks, _ in groups for t in tasks])
        self.gate.wait(5)
        if self.broken and any(self.broken in t.claim.text for tasks, _ in groups for t in tasks):
            raise RuntimeError("the verifier broke on this claim")
        return super().verify_each(groups)


def _ctx(*, broken: str = "", calls: int = 1) -> tuple[AgentContext, Recording]:
    settings = settings_for(verification_calls=calls)
    light = light_pipeline(settings)
    pipeline = Recording(broken=broken, settings=settings, embedder=light.embedder, checker=light.checker)
    return make_ctx(ListSink(), pipeline=pipeline, verification_calls=calls), pipeline


def _verify(ctx: AgentContext, tasks: Sequence[ClaimTask], *, llm_s: float) -> Awaitable[Checked]:
    call = partial(ctx.blocking, ctx.pipeline.verify_each)
    return ctx.verify_queue.verify(tasks, llm_s=llm_s, call=call, calls=ctx.settings.kafka.verification_calls)


def _tasks(ctx: AgentContext, text: str, answer_id: str) -> tuple[ClaimTask, ...]:
    from tests.agents.helpers import answer

    return ctx.pipeline.prepare(answer(answer_id, text=text)).tasks


async def test_records_that_come_while_a_call_runs_share_the_next_one() -> None:
    ctx, pipeline = _ctx()
    texts = ["Northwind reported revenue of $4.8 billion.", "Northwind operates in 14 countries."]
    tasks = [_tasks(ctx, texts[i % 2], f"a{i}") for i in range(4)]
    queue = ctx.verify_queue
    first = asyncio.ensure_future(_verify(ctx, tasks[0], llm_s=0.0))
    await asyncio.sleep(0.05)  # the first record's call is running (held by the gate)
    rest = [asyncio.ensure_future(_verify(ctx, t, llm_s=0.0)) for t in tasks[1:]]
    await asyncio.sleep(0.05)
    assert len(pipeline.calls) == 1 and len(queue.waiting) == 3
    pipeline.gate.set()
    results = await asyncio.gather(first, *rest)
    assert [len(c) for c in pipeline.calls] == [1, 3]  # a lone record went at once; the others together
    assert (queue.calls, queue.claims, queue.running) == (2, 4, 0)
    # Each record gets its own claims, as a call of its own would give them.
    assert [r.claims for r in results] == [ctx.pipeline.verify(t).claims for t in tasks]


async def test_a_record_that_breaks_a_shared_call_fails_alone() -> None:
    ctx, pipeline = _ctx(broken="Amsterdam")
    texts = [
        "Northwind operates in 14 countries.",
        "Northwind is based in Amsterdam.",
        "Revenue was $4.2 billion.",
    ]
    tasks = [_tasks(ctx, t, f"b{i}") for i, t in enumerate(texts)]
    held = asyncio.ensure_future(_verify(ctx, tasks[0], llm_s=0.0))
    await asyncio.sleep(0.05)
    together = [asyncio.ensure_future(_verify(ctx, t, llm_s=0.0)) for t in tasks[1:]]
    await asyncio.sleep(0.05)
    pipeline.gate.set()
    outcomes = await asyncio.gather(held, *together, return_exceptions=True)
    assert isinstance(outcomes[1], RuntimeError) and "broke" in str(outcomes[1])
    assert isinstance(outcomes[0], Checked) and isinstance(outcomes[2], Checked) and outcomes[2].claims
    # The shared call of the last two failed, and each was then run alone.
    assert [len(c) for c in pipeline.calls] == [1, 2, 1, 1]


async def test_with_two_calls_two_records_run_side_by_side() -> None:
    ctx, pipeline = _ctx(calls=2)
    tasks = [_tasks(ctx, "Northwind operates in 14 countries.", f"c{i}") for i in range(3)]
    running = [asyncio.ensure_future(_verify(ctx, t, llm_s=0.0)) for t in tasks[:2]]
    await asyncio.sleep(0.05)
    assert len(pipeline.calls) == 2 and ctx.verify_queue.running == 2
    last = asyncio.ensure_future(_verify(ctx, tasks[2], llm_s=0.0))
    await asyncio.sleep(0.05)
    assert len(pipeline.calls) == 2 and len(ctx.verify_queue.waiting) == 1
    pipeline.gate.set()
    await asyncio.gather(*running, last)
    assert len(pipeline.calls) == 3 and ctx.verify_queue.running == 0

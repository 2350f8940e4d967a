"""Runs evaluation items through a pipeline and keeps what each produced, timed.

Any object with `.process(answer) -> Corrected` will do, so tests pass a fake. An item the pipeline
rejects on purpose (a `WoodpeckerError`, e.g. an answer over a size limit) is recorded with its
error and left out of every metric; any other exception stops the run, because it is a bug.

A changed answer is checked a second time (`recheck`): the corrected text through the same pipeline,
so the claims it replaced can be judged after correction.

Usage::

    run = run_items(items, build_pipeline(settings), progress=True)
    run.outcomes[0].corrected, run.outcomes[0].wall_ms
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from tqdm import tqdm

from lab.eval.datasets import EvalItem
from workers.errors import WoodpeckerError
from workers.messages import Answer, Corrected

__all__ = ["Outcome", "Processor", "Run", "run_items"]


class Processor(Protocol):
    """What the harness needs of a pipeline."""

    def process(self, answer: Answer) -> Corrected: ...


@dataclass(frozen=True)
class Outcome:
    """One item's result: the corrected record (None on error), its wall time and the second pass."""

    item: EvalItem
    corrected: Corrected | None = None
    wall_ms: float = 0.0
    recheck: Corrected | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.corrected is not None


@dataclass(frozen=True)
class Run:
    outcomes: tuple[Outcome, ...]
    wall_s: float


def run_items(
    items: Sequence[EvalItem],
    pipeline: Processor,
    *,
    recheck: bool = True,
    progress: bool = False,
    clock: Callable[[], float] = time.perf_counter,
) -> Run:
    """Every item through `pipeline`, in order, with a progress bar on stderr when `progress`."""
    start = clock()
    bar = tqdm(items, desc="eval", unit="answer", file=sys.stderr, disable=not progress, dynamic_ncols=True)
    outcomes = tuple(_one(item, pipeline, recheck=recheck, clock=clock) for item in bar)
    return Run(outcomes=outcomes, wall_s=clock() - start)


def _one(item: EvalItem, pipeline: Processor, *, recheck: bool, clock: Callable[[], float]) -> Outcome:
    t0 = clock()
    try:
        corrected = pipeline.process(item.answer)
    except WoodpeckerError as exc:
        return Outcome(item=item, wall_ms=(clock() - t0) * 1000.0, error=f"{type(exc).__name__}: {exc}")
    wall_ms = (clock() - t0) * 1000.0
    second = _recheck(item, corrected, pipeline) if recheck else None
    return Outcome(item=item, corrected=corrected, wall_ms=wall_ms, recheck=second)


def _recheck(item: EvalItem, corrected: Corrected, pipeline: Processor) -> Corrected | None:
    # Only whole responses whose text changed need it; claim and stance items are scored on verdicts.
    if item.kind != "response" or corrected.corrected == corrected.original:
        return None
    try:
        return pipeline.process(item.answer.model_copy(update={"answer": corrected.corrected}))
    except WoodpeckerError:
        return None

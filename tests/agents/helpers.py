"""Shared doubles for the agent tests: a list sink, a light real pipeline, hand-written answers.

Usage::

    sink = ListSink()
    ctx = make_ctx(sink, rate=1.0)
    await handle_answer(ctx, answer_bytes("a1"), headers={}, ingest_ms=1)
    sink.on(ctx.topics.claims)          # the records sent to that topic
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import orjson

from tests.fakes import HashEmbedder
from workers.agents.context import AgentContext
from workers.agents.deadletter import RetryPolicy
from workers.backends.checker import OfflineChecker
from workers.messages import Answer, Checked, ClaimTask, Corrected, Document, Plan, Stats
from workers.pipeline import Pipeline
from workers.settings import Settings

DOC = Document(
    id="ar",
    text=(
        "Northwind Traders is headquartered in Amsterdam and operates in 14 countries. "
        "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier. "
        "Operating margin improved to 14% as logistics costs fell."
    ),
)
TEXT = (
    "Northwind Traders reported revenue of $4.8 billion in fiscal 2023. "
    "The company is headquartered in Amsterdam. Operating margin improved to 14%."
)


@dataclass(frozen=True)
class Sent:
    topic: str
    key: str | None
    value: bytes
    headers: Mapping[str, bytes]

    def json(self) -> Any:
        return orjson.loads(self.value)


@dataclass
class ListSink:
    records: list[Sent] = field(default_factory=list)

    async def send(self, topic: str, *, key: str | None, value: bytes, headers: Mapping[str, bytes]) -> None:
        self.records.append(Sent(topic, key, value, dict(headers)))

    def on(self, topic: str) -> list[Sent]:
        return [r for r in self.records if r.topic == topic]

    def take(self, topic: str) -> list[Sent]:
        """The records sent to `topic`, removed from the sink (to pass them on to the next agent)."""
        out = self.on(topic)
        self.records = [r for r in self.records if r.topic != topic]
        return out


def light_pipeline(settings: Settings) -> Pipeline:
    """The real stages and rule checker, with a hashed bag-of-words embedder instead of MiniLM."""
    return Pipeline(settings=settings, embedder=HashEmbedder(), checker=OfflineChecker())


class SlowPipeline(Pipeline):
    """The light pipeline, `delay_s` slower per answer in `prepare`: a backlog that lasts (consumer lag)."""

    delay_s = 0.04

    def prepare(self, answer: Answer) -> Plan:
        time.sleep(self.delay_s)
        return super().prepare(answer)


def slow_pipeline(settings: Settings) -> Pipeline:
    return SlowPipeline(settings=settings, embedder=HashEmbedder(), checker=OfflineChecker())


class GatedPipeline(Pipeline):
    """The light pipeline, whose `verify` of a claim naming `HELD` waits until the file
    `$WOODPECKER_TEST_GATE` exists: a record kept in flight for as long as a test needs."""

    poll_s = 0.05

    def verify(self, tasks: Sequence[ClaimTask], *, llm_s: float = 0.0) -> Checked:
        gate = os.environ.get("WOODPECKER_TEST_GATE")
        if gate and any(HELD in task.claim.text for task in tasks):
            while not os.path.exists(gate):
                time.sleep(self.poll_s)
        return super().verify(tasks, llm_s=llm_s)


HELD = "Zanzibar"


def gated_pipeline(settings: Settings) -> Pipeline:
    return GatedPipeline(settings=settings, embedder=HashEmbedder(), checker=OfflineChecker())


class FlakyPipeline:
    """Wraps a pipeline; the phase named in `fail` raises for its first `times` calls."""

    def __init__(self, inner: Pipeline, *, fail: str, times: int) -> None:
        self.inner, self.fail, self.left = inner, fail, times

    def _maybe_fail(self, phase: str) -> None:
        if phase == self.fail and self.left > 0:
            self.left -= 1
            raise RuntimeError(f"{phase} exploded")

    def prepare(self, answer: Answer) -> Plan:
        self._maybe_fail("prepare")
        return self.inner.prepare(answer)

    def verify(self, tasks: Sequence[ClaimTask], *, llm_s: float = 0.0) -> Checked:
        self._maybe_fail("verify")
        return self.inner.verify(tasks, llm_s=llm_s)

    def verify_each(self, groups: Sequence[tuple[Sequence[ClaimTask], float]]) -> list[Checked]:
        self._maybe_fail("verify")
        return self.inner.verify_each(groups)

    def finish(self, plan: Plan, checked: Sequence[Checked] = ()) -> Corrected:
        self._maybe_fail("finish")
        return self.inner.finish(plan, checked)

    def by_reference(self, plan: Plan) -> Plan:
        return self.inner.by_reference(plan)

    def unanswered(self, tasks: Sequence[ClaimTask], *, reason: str, fallback: str | None) -> Checked:
        return self.inner.unanswered(tasks, reason=reason, fallback=fallback)


def settings_for(
    *, rate: float = 1.0, mode: str = "live", deadline_s: float = 60.0, **kafka: Any
) -> Settings:
    return Settings(
        sampler={"rate": rate, "mode": mode},
        kafka={"gather_deadline_s": deadline_s, "retry_backoff_s": 0.0, **kafka},
    )


def make_ctx(sink: ListSink, *, pipeline: Any = None, clock: Any = None, **options: Any) -> AgentContext:
    settings = settings_for(**options)
    extra: dict[str, Any] = {"worker": "test:1"}
    if clock is not None:
        extra["clock"] = clock
    ctx = AgentContext.build(settings, pipeline=pipeline or light_pipeline(settings), sink=sink, **extra)
    return replace(ctx, retry=RetryPolicy(retries=2, backoff_s=0.0))


def answer(answer_id: str, *, text: str = TEXT, **extra: Any) -> Answer:
    fields: dict[str, Any] = {"query": "How did Northwind do?", "stakes": "medium", "documents": (DOC,)}
    return Answer(id=answer_id, answer=text, **(fields | extra))


def answer_bytes(answer_id: str, **extra: Any) -> bytes:
    return answer(answer_id, **extra).to_json()


def stats_free(corrected: Corrected) -> Corrected:
    """A corrected answer without timings, for comparing outputs of different runs."""
    return corrected.model_copy(update={"stats": Stats()})

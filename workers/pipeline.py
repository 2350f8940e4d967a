"""Composes the five stages for one answer: the only place that knows their order.

The same object serves the batch CLI, the stream agents (which call the three phases on different
replicas), the tests and the benchmarks.

Usage::

    pipeline = build_pipeline(Settings.load())
    corrected = pipeline.process(answer)

    # or phase by phase, as the agents do:
    prepared = pipeline.prepare(answer)          # route, extract, decompose, retrieve
    checked = pipeline.verify(prepared.tasks)    # any replica, any subset of tasks
    corrected = pipeline.finish(answer, prepared.route, checked, stage_ms=prepared.stage_ms)
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from workers.backends.cache import collect_hits
from workers.messages import (
    Answer,
    CheckedClaim,
    Claim,
    ClaimTask,
    Corrected,
    Judgement,
    Query,
    Route,
    Stats,
    Verdict,
)
from workers.protocols import Embedder, VerdictComponent
from workers.semantic import SemanticCache
from workers.settings import Settings
from workers.stages.correct import correct
from workers.stages.decompose import decompose
from workers.stages.extract import extract_claims
from workers.stages.retrieve import build_index, retrieve_many
from workers.stages.route import RouteDecision, route
from workers.stages.verify import verify_many
from workers.telemetry import stage_span

__all__ = ["Pipeline", "Prepared", "build_pipeline"]


@dataclass(frozen=True)
class Prepared:
    """The extraction phase's output: the route and, on the full path, one task per claim."""

    route: RouteDecision
    tasks: tuple[ClaimTask, ...] = ()
    stage_ms: dict[str, float] = field(default_factory=dict)


class Pipeline:
    """One answer through route → extract → decompose → retrieve → verify → correct."""

    def __init__(
        self,
        *,
        settings: Settings,
        embedder: Embedder,
        checker: VerdictComponent,
        clock: Callable[[], float] = time.perf_counter,
        semantic: SemanticCache | None = None,
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.checker = checker
        self._clock = clock
        self.semantic = semantic

    def process(self, answer: Answer) -> Corrected:
        ms: dict[str, float] = {}
        # Cache hits by kind, counted by the cache wrappers while this answer is worked on.
        with collect_hits() as hits:
            reused = self._semantic_lookup(answer, ms)
            if reused is not None:
                return reused.model_copy(update={"stats": Stats(stage_ms=ms, cache_hits=dict(hits))})
            prepared = self.prepare(answer)
            ms.update(prepared.stage_ms)
            with self._timed(ms, "verify"):
                checked = self.verify(prepared.tasks)
        out = self.finish(answer, prepared.route, checked, stage_ms=ms, stats=Stats(cache_hits=dict(hits)))
        if self.semantic is not None:
            self.semantic.store(answer, out)
        return out

    def _semantic_lookup(self, answer: Answer, ms: dict[str, float]) -> Corrected | None:
        if self.semantic is None:
            return None
        with self._timed(ms, "semantic"):
            return self.semantic.lookup(answer)

    def prepare(self, answer: Answer) -> Prepared:
        ms: dict[str, float] = {}
        with self._timed(ms, "route"):
            decision = route(answer, settings=self.settings.routing)
        if decision.route is not Route.FULL:
            return Prepared(route=decision, stage_ms=ms)
        with self._timed(ms, "extract"):
            claims = extract_claims(answer.answer, max_claims=self.settings.limits.max_claims)
        with self._timed(ms, "decompose"):
            items = [(c, decompose(c, question=answer.query)) for c in claims]
        with self._timed(ms, "retrieve"):
            tasks = self._retrieve(answer, items)
        return Prepared(route=decision, tasks=tasks, stage_ms=ms)

    def verify(self, tasks: Sequence[ClaimTask]) -> list[CheckedClaim]:
        return verify_many(tasks, checker=self.checker) if tasks else []

    def finish(
        self,
        answer: Answer,
        decision: RouteDecision,
        checked: Sequence[CheckedClaim],
        *,
        stage_ms: Mapping[str, float] | None = None,
        stats: Stats | None = None,
    ) -> Corrected:
        """Correct from the verdicts; a route other than FULL passes the answer through unchanged."""
        ms = dict(stage_ms or {})
        base = stats or Stats()
        if decision.route is not Route.FULL:
            return self._passthrough(answer, decision.route, base.model_copy(update={"stage_ms": ms}))
        ordered = sorted(checked, key=lambda c: (c.claim.start, c.claim.id))
        with self._timed(ms, "correct"):
            outcome = correct(
                answer.answer, ordered, settings=self.settings.correction, high_stakes=_high_stakes(decision)
            )
        return Corrected(
            id=answer.id,
            tenant=answer.tenant,
            original=answer.answer,
            corrected=outcome.text,
            route=Route.FULL,
            claims=outcome.claims,
            needs_review=outcome.needs_review,
            review_reasons=outcome.review_reasons,
            stats=base.model_copy(update={"stage_ms": ms}),
        )

    def _retrieve(
        self, answer: Answer, items: list[tuple[Claim, tuple[Query, ...]]]
    ) -> tuple[ClaimTask, ...]:
        if not items:
            return ()
        retrieval = self.settings.retrieval
        index = build_index(answer.documents, embedder=self.embedder, settings=retrieval)
        hits = retrieve_many(index, items, embedder=self.embedder, settings=retrieval)
        return tuple(
            ClaimTask(
                claim=claim,
                queries=queries,
                candidates=candidates,
                similarity=similarity,
                threshold=self.settings.threshold_for(domain=answer.domain, claim_type=claim.claim_type),
            )
            for (claim, queries), (candidates, similarity) in zip(items, hits, strict=True)
        )

    @staticmethod
    def _passthrough(answer: Answer, route_: Route, stats: Stats) -> Corrected:
        return Corrected(
            id=answer.id,
            tenant=answer.tenant,
            original=answer.answer,
            corrected=answer.answer,
            route=route_,
            stats=stats,
        )

    @contextmanager
    def _timed(self, ms: dict[str, float], stage: str) -> Iterator[None]:
        t0 = self._clock()
        try:
            with stage_span(stage):  # span `woodpecker.<stage>`; a no-op until setup_telemetry
                yield
        finally:
            ms[stage] = round(ms.get(stage, 0.0) + (self._clock() - t0) * 1000.0, 3)


def _high_stakes(decision: RouteDecision) -> bool:
    return decision.stakes >= 0.7


def unverified_for_missing(task: ClaimTask, *, reason: str) -> CheckedClaim:
    """A claim whose verdict never arrived (gather deadline): UNVERIFIED, and saying why."""
    return CheckedClaim(
        claim=task.claim,
        verdict=Verdict.UNVERIFIED,
        judgement=Judgement.INSUFFICIENT,
        similarity=task.similarity,
        reason=reason,
        verifier="none",
    )


def passthrough(answer: Answer, route_: Route) -> Corrected:
    """The original answer unchanged (sampled out, or in shadow mode)."""
    return Pipeline._passthrough(answer, route_, Stats())


def build_pipeline(settings: Settings) -> Pipeline:
    """The production pipeline: the offline MiniLM embedder and the offline checker."""
    from workers.backends.checker import OfflineChecker
    from workers.backends.embedder import load_embedder
    from workers.semantic import cached_backends

    # Redis when settings.cache.redis_url is set, the in-process LRU otherwise.
    cached = cached_backends(
        settings, embedder=load_embedder(settings.models.embedder), checker=OfflineChecker()
    )
    return Pipeline(
        settings=settings, embedder=cached.embedder, checker=cached.checker, semantic=cached.semantic
    )

"""Composes the five stages for one answer: the only place that knows their order.

The same object serves the batch CLI, the stream agents (which call the three phases on different
replicas), the tests and the benchmarks.

Usage::

    with build_pipeline(Settings.load()) as pipeline:    # close() releases LLM clients and Redis
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
from dataclasses import dataclass, field, replace
from functools import partial

from workers.backends.cache import collect_hits
from workers.backends.llm_usage import usage_scope, warn_if_self_verifying
from workers.messages import (
    Answer,
    CheckedClaim,
    CitationResult,
    Claim,
    ClaimTask,
    Corrected,
    Judgement,
    Query,
    Route,
    Stats,
    Verdict,
)
from workers.protocols import ClaimExtractor, ClaimRewriter, Embedder, VerdictComponent
from workers.semantic import SemanticCache
from workers.settings import Settings
from workers.stages.cite import citation_tasks, parse_citations, restore_claims, split_checked
from workers.stages.cite_repair import plan_repair
from workers.stages.correct import CorrectionOutcome, correct
from workers.stages.decide import Decision
from workers.stages.decompose import decompose
from workers.stages.extract import extract_claims
from workers.stages.retrieve import EvidenceIndex, build_index, retrieve_many
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
        extractor: ClaimExtractor | None = None,
        rewriter: ClaimRewriter | None = None,
        decision: Decision | None = None,
        closers: Sequence[Callable[[], None]] = (),
    ) -> None:
        self.settings = settings
        self.embedder = embedder
        self.checker = checker
        self._clock = clock
        self.semantic = semantic
        # None: the pure extract + decompose stages; an LLM extractor does both in one round trip.
        self.extractor = extractor
        # Optional LLM rewrites of contradicted claims without a fix, applied by the correction stage.
        self.rewriter = rewriter
        # The trained verifier's calibrated decision and tier-1 gates; None: the component's own labels
        # and the settings' thresholds.
        self.decision = decision
        # What close() releases (LLM clients, the cache's Redis pool and loop thread), last first.
        self._closers = list(closers)

    def close(self) -> None:
        """Releases the LLM clients and the cache; safe to call twice. `process` is not for after."""
        closers, self._closers = self._closers, []
        for close in reversed(closers):
            close()

    def __enter__(self) -> Pipeline:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def process(self, answer: Answer) -> Corrected:
        ms: dict[str, float] = {}
        # Cache hits by kind, counted by the cache wrappers while this answer is worked on.
        # LLM calls, tokens, cost and fallbacks of this answer are recorded by the LLM components.
        with collect_hits() as hits, usage_scope() as usage:
            reused = self._semantic_lookup(answer, ms)
            if reused is not None:
                return reused.model_copy(update={"stats": Stats(stage_ms=ms, cache_hits=dict(hits))})
            prepared = self.prepare(answer)
            ms.update(prepared.stage_ms)
            with self._timed(ms, "verify"):
                checked = self.verify(prepared.tasks)
            stats = Stats(cache_hits=dict(hits))
            out = self.finish(answer, prepared.route, checked, stage_ms=ms, stats=stats)
        out = usage.apply(out)  # before the semantic store, which skips fallbacks
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
        warn_if_self_verifying(answer, self.settings.models)
        with self._timed(ms, "extract"):
            # Citation markers blanked (same offsets): no claim contains one, and "[1]" is no figure.
            masked = parse_citations(answer, settings=self.settings.citations).masked
            if self.extractor is not None:  # claims and queries in one step (one LLM round trip)
                items = self.extractor.extract(answer.model_copy(update={"answer": masked}))
            else:
                claims = extract_claims(masked, max_claims=self.settings.limits.max_claims)
        if self.extractor is None:
            with self._timed(ms, "decompose"):
                items = [(c, decompose(c, question=answer.query)) for c in claims]
        with self._timed(ms, "retrieve"):
            tasks = self._retrieve(answer, items)
        return Prepared(route=decision, tasks=tasks, stage_ms=ms)

    def verify(self, tasks: Sequence[ClaimTask]) -> list[CheckedClaim]:
        return verify_many(tasks, checker=self.checker, decision=self.decision) if tasks else []

    def threshold_for(self, *, domain: str | None, claim_type: str | None = None) -> float:
        """The tier-1 threshold: the calibrated gate for the domain, else the settings' threshold."""
        if self.decision is not None:
            return self.decision.gate(domain)
        return self.settings.threshold_for(domain=domain, claim_type=claim_type)

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
            outcome, citations = self._correct(answer, ordered, decision)
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
            citations=citations,
        )

    def _retrieve(
        self, answer: Answer, items: list[tuple[Claim, tuple[Query, ...]]]
    ) -> tuple[ClaimTask, ...]:
        if not items:
            return ()
        retrieval = self.settings.retrieval
        index = build_index(answer.documents, embedder=self.embedder, settings=retrieval)
        hits = retrieve_many(index, items, embedder=self.embedder, settings=retrieval)
        tasks = tuple(
            ClaimTask(
                claim=claim,
                queries=queries,
                candidates=candidates,
                similarity=similarity,
                threshold=self.threshold_for(domain=answer.domain, claim_type=claim.claim_type),
            )
            for (claim, queries), (candidates, similarity) in zip(items, hits, strict=True)
        )
        # Citation checks ride along as tasks (`<claim id>@<doc>`): same verifier, same broker hop.
        return tasks + self._citation_tasks(answer, index, tasks)

    def _citation_tasks(
        self, answer: Answer, index: EvidenceIndex, tasks: tuple[ClaimTask, ...]
    ) -> tuple[ClaimTask, ...]:
        cite = self.settings.citations
        found = parse_citations(answer, settings=cite)
        if not found.citations and not cite.add_missing:
            return ()
        threshold = self.threshold_for(domain=answer.domain)
        return citation_tasks(
            found, tasks, index=index, embedder=self.embedder, retrieval=self.settings.retrieval,
            settings=cite, threshold=threshold,
        )  # fmt: skip

    def _correct(
        self, answer: Answer, checked: Sequence[CheckedClaim], decision: RouteDecision
    ) -> tuple[CorrectionOutcome, tuple[CitationResult, ...]]:
        """Claims corrected and citations repaired: marker edits first, the claims shifted onto them."""
        fix = partial(correct, settings=self.settings.correction, high_stakes=_high_stakes(decision))
        found = parse_citations(answer, settings=self.settings.citations)
        claim_checks, cite_checks = split_checked(checked)
        claims = restore_claims(found, claim_checks)
        if self.rewriter is not None:  # LLM fixes for contradicted claims; `correct` still applies them
            claims = self.rewriter.rewrite(answer, claims)
        first = fix(answer.answer, claims)
        if not found.citations and not self.settings.citations.add_missing:
            return first, ()
        repair = plan_repair(found, claims, cite_checks, first.claims, settings=self.settings.citations)
        if not repair.edits:
            return first, repair.citations
        second = fix(repair.text, repair.shift(claims))
        return replace(second, claims=repair.unshift(second.claims, claims)), repair.citations

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
    """The production pipeline: the MiniLM embedder and the trained verifier (rule checks beside it).

    Both models load on first use (`workers.backends.lazy`): a correction worker never loads either."""
    from workers.backends.checker import OfflineChecker
    from workers.backends.lazy import lazy_embedder, lazy_offline_verifier
    from workers.backends.llm_wiring import build_llm_parts
    from workers.semantic import cached_backends

    # Stages whose backend is "openai" get LLM components; the offline verifier is their fallback.
    offline, decision = lazy_offline_verifier(settings.models.offline_verifier, rules=OfflineChecker())
    llm = build_llm_parts(settings, offline_checker=offline)
    # Redis when settings.cache.redis_url is set, the in-process LRU otherwise.
    cached = cached_backends(
        settings, embedder=lazy_embedder(settings.models.embedder), checker=llm.checker or offline
    )
    return Pipeline(
        settings=settings, embedder=cached.embedder, checker=cached.checker, semantic=cached.semantic,
        extractor=llm.extractor, rewriter=llm.rewriter, closers=(cached.cache.close, llm.close),
        decision=decision,
    )  # fmt: skip

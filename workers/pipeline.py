"""Composes the five stages for one answer: the only place that knows their order.

The same object serves the batch CLI, the stream agents (which call the three phases on different
replicas), the HTTP service, the tests and the benchmarks. The phases are a contract of serialisable
messages (`messages.Plan`, `messages.Checked`): each returns what it produced and a `Ledger` of what it
cost (stage milliseconds, cache hits, LLM calls, tokens, cost, fallbacks), and `finish` folds every
ledger into `Corrected.stats`, so an answer costs the same on either path and no caller has to open a
scope to be accounted.

Usage::

    with build_pipeline(Settings.load()) as pipeline:    # close() releases LLM clients and Redis
        corrected = pipeline.process(answer)

    # or phase by phase, as the agents do (`process` is exactly this):
    plan = pipeline.prepare(answer)              # semantic cache, route, extract, decompose, retrieve
    checked = pipeline.verify(plan.tasks)        # any replica, any subset of tasks
    corrected = pipeline.finish(plan, [checked]) # correct; every ledger folded into stats
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Collection, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from functools import partial
from typing import TypeVar

from workers.backends.cache import Cache, LruCache, collect_hits, collect_item_hits
from workers.backends.llm_usage import usage_scope, warn_if_self_verifying
from workers.citations import Found
from workers.docstore import DocumentStore
from workers.messages import (
    Answer,
    Checked,
    CheckedClaim,
    CitationResult,
    Claim,
    ClaimTask,
    Corrected,
    Judgement,
    Ledger,
    Plan,
    Query,
    Route,
    RouteInfo,
    StageUsage,
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
from workers.stages.qa2d import unstated_answer, with_question
from workers.stages.retrieve import EvidenceIndex, build_index, query_texts, retrieve_many
from workers.stages.route import route
from workers.stages.verify import verify_many
from workers.telemetry import stage_span

__all__ = ["Pipeline", "build_pipeline", "passthrough", "stats_of", "unverified_for_missing"]

_T = TypeVar("_T")


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
        store: Cache | None = None,
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
        # Documents of plans too large for one record (Redis in a deployment; in-process otherwise).
        self.documents = DocumentStore(store or LruCache(max_items=1_000))
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

    # ---- the contract ------------------------------------------------------------------------------

    def process(self, answer: Answer) -> Corrected:
        """The three phases in one process: exactly what the agents do on three replicas."""
        plan = self.prepare(answer)
        checked = self.verify(plan.tasks, llm_s=plan.ledger.llm_s) if plan.tasks else Checked()
        return self.finish(plan, [checked])

    def prepare(self, answer: Answer) -> Plan:
        """Semantic cache, route, citations (parsed once), extract, decompose, retrieve."""
        plan, ledger = self._metered(lambda ms: self._prepare(answer, ms))
        return plan.model_copy(update={"ledger": ledger})

    def verify(self, tasks: Sequence[ClaimTask], *, llm_s: float = 0.0) -> Checked:
        """Both verification tiers for any subset of an answer's tasks; `llm_s`: LLM time already spent."""
        claims, ledger = self._metered(lambda ms: self._verify(tasks, ms), llm_s=llm_s)
        return Checked(claims=tuple(claims), ledger=ledger)

    def verify_each(self, groups: Sequence[tuple[Sequence[ClaimTask], float]]) -> list[Checked]:
        """`verify` for several answers' tasks at once, each `(tasks, llm_s)`; one `Checked` per group.

        With no LLM in verification the groups share one call (one verifier pass over all their pairs,
        length-bucketed; a claim's verdict does not depend on its batch-mates), and the call's time and
        cache hits are shared out by claim count. An LLM verifier spends each answer's own budget, so
        there every group has a call of its own.
        """
        if len(groups) < 2 or self._verify_spends_llm:
            return [self.verify(tasks, llm_s=llm_s) for tasks, llm_s in groups]
        with collect_item_hits() as hit:
            joint = self.verify([t for tasks, _ in groups for t in tasks])
        sizes = [len(tasks) for tasks, _ in groups]
        ledgers, start = _shares(joint.ledger, sizes, hit), 0
        out = []
        for size, ledger in zip(sizes, ledgers, strict=True):
            out.append(Checked(claims=joint.claims[start : start + size], ledger=ledger))
            start += size
        return out

    @property
    def _verify_spends_llm(self) -> bool:
        models = self.settings.models
        return models.verification.backend == "openai" and self.settings.verification.escalate != "never"

    def finish(self, plan: Plan, checked: Sequence[Checked] = ()) -> Corrected:
        """Correct from the verdicts and fold every phase's ledger into `stats`.

        A route other than FULL passes the answer through unchanged; a semantic-cache hit is returned as
        found. Documents sent by reference are resolved first: if they cannot be, the answer is held for
        review and says so, never passed as checked.
        """
        spent = sum((c.ledger for c in checked), plan.ledger)
        if plan.done is not None:
            return plan.done.model_copy(update={"stats": stats_of(spent)})
        answer, lost = self._resolve(plan)
        claims = [claim for c in checked for claim in c.claims]
        llm_s = spent.llm_s
        out, own = self._metered(lambda ms: self._finish(plan, answer, claims, ms), llm_s=llm_s)
        out = out.model_copy(update={"stats": stats_of(spent + own + lost)})
        if lost.fallbacks:
            return _held(out, reason="documents sent by reference could not be resolved")
        if self.semantic is not None:
            self.semantic.store(answer, out)
        return out

    def by_reference(self, plan: Plan) -> Plan:
        """The plan with its documents stored aside (tenant-scoped key, TTL): for a record too large."""
        if not plan.answer.documents:
            return plan
        key = self.documents.put(plan.answer, ttl_s=self.settings.kafka.documents_ttl_s)
        slim = plan.answer.model_copy(update={"documents": ()})
        return plan.model_copy(update={"answer": slim, "documents_ref": key})

    def unanswered(self, tasks: Sequence[ClaimTask], *, reason: str, fallback: str | None) -> Checked:
        """Tasks whose verdicts never came: UNVERIFIED with `reason`; `fallback` goes into the stats."""
        claims = tuple(unverified_for_missing(t, reason=reason) for t in tasks)
        return Checked(claims=claims, ledger=Ledger(fallbacks=(fallback,) if fallback else ()))

    def warm(self, *, agents: Collection[str]) -> None:
        """Loads now the models these agents will use: extraction the embedder, verification the verifier;
        correction none. Models that are not lazy are already loaded."""
        if "extraction" in agents:
            _load(self.embedder)
        if "verification" in agents:
            _load(self.checker)

    def threshold_for(self, *, domain: str | None, claim_type: str | None = None) -> float:
        """The tier-1 threshold: the calibrated gate for the domain, else the settings' threshold."""
        if self.decision is not None:
            return self.decision.gate(domain)
        return self.settings.threshold_for(domain=domain, claim_type=claim_type)

    # ---- the phases' work --------------------------------------------------------------------------

    def _metered(self, work: Callable[[dict[str, float]], _T], *, llm_s: float = 0.0) -> tuple[_T, Ledger]:
        """Runs one phase with its own cache-hit and LLM counters; returns its result and its ledger."""
        ms: dict[str, float] = {}
        with collect_hits() as hits, usage_scope(fresh=True) as usage:
            usage.add_seconds(llm_s)  # the answer's LLM budget counts what earlier phases spent
            result = work(ms)
        return result, usage.snapshot(stage_ms=ms, cache_hits=hits, spent_s=llm_s)

    def _prepare(self, answer: Answer, ms: dict[str, float]) -> Plan:
        reused = self._semantic_lookup(answer, ms)
        if reused is not None:
            info = RouteInfo(route=reused.route, complexity=0.0, stakes=0.0, reason="semantic cache")
            return Plan(answer=answer, route=info, done=reused)
        with self._timed(ms, "route"):
            decision = route(answer, settings=self.settings.routing)
        info = RouteInfo(
            route=decision.route,
            complexity=decision.complexity,
            stakes=decision.stakes,
            reason=decision.reason,
        )
        if decision.route is not Route.FULL:
            return Plan(answer=answer, route=info)
        warn_if_self_verifying(answer, self.settings.models)
        found = parse_citations(answer, settings=self.settings.citations)
        items = self._claims(answer, found, ms)
        with self._timed(ms, "retrieve"):
            tasks = self._retrieve(answer, found, items)
        return Plan(answer=answer, route=info, tasks=tasks, citations=found)

    def _claims(
        self, answer: Answer, found: Found, ms: dict[str, float]
    ) -> list[tuple[Claim, tuple[Query, ...]]]:
        with self._timed(ms, "extract"):
            # Citation markers blanked (same offsets): no claim contains one, and "[1]" is no figure.
            if self.extractor is not None:  # claims and queries in one step (one LLM round trip)
                return self.extractor.extract(answer.model_copy(update={"answer": found.masked}))
            claims = extract_claims(found.masked, max_claims=self.settings.limits.max_claims)
            if self.settings.retrieval.short_answers_with_question:  # "Paris": read with its question
                claims = with_question(claims, found.masked, question=answer.query)
            elif self.settings.retrieval.short_answers_stated:  # "Lucy Liu", named by no document
                sources = [d.text for d in answer.documents]
                claims = unstated_answer(claims, found.masked, question=answer.query, sources=sources)
        with self._timed(ms, "decompose"):
            return [(c, decompose(c, question=answer.query)) for c in claims]

    def _semantic_lookup(self, answer: Answer, ms: dict[str, float]) -> Corrected | None:
        if self.semantic is None:
            return None
        with self._timed(ms, "semantic"):
            return self.semantic.lookup(answer)

    def _verify(self, tasks: Sequence[ClaimTask], ms: dict[str, float]) -> list[CheckedClaim]:
        if not tasks:
            return []
        with self._timed(ms, "verify"):
            return verify_many(tasks, checker=self.checker, decision=self.decision)

    def _resolve(self, plan: Plan) -> tuple[Answer, Ledger]:
        """The plan's answer with its documents back; a ledger with a fallback if they are gone."""
        if plan.documents_ref is None:
            return plan.answer, Ledger()
        documents = self.documents.get(plan.documents_ref, answer=plan.answer)
        if documents is None:
            return plan.answer, Ledger(fallbacks=("documents: the reference expired or was not found",))
        return plan.answer.model_copy(update={"documents": documents}), Ledger()

    def _finish(
        self, plan: Plan, answer: Answer, checked: Sequence[CheckedClaim], ms: dict[str, float]
    ) -> Corrected:
        if plan.route.route is not Route.FULL:
            return passthrough(answer, plan.route.route)
        ordered = sorted(checked, key=lambda c: (c.claim.start, c.claim.id))
        found = plan.citations or parse_citations(answer, settings=self.settings.citations)
        with self._timed(ms, "correct"):
            outcome, citations = self._correct(answer, found, ordered, high_stakes=plan.route.stakes >= 0.7)
        return Corrected(
            id=answer.id,
            tenant=answer.tenant,
            original=answer.answer,
            corrected=outcome.text,
            route=Route.FULL,
            claims=outcome.claims,
            needs_review=outcome.needs_review,
            review_reasons=outcome.review_reasons,
            citations=citations,
        )

    def _retrieve(
        self, answer: Answer, found: Found, items: list[tuple[Claim, tuple[Query, ...]]]
    ) -> tuple[ClaimTask, ...]:
        if not items:
            return ()
        retrieval = self.settings.retrieval
        also = query_texts(items)  # embedded with the documents: one embedder call for retrieval
        index = build_index(answer.documents, embedder=self.embedder, settings=retrieval, also=also)
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
        return tasks + self._citation_tasks(answer, found, index, tasks)

    def _citation_tasks(
        self, answer: Answer, found: Found, index: EvidenceIndex, tasks: tuple[ClaimTask, ...]
    ) -> tuple[ClaimTask, ...]:
        cite = self.settings.citations
        if not found.citations and not cite.add_missing:
            return ()
        threshold = self.threshold_for(domain=answer.domain)
        return citation_tasks(
            found, tasks, index=index, embedder=self.embedder, retrieval=self.settings.retrieval,
            settings=cite, threshold=threshold,
        )  # fmt: skip

    def _correct(
        self, answer: Answer, found: Found, checked: Sequence[CheckedClaim], *, high_stakes: bool
    ) -> tuple[CorrectionOutcome, tuple[CitationResult, ...]]:
        """Claims corrected and citations repaired: marker edits first, the claims shifted onto them."""
        fix = partial(correct, settings=self.settings.correction, high_stakes=high_stakes)
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

    @contextmanager
    def _timed(self, ms: dict[str, float], stage: str) -> Iterator[None]:
        t0 = self._clock()
        try:
            with stage_span(stage):  # span `woodpecker.<stage>`; a no-op until setup_telemetry
                yield
        finally:
            ms[stage] = round(ms.get(stage, 0.0) + (self._clock() - t0) * 1000.0, 3)


def stats_of(ledger: Ledger) -> Stats:
    """An answer's `stats`: the sum of its phases' ledgers."""
    total = sum(ledger.llm_stages.values(), StageUsage())
    return Stats(
        stage_ms=ledger.stage_ms,
        llm_calls=total.calls,
        tokens_in=total.tokens_in,
        tokens_out=total.tokens_out,
        cost_usd=total.cost_usd,
        cache_hits=ledger.cache_hits,
        # "; " separates the reasons (metrics split on it); a reason never holds one.
        fallback="; ".join(ledger.fallbacks) or None,
        llm_stages=ledger.llm_stages or None,
        escalated=ledger.escalated,
    )


def _load(component: object) -> None:
    """Finds the lazy model under the cache and LLM wrappers (`inner`, `fallback`) and loads it."""
    seen: list[object] = [component]
    while seen:
        node = seen.pop()
        load = getattr(node, "load", None)
        if callable(load):
            load()
        seen += [x for x in (getattr(node, "inner", None), getattr(node, "fallback", None)) if x is not None]


def _held(out: Corrected, *, reason: str) -> Corrected:
    return out.model_copy(update={"needs_review": True, "review_reasons": (*out.review_reasons, reason)})


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
    """The original answer unchanged (sampled out, in shadow mode, or a route that checks nothing)."""
    return Corrected(
        id=answer.id, tenant=answer.tenant, original=answer.answer, corrected=answer.answer, route=route_
    )


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
        store=cached.cache, decision=decision,
    )  # fmt: skip


def _shares(ledger: Ledger, sizes: Sequence[int], hit: Sequence[int]) -> list[Ledger]:
    """`ledger` (of an LLM-free verify call over the groups' tasks in order) split by group: stage time
    pro rata to claims; verdict cache hits where they were (`hit`: the positions of the tasks the
    checker did not judge), other hits by largest remainder; fallbacks on every part (each answer had
    them). The parts add up to the whole."""
    total = sum(sizes) or 1
    hits = {kind: _apportion(n, sizes) for kind, n in ledger.cache_hits.items()}
    if "verdict" in hits:
        ends = list(itertools.accumulate(sizes))
        hits["verdict"] = [
            sum(1 for p in hit if end - size <= p < end) for size, end in zip(sizes, ends, strict=True)
        ]
    return [
        Ledger(
            stage_ms={k: round(v * size / total, 3) for k, v in ledger.stage_ms.items()},
            cache_hits={kind: parts[i] for kind, parts in hits.items()},
            fallbacks=ledger.fallbacks,
        )
        for i, size in enumerate(sizes)
    ]


def _apportion(n: int, sizes: Sequence[int]) -> list[int]:
    total = sum(sizes) or 1
    exact = [n * size / total for size in sizes]
    parts = [int(x) for x in exact]
    by_remainder = sorted(range(len(sizes)), key=lambda i: exact[i] - parts[i], reverse=True)
    for i in by_remainder[: n - sum(parts)]:
        parts[i] += 1
    return parts

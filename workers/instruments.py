"""woodpecker's metric instruments (OpenTelemetry, readable by Prometheus) and the helpers that feed them.

Usage::

    record_result(corrected)                      # route, verdicts, actions, review, latency, caches, LLM
    record_dead_letter(dead)                      # woodpecker.deadletters{kind, stage}
    record_cache_lookup("verdict", hit=True)      # woodpecker.cache.lookups / hit_ratio
    set_consumer_lag(group="woodpecker", topic="woodpecker.claims", partition=3, lag=120)

    metrics = Metrics(meter_provider.get_meter("test"))   # tests: instruments on their own provider
    record_result(corrected, metrics=metrics)

The instruments live on the global meter, so they are no-ops until `setup_telemetry` has configured
the SDK. `workers.telemetry` re-exports everything here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable

from opentelemetry import metrics as otel_metrics
from opentelemetry import trace
from opentelemetry.metrics import CallbackOptions, Meter, Observation

from workers.messages import Action, Corrected, DeadLetter, Route, StageUsage, Stats

__all__ = [
    "Metrics",
    "current_trace_id",
    "get_metrics",
    "record_cache_lookup",
    "record_dead_letter",
    "record_result",
    "set_consumer_lag",
]

SCOPE = "woodpecker"
_MAX_LABEL = 64  # metric label values are bounded so free text cannot blow up cardinality


class _Tally:
    """Running counts behind the ratio gauges; locked because agents call from several threads."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.checked_answers = 0
        self.review_answers = 0
        self.checked_claims = 0
        self.flagged_claims = 0
        self.cache: dict[str, tuple[int, int]] = {}  # cache -> (hits, lookups)


class Metrics:
    """woodpecker's instruments on one meter (Prometheus names: dots become underscores).

    Rates are exported both as counters (for PromQL `rate()` ratios) and as gauges since start:
    `woodpecker.flag_rate` = flagged / checked claims, `woodpecker.review_rate` = answers sent to
    review / answers on the full route, `woodpecker.cache.hit_ratio{cache}` = hits / lookups.
    """

    def __init__(self, meter: Meter) -> None:
        self._tally = _Tally()
        count = meter.create_counter
        self.answers = count("woodpecker.answers", unit="{answer}", description="Answers out, by route.")
        self.verdicts = count("woodpecker.claims", unit="{claim}", description="Claim verdicts, by verdict.")
        self.corrections = count(
            "woodpecker.corrections", unit="{claim}", description="Changed claims, by action."
        )
        self.flagged = count("woodpecker.answers.flagged", unit="{answer}", description="Flagged answers.")
        self.review = count("woodpecker.answers.review", unit="{answer}", description="Answers to review.")
        self.review_reasons = count("woodpecker.review.reasons", unit="{answer}", description="By reason.")
        self.stage_ms = meter.create_histogram(
            "woodpecker.stage.duration", unit="ms", description="Stage latency, by stage."
        )
        self._llm_and_ops(meter)
        self._gauges(meter)

    def _llm_and_ops(self, meter: Meter) -> None:
        count = meter.create_counter
        self.cache_hits = count("woodpecker.cache.hits", unit="{hit}", description="Cache hits, by cache.")
        self.cache_lookups = count(
            "woodpecker.cache.lookups", unit="{lookup}", description="Cache lookups, by cache and result."
        )
        self.llm_calls = count("woodpecker.llm.calls", unit="{call}", description="LLM requests, by stage.")
        self.llm_tokens = count(
            "woodpecker.llm.tokens", unit="{token}", description="LLM tokens, by stage and direction."
        )
        self.llm_cost = count("woodpecker.llm.cost", unit="USD", description="LLM cost, by stage.")
        self.fallbacks = count("woodpecker.fallbacks", unit="{answer}", description="Offline fallbacks.")
        self.dead_letters = count(
            "woodpecker.deadletters", unit="{message}", description="Dead letters, by kind and stage."
        )
        self.consumer_lag = meter.create_gauge(
            "woodpecker.consumer.lag", unit="{message}", description="Messages behind, by topic/partition."
        )

    def _gauges(self, meter: Meter) -> None:
        gauge = meter.create_observable_gauge
        gauge("woodpecker.flag_rate", [self._flag_rate], unit="1", description="Flagged / checked claims.")
        gauge("woodpecker.review_rate", [self._review_rate], unit="1", description="Review / full answers.")
        gauge("woodpecker.cache.hit_ratio", [self._hit_ratio], unit="1", description="Hits / lookups.")

    # -- recording --

    def record(self, corrected: Corrected) -> None:
        """Every per-answer metric from one Corrected message."""
        self.answers.add(1, {"route": corrected.route.value})
        flags = self._claims(corrected)
        if flags:
            self.flagged.add(1)
        if corrected.needs_review:
            self.review.add(1)
            for reason in corrected.review_reasons:
                self.review_reasons.add(1, {"reason": _label(reason)})
        self._stats(corrected.stats)
        full = corrected.route is Route.FULL
        with self._tally.lock:
            self._tally.checked_answers += int(full)
            self._tally.review_answers += int(full and corrected.needs_review)
            self._tally.checked_claims += len(corrected.claims)
            self._tally.flagged_claims += flags

    def _claims(self, corrected: Corrected) -> int:
        flags = 0
        for claim in corrected.claims:
            self.verdicts.add(1, {"verdict": claim.verdict.value})
            if claim.action is not Action.KEEP:
                self.corrections.add(1, {"action": claim.action.value})
            flags += claim.action is Action.FLAG
        return flags

    def _stats(self, stats: Stats) -> None:
        for stage, ms in stats.stage_ms.items():
            self.stage_ms.record(ms, {"stage": _label(stage)})
        for cache, hits in stats.cache_hits.items():
            if hits:
                self.cache_hits.add(hits, {"cache": _label(cache)})
        for stage, usage in _llm_usage(stats).items():
            self._llm(_label(stage), usage)
        for stage in _fallback_stages(stats.fallback):
            self.fallbacks.add(1, {"stage": _label(stage)})

    def _llm(self, stage: str, usage: StageUsage) -> None:
        if usage.calls:
            self.llm_calls.add(usage.calls, {"stage": stage})
        if usage.tokens_in:
            self.llm_tokens.add(usage.tokens_in, {"stage": stage, "direction": "in"})
        if usage.tokens_out:
            self.llm_tokens.add(usage.tokens_out, {"stage": stage, "direction": "out"})
        if usage.cost_usd > 0:
            self.llm_cost.add(usage.cost_usd, {"stage": stage})

    def record_cache_lookup(self, cache: str, *, hit: bool, count: int = 1) -> None:
        self.cache_lookups.add(count, {"cache": _label(cache), "result": "hit" if hit else "miss"})
        with self._tally.lock:
            hits, lookups = self._tally.cache.get(cache, (0, 0))
            self._tally.cache[cache] = (hits + count * hit, lookups + count)

    # -- gauges --

    def _flag_rate(self, _options: CallbackOptions) -> Iterable[Observation]:
        with self._tally.lock:
            return [Observation(_ratio(self._tally.flagged_claims, self._tally.checked_claims))]

    def _review_rate(self, _options: CallbackOptions) -> Iterable[Observation]:
        with self._tally.lock:
            return [Observation(_ratio(self._tally.review_answers, self._tally.checked_answers))]

    def _hit_ratio(self, _options: CallbackOptions) -> Iterable[Observation]:
        with self._tally.lock:
            items = list(self._tally.cache.items())
        return [Observation(_ratio(h, n), {"cache": _label(c)}) for c, (h, n) in items]


def _llm_usage(stats: Stats) -> dict[str, StageUsage]:
    """Per stage when the answer says so, else its totals under stage "all"."""
    if stats.llm_stages:
        return dict(stats.llm_stages)
    total = StageUsage(
        calls=stats.llm_calls, tokens_in=stats.tokens_in, tokens_out=stats.tokens_out, cost_usd=stats.cost_usd
    )
    return {"all": total} if total != StageUsage() else {}


def _fallback_stages(fallback: str | None) -> list[str]:
    # "stage: reason; stage: reason": the stage makes a bounded label, the free-text reason does not.
    return [part.split(":", 1)[0].strip() for part in (fallback or "").split(";") if part.strip()]


def _ratio(part: int, whole: int) -> float:
    return part / whole if whole else 0.0  # never NaN: an empty window reads as 0


def _label(value: str) -> str:
    return value[:_MAX_LABEL]


_METRICS: Metrics | None = None
_METRICS_LOCK = threading.Lock()


def get_metrics() -> Metrics:
    """The process's instruments on the global meter (a no-op until `setup_telemetry` has run)."""
    global _METRICS
    with _METRICS_LOCK:
        if _METRICS is None:
            _METRICS = Metrics(otel_metrics.get_meter(SCOPE))
        return _METRICS


def record_result(corrected: Corrected, *, metrics: Metrics | None = None) -> None:
    """Update the per-answer metrics (route, verdicts, actions, review, stage latency, caches, LLM)."""
    (metrics or get_metrics()).record(corrected)


def record_dead_letter(dead: DeadLetter, *, metrics: Metrics | None = None) -> None:
    (metrics or get_metrics()).dead_letters.add(1, {"kind": _label(dead.kind), "stage": _label(dead.stage)})


def record_cache_lookup(cache: str, *, hit: bool, count: int = 1, metrics: Metrics | None = None) -> None:
    """For the cache layer: one lookup (or `count`) of `cache`, for the hit-ratio metrics."""
    (metrics or get_metrics()).record_cache_lookup(cache, hit=hit, count=count)


def set_consumer_lag(
    *, group: str, topic: str, partition: int, lag: int, metrics: Metrics | None = None
) -> None:
    """Agents report their lag (high-water mark minus committed offset) per partition they own."""
    attributes: dict[str, str | int] = {
        "group": _label(group),
        "topic": _label(topic),
        "partition": partition,
    }
    (metrics or get_metrics()).consumer_lag.set(max(lag, 0), attributes)


def current_trace_id() -> str | None:
    """The current trace id as 32 hex digits, or None outside a recorded trace."""
    ctx = trace.get_current_span().get_span_context()
    return format(ctx.trace_id, "032x") if ctx.is_valid else None

"""Tracing, trace context in Kafka headers, metrics and OTLP export (workers/telemetry.py, instruments.py)."""

from __future__ import annotations

import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry import trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from tests.fakes import HashEmbedder, ScriptedChecker
from workers.messages import (
    Action,
    Answer,
    ClaimResult,
    Corrected,
    DeadLetter,
    Document,
    Judgement,
    Route,
    StageUsage,
    Stats,
    Verdict,
)
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.settings import Settings
from workers.telemetry import (
    Metrics,
    answer_span,
    consume_span,
    current_trace_id,
    extract_context,
    inject_headers,
    record_cache_lookup,
    record_dead_letter,
    record_result,
    set_consumer_lag,
    setup_telemetry,
)


@pytest.fixture(scope="module")
def exporter(settings: Settings) -> InMemorySpanExporter:
    spans = InMemorySpanExporter()
    setup_telemetry(settings, service_name="woodpecker-test", span_exporter=spans)
    return spans


@pytest.fixture
def spans(exporter: InMemorySpanExporter) -> Iterator[InMemorySpanExporter]:
    exporter.clear()
    yield exporter
    exporter.clear()


def _trace_ids(finished: tuple[ReadableSpan, ...]) -> set[int]:
    return {s.context.trace_id for s in finished if s.context is not None}


# ---- spans -------------------------------------------------------------------------------------


def test_a_pipeline_run_gives_one_span_per_stage_in_one_trace(
    settings: Settings, spans: InMemorySpanExporter
) -> None:
    pipeline = Pipeline(
        settings=settings,
        embedder=HashEmbedder(),
        checker=ScriptedChecker(default=CheckResult(Judgement.SUPPORT, "scripted")),
    )
    doc = Document(
        id="d1", text="Northwind reported revenue of $4.2 billion in 2023. It operates in 14 countries."
    )
    answer = Answer(
        id="a1",
        query="How did Northwind do?",
        answer="Northwind reported revenue of $4.2 billion in 2023. It operates in 14 countries.",
        documents=(doc,),
        stakes="high",
    )
    with answer_span("a1"):
        out = pipeline.process(answer)
    assert out.route is Route.FULL
    finished = spans.get_finished_spans()
    names = [s.name for s in finished]
    for stage in ("route", "extract", "decompose", "retrieve", "verify", "correct"):
        assert names.count(f"woodpecker.{stage}") == 1, names
    assert len(_trace_ids(finished)) == 1
    root = next(s for s in finished if s.name == "woodpecker.answer")
    stage_spans = [s for s in finished if s.name.startswith("woodpecker.") and s is not root]
    assert all(s.parent is not None and s.parent.span_id == root.context.span_id for s in stage_spans)


def test_a_failing_stage_marks_its_span_as_an_error(spans: InMemorySpanExporter) -> None:
    from workers.telemetry import stage_span

    with pytest.raises(ValueError, match="boom"), stage_span("verify"):
        raise ValueError("boom")
    (span,) = spans.get_finished_spans()
    assert span.name == "woodpecker.verify"
    assert not span.status.is_ok
    assert any(e.name == "exception" for e in span.events)


# ---- trace context in headers ------------------------------------------------------------------


def test_header_inject_extract_round_trip_keeps_the_trace_id(spans: InMemorySpanExporter) -> None:
    with answer_span("a1") as span:
        headers = inject_headers(headers=[("woodpecker-schema", b"answer.v1"), ("traceparent", b"stale")])
        trace_id = span.get_span_context().trace_id
    keys = [k for k, _ in headers]
    assert keys.count("traceparent") == 1
    assert ("woodpecker-schema", b"answer.v1") in headers
    assert all(isinstance(v, bytes) for _, v in headers)
    for form in (headers, dict(headers), [(k.encode(), v.decode()) for k, v in headers]):
        remote = trace.get_current_span(extract_context(form)).get_span_context()
        assert remote.is_remote
        assert remote.trace_id == trace_id


@pytest.mark.parametrize(
    "headers",
    [None, [], {"traceparent": b"garbage"}, [("traceparent", None)], {"traceparent": b"00-" + b"a" * 9000}],
)
def test_missing_or_malformed_context_starts_a_new_trace(headers: Any) -> None:
    assert not trace.get_current_span(extract_context(headers)).get_span_context().is_valid


def test_three_agent_hops_through_headers_make_one_trace(spans: InMemorySpanExporter) -> None:
    """The stream without a broker: each hop extracts the headers the previous hop injected."""
    with answer_span("a1", name="woodpecker.publish"):
        headers = inject_headers()
    for agent in ("extraction", "verification", "correction"):
        with consume_span(agent, headers, answer_id="a1", topic=f"woodpecker.{agent}"):
            assert current_trace_id() is not None
            headers = inject_headers(headers=headers)
    finished = spans.get_finished_spans()
    agents = [s for s in finished if s.name.startswith("woodpecker.agent.")]
    assert [s.name for s in agents] == [
        "woodpecker.agent.extraction",
        "woodpecker.agent.verification",
        "woodpecker.agent.correction",
    ]
    assert all(s.kind is SpanKind.CONSUMER for s in agents)
    assert agents[1].parent is not None and agents[1].parent.span_id == agents[0].context.span_id
    assert len(_trace_ids(finished)) == 1
    assert agents[0].attributes is not None and agents[0].attributes["woodpecker.answer_id"] == "a1"


def test_no_trace_id_outside_a_span() -> None:
    assert current_trace_id() is None


# ---- metrics -----------------------------------------------------------------------------------


def _claim(cid: str, verdict: Verdict, action: Action) -> ClaimResult:
    judgement = {Verdict.VERIFIED: Judgement.SUPPORT, Verdict.CONTRADICTED: Judgement.CONTRADICT}
    return ClaimResult(
        id=cid,
        text="x",
        start=0,
        end=1,
        verdict=verdict,
        judgement=judgement.get(verdict, Judgement.INSUFFICIENT),
        similarity=0.9,
        reason="r",
        action=action,
    )


def _corrected(**extra: Any) -> Corrected:
    claims = (
        _claim("c0", Verdict.VERIFIED, Action.KEEP),
        _claim("c1", Verdict.CONTRADICTED, Action.REPLACE),
        _claim("c2", Verdict.UNVERIFIED, Action.FLAG),
        _claim("c3", Verdict.UNVERIFIED, Action.FLAG),
    )
    stats = Stats(
        stage_ms={"extract": 3.0, "verify": 40.0},
        cache_hits={"embedding": 2, "verdict": 0},
        llm_calls=2,
        tokens_in=300,
        tokens_out=40,
        cost_usd=0.002,
        llm_stages={"verification": StageUsage(calls=2, tokens_in=300, tokens_out=40, cost_usd=0.002)},
        fallback="correction: endpoint down",
    )
    fields: dict[str, Any] = {
        "id": "a1",
        "original": "o",
        "corrected": "c",
        "route": Route.FULL,
        "claims": claims,
        "needs_review": True,
        "review_reasons": ("high_stakes_contradiction",),
        "stats": stats,
    }
    return Corrected(**(fields | extra))


def _points(reader: InMemoryMetricReader) -> dict[tuple[str, frozenset[tuple[str, Any]]], Any]:
    data = reader.get_metrics_data()
    assert data is not None
    out: dict[tuple[str, frozenset[tuple[str, Any]]], Any] = {}
    for resource in data.resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                for point in metric.data.data_points:
                    key = (metric.name, frozenset((point.attributes or {}).items()))
                    out[key] = getattr(point, "value", None) if hasattr(point, "value") else point
    return out


@pytest.fixture
def reader_metrics() -> Iterator[tuple[InMemoryMetricReader, Metrics]]:
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    yield reader, Metrics(provider.get_meter("test"))
    provider.shutdown()


def test_record_result_updates_every_per_answer_metric(
    reader_metrics: tuple[InMemoryMetricReader, Metrics],
) -> None:
    reader, metrics = reader_metrics
    record_result(_corrected(), metrics=metrics)
    record_result(_corrected(id="a2", route=Route.FAST_PATH, claims=(), needs_review=False), metrics=metrics)
    p = _points(reader)
    assert p[("woodpecker.answers", frozenset({("route", "full")}))] == 1
    assert p[("woodpecker.answers", frozenset({("route", "fast_path")}))] == 1
    assert p[("woodpecker.claims", frozenset({("verdict", "UNVERIFIED")}))] == 2  # the fast path has none
    assert p[("woodpecker.corrections", frozenset({("action", "FLAG")}))] == 2
    assert p[("woodpecker.corrections", frozenset({("action", "REPLACE")}))] == 1
    assert ("woodpecker.corrections", frozenset({("action", "KEEP")})) not in p
    assert p[("woodpecker.answers.flagged", frozenset())] == 1
    assert p[("woodpecker.answers.review", frozenset())] == 1
    assert p[("woodpecker.review.reasons", frozenset({("reason", "high_stakes_contradiction")}))] == 1
    assert p[("woodpecker.flag_rate", frozenset())] == pytest.approx(0.5)  # 2 of 4 checked claims
    assert p[("woodpecker.review_rate", frozenset())] == pytest.approx(1.0)  # 1 of 1 full-route answer
    verify = p[("woodpecker.stage.duration", frozenset({("stage", "verify")}))]
    assert verify.count == 2 and verify.sum == pytest.approx(80.0)
    assert p[("woodpecker.cache.hits", frozenset({("cache", "embedding")}))] == 4
    assert ("woodpecker.cache.hits", frozenset({("cache", "verdict")})) not in p
    tokens_in = ("woodpecker.llm.tokens", frozenset({("stage", "verification"), ("direction", "in")}))
    assert p[tokens_in] == 600
    assert p[("woodpecker.llm.cost", frozenset({("stage", "verification")}))] == pytest.approx(0.004)
    assert p[("woodpecker.fallbacks", frozenset({("stage", "correction")}))] == 2


def test_llm_totals_without_a_stage_breakdown_count_under_all(
    reader_metrics: tuple[InMemoryMetricReader, Metrics],
) -> None:
    reader, metrics = reader_metrics
    stats = Stats(llm_calls=1, tokens_in=10, tokens_out=5, cost_usd=0.1)
    record_result(_corrected(stats=stats), metrics=metrics)
    p = _points(reader)
    assert p[("woodpecker.llm.calls", frozenset({("stage", "all")}))] == 1
    assert p[("woodpecker.llm.tokens", frozenset({("stage", "all"), ("direction", "out")}))] == 5


def test_dead_letters_lag_and_cache_ratio(reader_metrics: tuple[InMemoryMetricReader, Metrics]) -> None:
    reader, metrics = reader_metrics
    dead = DeadLetter(reason="bad", kind="invalid_json", stage="parse", original="{")
    record_dead_letter(dead, metrics=metrics)
    record_dead_letter(dead, metrics=metrics)
    set_consumer_lag(group="g", topic="woodpecker.claims", partition=3, lag=120, metrics=metrics)
    set_consumer_lag(group="g", topic="woodpecker.claims", partition=3, lag=-5, metrics=metrics)
    record_cache_lookup("verdict", hit=True, count=3, metrics=metrics)
    record_cache_lookup("verdict", hit=False, metrics=metrics)
    p = _points(reader)
    assert p[("woodpecker.deadletters", frozenset({("kind", "invalid_json"), ("stage", "parse")}))] == 2
    lag = (
        "woodpecker.consumer.lag",
        frozenset({("group", "g"), ("topic", "woodpecker.claims"), ("partition", 3)}),
    )
    assert p[lag] == 0  # a negative lag (a race between reads) is reported as caught up
    assert p[("woodpecker.cache.hit_ratio", frozenset({("cache", "verdict")}))] == pytest.approx(0.75)
    assert p[("woodpecker.cache.lookups", frozenset({("cache", "verdict"), ("result", "miss")}))] == 1


def test_ratios_read_zero_not_nan_before_any_answer(
    reader_metrics: tuple[InMemoryMetricReader, Metrics],
) -> None:
    reader, _ = reader_metrics
    p = _points(reader)
    assert p[("woodpecker.flag_rate", frozenset())] == 0.0
    assert p[("woodpecker.review_rate", frozenset())] == 0.0


def test_global_metrics_are_readable_by_prometheus(
    settings: Settings, exporter: InMemorySpanExporter
) -> None:
    from prometheus_client import REGISTRY, generate_latest

    telemetry = setup_telemetry(settings, service_name="woodpecker-test")
    assert telemetry.prometheus
    record_result(_corrected(id="prom"))
    text = generate_latest(REGISTRY).decode()
    assert "woodpecker_answers_total{" in text and 'route="full"' in text
    assert "woodpecker_stage_duration_milliseconds_bucket" in text


def test_setup_is_done_once(settings: Settings, exporter: InMemorySpanExporter) -> None:
    first = setup_telemetry(settings, service_name="woodpecker-test")
    assert setup_telemetry(settings, service_name="other") is first
    assert first.otlp_endpoint is None


# ---- OTLP export -------------------------------------------------------------------------------


class _Collector(BaseHTTPRequestHandler):
    paths: list[str] = []  # noqa: RUF012 - filled by the server thread, read by the test

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self.rfile.read(length)
        type(self).paths.append(self.path)
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return


@pytest.mark.slow
def test_spans_and_metrics_go_to_the_otlp_endpoint_when_set(tmp_path: Any) -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    script = (
        "from workers.settings import Settings\n"
        "from workers.messages import DeadLetter\n"
        "from workers.telemetry import answer_span, record_dead_letter, setup_telemetry\n"
        "t = setup_telemetry(Settings(), service_name='otlp-test')\n"
        "assert t.otlp_endpoint\n"
        "with answer_span('a1'):\n    pass\n"
        "record_dead_letter(DeadLetter(reason='r', kind='k', stage='s', original=''))\n"
        "t.shutdown()\n"
    )
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": f"http://127.0.0.1:{server.server_port}", "PATH": "/usr/bin:/bin"}
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], env=env, capture_output=True, timeout=60, check=False
        )
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
    assert done.returncode == 0, done.stderr.decode()
    assert "/v1/traces" in _Collector.paths
    assert "/v1/metrics" in _Collector.paths

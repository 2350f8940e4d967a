"""OpenTelemetry for woodpecker: one set-up call at start, spans, W3C context in Kafka headers, metrics.

Usage::

    setup_telemetry(settings, service_name="woodpecker-verification")   # once, at process start

    with consume_span("verification", event.headers, answer_id=msg.answer_id):   # continues the trace
        checked = pipeline.verify(tasks)
        await verdicts.send(key=key, value=value, headers=inject_headers())

    record_result(corrected)                      # the per-answer metrics, from the Corrected message
    record_dead_letter(dead)                      # woodpecker.deadletters{kind, stage}
    set_consumer_lag(group="woodpecker", topic="woodpecker.claims", partition=3, lag=120)

Code uses only opentelemetry-api; the SDK is configured here, once. Spans and metrics go to OTLP/HTTP
when OTEL_EXPORTER_OTLP_ENDPOINT is set; metrics are readable by Prometheus (served when `metrics_port`
or OTEL_EXPORTER_PROMETHEUS_PORT is given). With neither, nothing is exported, but trace ids are still
made, so Kafka headers and the decision log carry them. OTEL_SDK_DISABLED=true leaves the API a no-op.
"""

from __future__ import annotations

import logging
import os
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from opentelemetry import metrics as otel_metrics
from opentelemetry import propagate, trace
from opentelemetry.context import Context
from opentelemetry.trace import Span, SpanKind, Tracer

from workers.instruments import (
    Metrics,
    current_trace_id,
    get_metrics,
    record_cache_lookup,
    record_dead_letter,
    record_result,
    set_consumer_lag,
)
from workers.redact import install_redaction
from workers.settings import Settings

if TYPE_CHECKING:
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import MetricReader
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SpanExporter

__all__ = [
    "HeadersArg",
    "Metrics",
    "Telemetry",
    "answer_span",
    "consume_span",
    "current_trace_id",
    "extract_context",
    "get_metrics",
    "get_tracer",
    "inject_headers",
    "record_cache_lookup",
    "record_dead_letter",
    "record_result",
    "set_consumer_lag",
    "setup_telemetry",
    "stage_span",
]

log = logging.getLogger(__name__)

SCOPE = "woodpecker"
# Kafka header values: str or bytes, as a list of pairs (aiokafka) or a mapping (faust).
HeadersArg: TypeAlias = Sequence[tuple[str | bytes, str | bytes | None]] | Mapping[str, str | bytes | None]
_MAX_HEADER_VALUE = 8192  # W3C baggage's own limit; a longer value is hostile and ignored

_TRACER: Tracer = trace.get_tracer(SCOPE)  # a proxy until the SDK is set up, then the real tracer


# ---- set-up ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Telemetry:
    """What `setup_telemetry` configured; `shutdown()` flushes what is pending (SIGTERM handlers)."""

    service_name: str
    tracer_provider: TracerProvider | None
    meter_provider: MeterProvider | None
    otlp_endpoint: str | None
    prometheus: bool
    metrics_port: int | None

    def shutdown(self) -> None:
        if self.tracer_provider is not None:
            self.tracer_provider.shutdown()
        if self.meter_provider is not None:
            self.meter_provider.shutdown()


_TELEMETRY: Telemetry | None = None
_SETUP_LOCK = threading.Lock()


def setup_telemetry(
    settings: Settings,
    *,
    service_name: str,
    environ: Mapping[str, str] | None = None,
    span_exporter: SpanExporter | None = None,
    metric_readers: Sequence[MetricReader] = (),
    metrics_port: int | None = None,
) -> Telemetry:
    """Configure tracing, metrics, secret redaction and the decision log; later calls return the same.

    A later call only adds `span_exporter` (tests use an in-memory one) and refreshes the secrets.
    """
    global _TELEMETRY
    env = os.environ if environ is None else environ
    install_redaction(settings, environ=env)
    from workers.decisions import configure_decision_log  # decisions imports this module

    configure_decision_log()
    with _SETUP_LOCK:
        if _TELEMETRY is None:
            _TELEMETRY = _configure(service_name, env, readers=metric_readers, port=metrics_port)
        elif metric_readers:
            log.warning("telemetry is already set up; the extra metric readers are not attached")
        if span_exporter is not None:
            _attach(_TELEMETRY, span_exporter)
        return _TELEMETRY


def _configure(
    service_name: str, env: Mapping[str, str], *, readers: Sequence[MetricReader], port: int | None
) -> Telemetry:
    if env.get("OTEL_SDK_DISABLED", "").strip().lower() == "true":
        return Telemetry(service_name, None, None, None, prometheus=False, metrics_port=None)
    from opentelemetry.sdk.resources import Resource

    endpoint = env.get("OTEL_EXPORTER_OTLP_ENDPOINT", "").strip() or None
    resource = Resource.create({"service.name": service_name, "service.namespace": "woodpecker"})
    tracer_provider = _tracer_provider(resource, env=env, endpoint=endpoint)
    meter_provider, prometheus = _meter_provider(resource, env=env, endpoint=endpoint, extra=readers)
    port = port or _port(env.get("OTEL_EXPORTER_PROMETHEUS_PORT"))
    if port and prometheus:
        _serve_prometheus(port, host=env.get("OTEL_EXPORTER_PROMETHEUS_HOST", "localhost"))
    log.info("telemetry: service %s, OTLP %s, prometheus port %s", service_name, endpoint or "off", port)
    return Telemetry(service_name, tracer_provider, meter_provider, endpoint, prometheus, port)


def _tracer_provider(resource: Resource, *, env: Mapping[str, str], endpoint: str | None) -> TracerProvider:
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    current = trace.get_tracer_provider()
    provider = current if isinstance(current, TracerProvider) else TracerProvider(resource=resource)
    if provider is not current:
        trace.set_tracer_provider(provider)
    if endpoint:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter

        url = _signal_url(env, endpoint, "traces")
        provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter(endpoint=url)))
    return provider


def _meter_provider(
    resource: Resource, *, env: Mapping[str, str], endpoint: str | None, extra: Sequence[MetricReader]
) -> tuple[MeterProvider, bool]:
    from opentelemetry.sdk.metrics import MeterProvider

    current = otel_metrics.get_meter_provider()
    if isinstance(current, MeterProvider):  # set by someone else: readers cannot be added afterwards
        log.warning("a MeterProvider was already set; woodpecker's metric readers are not attached")
        return current, False
    prometheus = _prometheus_reader()
    readers = [*extra, *([prometheus] if prometheus is not None else [])]
    if endpoint:
        from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
        from opentelemetry.sdk.metrics.export import PeriodicExportingMetricReader

        exporter = OTLPMetricExporter(endpoint=_signal_url(env, endpoint, "metrics"))
        readers.append(PeriodicExportingMetricReader(exporter))
    provider = MeterProvider(resource=resource, metric_readers=readers)
    otel_metrics.set_meter_provider(provider)
    return provider, prometheus is not None


def _prometheus_reader() -> MetricReader | None:
    try:
        from opentelemetry.exporter.prometheus import PrometheusMetricReader
    except ImportError:  # optional: OTLP still carries the metrics
        return None
    return PrometheusMetricReader()


def _serve_prometheus(port: int, *, host: str) -> None:
    from prometheus_client import start_http_server

    start_http_server(port, addr=host)


def _signal_url(env: Mapping[str, str], base: str, signal: str) -> str:
    # The signal-specific variable wins, as the OTLP exporters' own environment handling does.
    specific = env.get(f"OTEL_EXPORTER_OTLP_{signal.upper()}_ENDPOINT", "").strip()
    return specific or f"{base.rstrip('/')}/v1/{signal}"


def _port(value: str | None) -> int | None:
    try:
        port = int(value or "")
    except ValueError:
        return None
    return port if 0 < port < 65536 else None


def _attach(telemetry: Telemetry, exporter: SpanExporter) -> None:
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor

    if telemetry.tracer_provider is not None:
        telemetry.tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))


# ---- spans and trace context -------------------------------------------------------------------


def get_tracer() -> Tracer:
    """woodpecker's tracer: a no-op until `setup_telemetry` has run."""
    return _TRACER


@contextmanager
def stage_span(stage: str) -> Iterator[Span]:
    """The span of one pipeline stage, `woodpecker.<stage>`, as a child of the current span."""
    with _TRACER.start_as_current_span(f"woodpecker.{stage}") as span:
        yield span


@contextmanager
def answer_span(answer_id: str, *, name: str = "woodpecker.answer") -> Iterator[Span]:
    """The root of one answer's trace where no message headers carry one (the batch CLI, producers)."""
    with _TRACER.start_as_current_span(name, attributes={"woodpecker.answer_id": answer_id}) as span:
        yield span


@contextmanager
def consume_span(
    agent: str, headers: HeadersArg | None, *, answer_id: str | None = None, topic: str | None = None
) -> Iterator[Span]:
    """One agent hop, `woodpecker.agent.<agent>`, continuing the trace carried in the message headers."""
    attributes: dict[str, str] = {"messaging.system": "kafka", "woodpecker.agent": agent}
    if topic:
        attributes["messaging.destination.name"] = topic
    if answer_id:
        attributes["woodpecker.answer_id"] = answer_id
    parent = extract_context(headers)
    name = f"woodpecker.agent.{agent}"
    with _TRACER.start_as_current_span(
        name, context=parent, kind=SpanKind.CONSUMER, attributes=attributes
    ) as span:
        yield span


def inject_headers(
    context: Context | None = None, *, headers: HeadersArg | None = None
) -> list[tuple[str, bytes]]:
    """Kafka headers carrying `context` (default: the current one) as W3C traceparent/tracestate/baggage.

    `headers` are kept, except trace-context keys, which the new values replace.
    """
    carrier: dict[str, str] = {}
    propagate.inject(carrier, context=context)
    keys = {k.lower() for k in carrier}
    kept = [(k, v) for k, v in _pairs(headers) if k.lower() not in keys]
    return kept + [(k, v.encode("ascii", "replace")) for k, v in carrier.items()]


def extract_context(headers: HeadersArg | None) -> Context:
    """The trace context in Kafka headers; an empty context (a new trace) when absent or malformed."""
    carrier = {k.lower(): v.decode("latin-1") for k, v in _pairs(headers) if len(v) <= _MAX_HEADER_VALUE}
    return propagate.extract(carrier, context=Context())


def _pairs(headers: HeadersArg | None) -> list[tuple[str, bytes]]:
    items: Iterable[tuple[Any, Any]] = headers.items() if isinstance(headers, Mapping) else headers or ()
    out: list[tuple[str, bytes]] = []
    for key, value in items:
        if value is None:
            continue
        name = key.decode("utf-8", "replace") if isinstance(key, bytes) else str(key)
        out.append((name, value if isinstance(value, bytes) else str(value).encode("utf-8")))
    return out

"""The deployment files, checked structurally (Docker does not run here): the Dockerfile, compose's
HTTP service, Prometheus, Grafana and Jaeger, and that every metric a dashboard or an alert rule names
is one the code exports."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from workers.cli import build_parser
from workers.messages import (
    Action,
    ClaimResult,
    Corrected,
    DeadLetter,
    Judgement,
    Route,
    StageUsage,
    Stats,
    Verdict,
)
from workers.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
_METRIC = re.compile(r"\bwoodpecker_[A-Za-z0-9_]+")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return data


@pytest.fixture(scope="module")
def exported() -> Iterator[set[str]]:
    """The Prometheus names of every woodpecker metric, from the code's own instruments."""
    from opentelemetry.exporter.prometheus import PrometheusMetricReader
    from opentelemetry.sdk.metrics import MeterProvider
    from prometheus_client import REGISTRY

    from workers.instruments import Metrics
    from workers.server.state import http_instruments

    reader = PrometheusMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    meter = provider.get_meter("woodpecker-test")
    metrics = Metrics(meter)
    claim = ClaimResult(
        id="c0", text="x", start=0, end=1, verdict=Verdict.UNVERIFIED, judgement=Judgement.NEUTRAL,
        similarity=0.5, action=Action.FLAG, reason="r",
    )  # fmt: skip
    usage = StageUsage(calls=1, tokens_in=3, tokens_out=2, cost_usd=0.01)
    stats = Stats(stage_ms={"verify": 1.0}, cache_hits={"semantic": 1}, fallback="verification: down",
                  llm_stages={"verification": usage})  # fmt: skip
    metrics.record(
        Corrected(
            id="a",
            original="x",
            corrected="x",
            route=Route.FULL,
            claims=(claim,),
            needs_review=True,
            review_reasons=("r",),
            stats=stats,
        )
    )
    dead = DeadLetter(id="a", reason="r", kind="schema", stage="parse", original="x", original_size=1)
    metrics.dead_letters.add(1, {"kind": dead.kind, "stage": dead.stage})
    metrics.consumer_lag.set(3, {"group": "g", "topic": "t", "partition": 0})
    metrics.record_cache_lookup("semantic", hit=True)
    requests, duration = http_instruments(meter)
    requests.add(1, {"path": "/v1/correct", "status": "200"})
    duration.record(1.0, {"path": "/v1/correct"})
    names = {
        sample.name
        for family in REGISTRY.collect()
        for sample in family.samples
        if sample.name.startswith("woodpecker_")
    }
    yield names
    provider.shutdown()


def test_the_dockerfile_is_multi_stage_non_root_cpu_torch_with_a_health_check() -> None:
    text = (ROOT / "Dockerfile").read_text()
    stages = re.findall(r"^FROM\s+\S+(?:\s+AS\s+(\w+))?", text, flags=re.MULTILINE | re.IGNORECASE)
    assert len(stages) >= 2
    assert re.search(r"pip install torch==\d[\d.]* --index-url https://download\.pytorch\.org/whl/cpu", text)
    assert "[dev]" not in text and "pytest" not in text
    user = re.findall(r"^USER\s+(\S+)", text, flags=re.MULTILINE)
    assert user and user[-1].split(":")[0] not in {"root", "0"}
    assert re.search(r"^HEALTHCHECK .*\n?.*/healthz", text, flags=re.MULTILINE)
    entry = re.search(r"^CMD\s+(\[.*\])", text, flags=re.MULTILINE)
    assert entry is not None
    assert build_parser().parse_args(json.loads(entry.group(1))).command == "serve"


def test_kafka_keeps_its_log_dir_on_the_volume(compose: dict[str, Any]) -> None:
    kafka = compose["services"]["kafka"]
    log_dir = kafka["environment"]["KAFKA_LOG_DIRS"]
    mounts = {m.split(":", 1)[1]: m.split(":", 1)[0] for m in kafka["volumes"]}
    assert any(log_dir == target or log_dir.startswith(target + "/") for target in mounts)
    assert all(source in compose["volumes"] for source in mounts.values())


def test_the_http_service_serves_with_valid_settings(
    compose: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    serve = compose["services"]["serve"]
    args = build_parser().parse_args(serve["command"])
    assert args.command == "serve" and args.host == "0.0.0.0"
    assert f"{args.port}:{args.port}" in serve["ports"]
    for key, value in serve["environment"].items():
        monkeypatch.setenv(key, str(value))
    settings = Settings.load()
    assert settings.server.api_keys and settings.kafka.bootstrap == "kafka:9092"


def test_prometheus_scrapes_every_worker_and_the_service(compose: dict[str, Any]) -> None:
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    targets = {
        t for job in config["scrape_configs"] for s in job.get("static_configs", []) for t in s["targets"]
    }
    port = int(compose["services"]["serve"]["command"][-1])
    assert f"serve:{port}" in targets
    dns = [d for job in config["scrape_configs"] for d in job.get("dns_sd_configs", [])]
    agents = {"extraction", "verification", "correction"}
    assert agents <= {n for d in dns for n in d["names"]}
    for name in agents:
        env = compose["services"][name]["environment"]
        assert all(int(env["OTEL_EXPORTER_PROMETHEUS_PORT"]) == d["port"] for d in dns)
        assert env["OTEL_EXPORTER_PROMETHEUS_HOST"] == "0.0.0.0"
    mounted = {v.split(":")[1] for v in compose["services"]["prometheus"]["volumes"]}
    assert set(config["rule_files"]) <= mounted


def test_traces_reach_jaeger_through_the_collector(compose: dict[str, Any]) -> None:
    config = yaml.safe_load(compose["configs"]["otel-collector"]["content"])
    exporters = config["service"]["pipelines"]["traces"]["exporters"]
    assert exporters == ["otlp/jaeger"]
    assert config["exporters"]["otlp/jaeger"]["endpoint"].split(":")[0] == "jaeger"
    assert compose["services"]["jaeger"]["environment"]["COLLECTOR_OTLP_ENABLED"] == "true"


def test_grafana_provisions_the_dashboard_and_the_datasources(compose: dict[str, Any]) -> None:
    volumes = dict(v.rsplit(":", 1)[0].split(":", 1) for v in compose["services"]["grafana"]["volumes"])
    provider = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/dashboards.yml").read_text())
    path = provider["providers"][0]["options"]["path"]
    assert volumes["./deploy/grafana/dashboards"] == path
    sources = yaml.safe_load((DEPLOY / "grafana/provisioning/datasources/datasources.yml").read_text())
    uids = {d["uid"] for d in sources["datasources"]}
    dashboard = json.loads((DEPLOY / "grafana/dashboards/woodpecker.json").read_text())
    assert {p["datasource"]["uid"] for p in dashboard["panels"]} <= uids
    titles = " | ".join(p["title"].lower() for p in dashboard["panels"])
    for wanted in (
        "answers/s by route",
        "correction",
        "flag",
        "review share",
        "consumer lag",
        "p95",
        "llm cost",
    ):
        assert wanted in titles


def _dashboard_exprs() -> list[str]:
    dashboard = json.loads((DEPLOY / "grafana/dashboards/woodpecker.json").read_text())
    return [t["expr"] for p in dashboard["panels"] for t in p["targets"]]


def _rules() -> list[dict[str, Any]]:
    config = yaml.safe_load((DEPLOY / "prometheus/alerts.yml").read_text())
    return [rule for group in config["groups"] for rule in group["rules"]]


def test_alert_rules_cover_lag_dead_letters_review_share_and_llm_fallbacks() -> None:
    rules = _rules()
    assert all({"alert", "expr", "labels", "annotations"} <= set(r) for r in rules)
    by_metric = " ".join(r["expr"] for r in rules)
    wanted = ("consumer_lag", "deadletters_total", "answers_review_total", "fallbacks_total")
    for metric in wanted:
        assert f"woodpecker_{metric}" in by_metric


def test_every_metric_named_in_a_dashboard_or_rule_is_exported(exported: set[str]) -> None:
    named = {
        m for expr in [*_dashboard_exprs(), *(r["expr"] for r in _rules())] for m in _METRIC.findall(expr)
    }
    assert named, "no metric found"
    assert named - exported == set(), f"not exported by the code: {sorted(named - exported)}"

"""docker-compose.yml cannot run here (no Docker), so check it against the code it has to agree with."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from workers.agents.app import parse_agents
from workers.cli import build_parser
from workers.settings import Settings

COMPOSE = Path(__file__).resolve().parents[2] / "docker-compose.yml"
AGENTS = ("extraction", "verification", "correction")


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return data


def _env(service: dict[str, Any]) -> dict[str, str]:
    return {k: str(v) for k, v in service["environment"].items()}


def test_the_services_are_all_there(compose: dict[str, Any]) -> None:
    ops = {"otel-collector", "jaeger", "prometheus", "grafana", "serve"}
    assert set(compose["services"]) == {"kafka", "redis", *ops, *AGENTS}
    assert compose["services"]["kafka"]["image"].startswith("apache/kafka:")
    assert compose["services"]["redis"]["image"] == "redis:7"


def test_kafka_is_one_kraft_node_that_never_auto_creates_topics(compose: dict[str, Any]) -> None:
    env = _env(compose["services"]["kafka"])
    assert set(env["KAFKA_PROCESS_ROLES"].split(",")) == {"broker", "controller"}
    assert not any("ZOOKEEPER" in key for key in env)
    assert env["KAFKA_CONTROLLER_QUORUM_VOTERS"] == f"{env['KAFKA_NODE_ID']}@kafka:9093"
    assert env["KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR"] == "1"
    assert env["KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"] == "1"
    assert env["KAFKA_AUTO_CREATE_TOPICS_ENABLE"] == "false"


@pytest.mark.parametrize("name", AGENTS)
def test_each_agent_runs_its_own_worker_command(compose: dict[str, Any], name: str) -> None:
    service = compose["services"][name]
    args = build_parser().parse_args(service["command"])
    assert args.command == "worker"
    assert parse_agents(args.agents) == {name}
    assert service["deploy"]["replicas"] >= 1
    assert service["depends_on"]["kafka"]["condition"] == "service_healthy"
    assert service["build"] == {"context": ".", "dockerfile": "Dockerfile"}
    assert (COMPOSE.parent / "Dockerfile").is_file()


def test_agent_environment_is_valid_settings_and_points_at_the_services(
    compose: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    services = compose["services"]
    env = _env(services["verification"])
    assert all(_env(services[a]) == env for a in AGENTS)
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    settings = Settings.load()
    kafka_env = _env(services["kafka"])
    assert f"PLAINTEXT://{env['KAFKA_BOOTSTRAP']}" in kafka_env["KAFKA_ADVERTISED_LISTENERS"].split(",")
    assert settings.kafka.bootstrap == env["KAFKA_BOOTSTRAP"]
    assert settings.sampler.rate == float(env["WOODPECKER_SAMPLER__RATE"])
    assert settings.cache.redis_url is not None
    assert settings.cache.redis_url.get_secret_value().startswith("redis://redis:")
    assert settings.kafka.partitions >= max(services[a]["deploy"]["replicas"] for a in AGENTS)
    assert settings.limits.max_message_bytes <= settings.kafka.max_record_bytes
    assert settings.kafka.max_record_bytes <= int(kafka_env["KAFKA_MESSAGE_MAX_BYTES"])


def test_traces_go_to_the_collector_over_otlp(compose: dict[str, Any]) -> None:
    endpoint = _env(compose["services"]["extraction"])["OTEL_EXPORTER_OTLP_ENDPOINT"]
    assert endpoint.startswith("http://otel-collector:")
    port = endpoint.rsplit(":", 1)[1]
    config = yaml.safe_load(compose["configs"]["otel-collector"]["content"])
    http = config["receivers"]["otlp"]["protocols"]["http"]["endpoint"]
    assert http.endswith(f":{port}")
    assert "otlp" in config["service"]["pipelines"]["traces"]["receivers"]
    mounted = compose["services"]["otel-collector"]["configs"][0]["target"]
    assert f"--config={mounted}" in compose["services"]["otel-collector"]["command"]

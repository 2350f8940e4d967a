"""Consumer lag of a worker (workers/agents/worker.py): computed per source partition, reported in the
status file and as the `woodpecker.consumer.lag` metric, and never a reason for the worker to crash.

The unit tests drive `lag_of` / `report_status` with stand-ins for faust's consumer and monitor; the
integration test starts one extraction worker on a real broker with a backlog already waiting, and reads
its lag from the status file and from its Prometheus endpoint while the backlog drains.
"""

from __future__ import annotations

import asyncio
import time
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import orjson
import pytest
from aiokafka.errors import IllegalStateError
from aiokafka.structs import TopicPartition
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from lab.broker import free_port, kafka_bootstrap
from lab.cluster import LocalCluster, WorkerProcess
from lab.stream_bench import synthetic_answers
from tests.agents.helpers import ListSink, make_ctx
from workers.agents.app import AgentApp
from workers.agents.client import publish_lines
from workers.agents.topics import Topics, ensure_topics
from workers.agents.worker import lag_of, report_status
from workers.settings import Settings
from workers.telemetry import Metrics

SOURCE = "woodpecker.claims"
LAG = "woodpecker.consumer.lag"


class FakeConsumer:
    """faust's consumer as lag_of sees it: an assignment and live high-water marks."""

    def __init__(self, assigned: list[TopicPartition], highwater: dict[TopicPartition, int | None]) -> None:
        self.assigned, self.marks = assigned, highwater
        self.revoked: set[TopicPartition] = set()

    def assignment(self) -> set[TopicPartition]:
        return set(self.assigned)

    def highwater(self, tp: TopicPartition) -> int | None:
        # aiokafka asserts that the partition is still assigned; a rebalance can revoke it mid-report.
        assert tp not in self.revoked, "Partition is not assigned"
        return self.marks.get(tp)


Offsets = dict[TopicPartition, int]


def _agent_app(consumer: Any, *, committed: Offsets, ends: Offsets) -> AgentApp:
    monitor = SimpleNamespace(tp_committed_offsets=committed, tp_end_offsets=ends)
    app: Any = SimpleNamespace(consumer=consumer, monitor=monitor, conf=SimpleNamespace(id="wp-verification"))
    return AgentApp("verification", app, make_ctx(ListSink()), SOURCE)


@pytest.fixture
def metrics() -> Iterator[tuple[InMemoryMetricReader, Metrics]]:
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    yield reader, Metrics(provider.get_meter("test"))
    provider.shutdown()


def _lag_points(reader: InMemoryMetricReader) -> dict[int, int]:
    data = reader.get_metrics_data()
    assert data is not None
    return {
        int(str(point.attributes["partition"])): int(getattr(point, "value", -1))
        for resource in data.resource_metrics
        for scope in resource.scope_metrics
        for metric in scope.metrics
        if metric.name == LAG
        for point in metric.data.data_points
        if point.attributes
    }


def test_lag_is_the_high_water_mark_minus_the_last_commit_per_source_partition(
    metrics: tuple[InMemoryMetricReader, Metrics],
) -> None:
    reader, instruments = metrics
    p0, p1, p2 = (TopicPartition(SOURCE, i) for i in range(3))
    changelog = TopicPartition("wp-verification-gather-status-changelog", 0)
    consumer = FakeConsumer([p0, p1, p2, changelog], {p0: 120, p1: 40, p2: 7, changelog: 900})
    agent_app = _agent_app(consumer, committed={p0: 100, p1: 40, changelog: 3}, ends={})
    # p2 has no commit by this process yet: unknown, so left out rather than guessed.
    assert lag_of(agent_app, metrics=instruments) == {f"{SOURCE}:0": 20, f"{SOURCE}:1": 0}
    assert _lag_points(reader) == {0: 20, 1: 0}


def test_a_partition_revoked_mid_report_falls_back_to_the_last_known_end_or_is_left_out(
    metrics: tuple[InMemoryMetricReader, Metrics],
) -> None:
    _, instruments = metrics
    p0, p1 = TopicPartition(SOURCE, 0), TopicPartition(SOURCE, 1)
    consumer = FakeConsumer([p0, p1], {p0: 50, p1: None})
    consumer.revoked = {p0}
    agent_app = _agent_app(consumer, committed={p0: 10, p1: 5}, ends={p0: 30})
    # p0: high-water mark unreadable -> the monitor's last end offset; p1: no fetch yet and no end known.
    assert lag_of(agent_app, metrics=instruments) == {f"{SOURCE}:0": 20}


def test_a_status_report_that_cannot_be_read_is_skipped_not_a_crash(tmp_path: Path) -> None:
    class Rebalancing(FakeConsumer):
        def assignment(self) -> set[TopicPartition]:
            raise IllegalStateError("Partition is not assigned")

    path = tmp_path / "status.json"
    broken = _agent_app(Rebalancing([], {}), committed={}, ends={})
    assert report_status([broken], path=path) is None
    assert not path.exists()
    p0 = TopicPartition(SOURCE, 0)
    healthy = _agent_app(FakeConsumer([p0], {p0: 9}), committed={p0: 4}, ends={})
    status = report_status([healthy], path=path)
    assert status is not None and orjson.loads(path.read_bytes()) == status
    assert status["lag"] == {f"{SOURCE}:0": 5} and status["assigned"] == {SOURCE: [0]}


# ---- against a real broker ---------------------------------------------------------------------


def _status_lag(worker: WorkerProcess) -> dict[str, int]:
    return dict((worker.status() or {}).get("lag") or {})


def _scraped_lag(port: int, topic: str) -> dict[str, float]:
    """`woodpecker_consumer_lag` per partition of `topic`, from the worker's Prometheus endpoint."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as response:
        text = response.read().decode()
    found: dict[str, float] = {}
    for line in text.splitlines():
        if line.startswith("woodpecker_consumer_lag{") and f'topic="{topic}"' in line:
            labels, value = line.rsplit(" ", 1)
            partition = labels.split('partition="', 1)[1].split('"', 1)[0]
            found[partition] = float(value)
    return found


async def _wait_for(condition: Callable[[], bool], *, timeout_s: float = 120.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not condition():
        assert time.monotonic() < deadline, "condition not met in time"
        await asyncio.sleep(0.25)


@pytest.mark.integration
async def test_lag_is_reported_while_a_backlog_waits_and_reaches_zero_once_it_is_drained() -> None:
    prefix = f"lag-{uuid.uuid4().hex[:8]}."
    settings = Settings(sampler={"rate": 1.0}, kafka={"topic_prefix": prefix})
    topics = Topics.from_settings(settings.kafka)
    answers = synthetic_answers(200, prefix=prefix)
    port = free_port()
    env = {
        "WOODPECKER_SAMPLER__RATE": "1.0",
        "WOODPECKER_KAFKA__TOPIC_PREFIX": prefix,
        "OTEL_EXPORTER_PROMETHEUS_PORT": str(port),
        "OTEL_EXPORTER_PROMETHEUS_HOST": "127.0.0.1",
    }
    with kafka_bootstrap() as bootstrap:
        await ensure_topics(settings.kafka, bootstrap=bootstrap)
        lines = [a.to_json() for a in answers]
        sent = await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topics.answers, lines=lines)
        assert sent.sent == 200
        factory = "tests.agents.helpers:slow_pipeline"
        with LocalCluster(bootstrap=bootstrap, env=env, pipeline_factory=factory) as cluster:
            [worker] = cluster.start("extraction")
            # The whole backlog is there before the worker starts; at 40 ms an answer it lasts ~8 s.
            await _wait_for(lambda: sum(_status_lag(worker).values()) > 0)
            backlog = _status_lag(worker)
            scraped = _scraped_lag(port, topics.answers)
            assert sum(scraped.values()) > 0, scraped
            assert set(backlog) <= {f"{topics.answers}:{p}" for p in range(settings.kafka.partitions)}

            def drained() -> bool:
                lag = _status_lag(worker)
                counts = (worker.status() or {}).get("counts") or {}
                return counts.get("answers", 0) >= 200 and len(lag) == 4 and not any(lag.values())

            await _wait_for(drained)
            await _wait_for(lambda: len(_scraped_lag(port, topics.answers)) == 4, timeout_s=10)
            assert set(_scraped_lag(port, topics.answers).values()) == {0.0}
            assert worker.alive()

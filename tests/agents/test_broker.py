"""The embedded noida-db broker: start on a free port, explicit topics, publish/tail round trip, stop."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest
from aiokafka.admin import AIOKafkaAdminClient

from lab.broker import EmbeddedBroker, free_port, kafka_bootstrap
from tests.agents.helpers import answer
from workers.agents.client import publish_lines, tail_records
from workers.agents.topics import Topics, client_options, ensure_topics
from workers.settings import KafkaSettings


def test_kafka_bootstrap_uses_an_existing_cluster_when_named() -> None:
    with kafka_bootstrap(env={"KAFKA_BOOTSTRAP": "kafka-1:9092,kafka-2:9092"}) as bootstrap:
        assert bootstrap == "kafka-1:9092,kafka-2:9092"


def test_free_port_is_bindable() -> None:
    port = free_port()
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", port))


@pytest.mark.integration
async def test_broker_topics_publish_tail_and_stop(tmp_path: Path) -> None:
    broker = EmbeddedBroker.start()
    try:
        kafka = KafkaSettings(topic_prefix="b.", partitions=3)
        topics = Topics.from_settings(kafka)
        assert sorted(await ensure_topics(kafka, bootstrap=broker.bootstrap)) == sorted(topics.all())
        assert await ensure_topics(kafka, bootstrap=broker.bootstrap) == []
        assert await _partitions(kafka, broker.bootstrap, topics.claims) == 3
        lines = [answer("r1").to_json(), b"{not json", answer("r2").to_json()]
        sent = await publish_lines(kafka, bootstrap=broker.bootstrap, topic=topics.answers, lines=lines)
        assert sent.sent == 3 and sent.refused == ()
        records = [
            r
            async for r in tail_records(
                kafka,
                bootstrap=broker.bootstrap,
                topic=topics.answers,
                from_beginning=True,
                limit=3,
                idle_timeout_s=20,
            )
        ]
        assert sorted(r.value for r in records) == sorted(lines)
        assert {r.key for r in records} == {"r1", "r2", None}
    finally:
        assert broker.stop() is not None
    assert not broker.data_dir.exists()
    with pytest.raises(OSError), socket.create_connection(("127.0.0.1", broker.port), timeout=1):
        pass


async def _partitions(kafka: KafkaSettings, bootstrap: str, topic: str) -> int:
    admin = AIOKafkaAdminClient(**client_options(kafka, bootstrap=bootstrap))
    await admin.start()
    try:
        [described] = await admin.describe_topics([topic])
    finally:
        await admin.close()
    return len(described["partitions"])

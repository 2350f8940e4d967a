"""Topic names and their explicit creation: nothing relies on the broker's auto-create defaults.

Usage::

    topics = Topics.from_settings(settings.kafka)        # prefixed names, e.g. "woodpecker.answers"
    await ensure_topics(settings.kafka, bootstrap="127.0.0.1:9092")
    producer = AIOKafkaProducer(**client_options(settings.kafka, bootstrap=bootstrap))

An auto-created topic gets the broker's default partition count (often 1), which silently breaks both
the fan-out of claims over verification replicas and the co-partitioning of verdicts with the gather
table's changelog; so every process that touches a topic first makes sure it exists as configured.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, fields
from typing import Any

from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaConnectionError, KafkaError

from workers.errors import ConfigError
from workers.settings import KafkaSettings

__all__ = ["ROLES", "Topics", "client_options", "ensure_topics", "require_bootstrap"]

log = logging.getLogger(__name__)

ROLES = ("answers", "claims", "verdicts", "corrected", "review", "shadow", "deadletter")
_TOPIC_EXISTS = 36


@dataclass(frozen=True)
class Topics:
    """The seven topics of the stream, by role; values are full (prefixed) topic names."""

    answers: str
    claims: str
    verdicts: str
    corrected: str
    review: str
    shadow: str
    deadletter: str

    @classmethod
    def from_settings(cls, kafka: KafkaSettings) -> Topics:
        names = kafka.topics.model_dump()
        return cls(**{role: kafka.topic_prefix + names[role] for role in ROLES})

    def all(self) -> tuple[str, ...]:
        return tuple(getattr(self, f.name) for f in fields(self))

    def by_role(self, role: str) -> str:
        if role not in ROLES:
            raise ConfigError(f"unknown topic {role!r}; expected one of {', '.join(ROLES)}")
        name: str = getattr(self, role)
        return name


def require_bootstrap(kafka: KafkaSettings, override: str | None = None) -> str:
    """The broker list to use, or a ConfigError that says how to name one."""
    bootstrap = override or kafka.bootstrap
    if not bootstrap:
        raise ConfigError(
            "no Kafka broker: set KAFKA_BOOTSTRAP (or WOODPECKER_KAFKA__BOOTSTRAP), or pass --bootstrap"
        )
    return bootstrap


def client_options(kafka: KafkaSettings, *, bootstrap: str) -> dict[str, Any]:
    """Connection keyword arguments shared by aiokafka producers, consumers and the admin client."""
    options: dict[str, Any] = {"bootstrap_servers": bootstrap, "security_protocol": kafka.security_protocol}
    if kafka.security_protocol.startswith("SASL"):
        options["sasl_mechanism"] = kafka.sasl_mechanism or "PLAIN"
        options["sasl_plain_username"] = kafka.sasl_username
        password = kafka.sasl_password
        options["sasl_plain_password"] = password.get_secret_value() if password else None
    if kafka.security_protocol.endswith("SSL"):
        from aiokafka.helpers import create_ssl_context

        options["ssl_context"] = create_ssl_context()
    return options


async def ensure_topics(kafka: KafkaSettings, *, bootstrap: str, timeout_s: float | None = None) -> list[str]:
    """Create the missing topics with the configured partitions; returns the names it created.

    Retries while the broker is still coming up; an existing topic with fewer partitions than
    configured is reported, since the consumer group would then run below its intended parallelism.
    """
    names = Topics.from_settings(kafka).all()
    wait_s = kafka.connect_timeout_s if timeout_s is None else timeout_s
    admin = await _connected_admin(kafka, bootstrap=bootstrap, timeout_s=wait_s)
    try:
        response = await admin.create_topics(
            [
                NewTopic(n, num_partitions=kafka.partitions, replication_factor=kafka.replication_factor)
                for n in names
            ]
        )
        created = _created(response.topic_errors)
        await _warn_on_fewer_partitions(admin, names, wanted=kafka.partitions)
    finally:
        await admin.close()
    return created


async def _connected_admin(kafka: KafkaSettings, *, bootstrap: str, timeout_s: float) -> AIOKafkaAdminClient:
    deadline = asyncio.get_running_loop().time() + timeout_s
    while True:
        admin = AIOKafkaAdminClient(**client_options(kafka, bootstrap=bootstrap), request_timeout_ms=10_000)
        try:
            await admin.start()
            return admin
        except KafkaConnectionError:
            await admin.close()
            if asyncio.get_running_loop().time() > deadline:
                raise
            await asyncio.sleep(0.3)


def _created(topic_errors: list[tuple[Any, ...]]) -> list[str]:
    created: list[str] = []
    for name, code, *rest in topic_errors:
        if code == 0:
            created.append(name)
        elif code != _TOPIC_EXISTS:
            message = rest[0] if rest else ""
            raise KafkaError(f"cannot create topic {name!r}: error {code} {message or ''}".strip())
    return created


async def _warn_on_fewer_partitions(
    admin: AIOKafkaAdminClient, names: tuple[str, ...], *, wanted: int
) -> None:
    for described in await admin.describe_topics(list(names)):
        have = len(described.get("partitions", ()))
        if have < wanted:
            log.warning(
                "topic %s has %d partitions, fewer than the configured %d", described["topic"], have, wanted
            )

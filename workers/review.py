"""`woodpecker review list|show|approve|reject`: the human review layer, always scoped to one tenant.

Usage::

    woodpecker review list --tenant acme                          # pending items, one JSON line each
    woodpecker review show --tenant acme ANSWER_ID                # the answer, what changed and why
    woodpecker review approve --tenant acme ANSWER_ID --note "checked against the filing"
    woodpecker review reject --tenant acme ANSWER_ID --reason "the replacement figure is wrong"
    woodpecker review serve --port 8790                           # the web console (workers/console)

Answers marked `needs_review` are on the review topic. Approving publishes the corrected answer to the
output topic with route `review_approved`; rejecting publishes the original answer unchanged (each
correction turned back into KEEP) with the reviewer's reason in `review_reasons`. Either way the answer
reaches the output topic, so nothing is lost. Every decision is also recorded, keyed by answer id, on
the `<prefix>review-decisions` topic: that is how `list` knows what is still pending, and it is the
audit trail. A tenant never sees another's items: their ids read as "not found". `--tenant ''`
selects answers without a tenant. The decision continues the answer's trace (W3C headers).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Literal

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.structs import ConsumerRecord
from pydantic import Field

from workers.agents.context import H_SCHEMA
from workers.agents.topics import Topics, client_options
from workers.errors import InvalidMessage, WoodpeckerError
from workers.messages import Action, Corrected, Route, _Frozen, read_output
from workers.settings import KafkaSettings, Settings
from workers.telemetry import inject_headers

__all__ = [
    "ReviewDecision",
    "ReviewError",
    "ReviewItem",
    "ReviewQueue",
    "approved",
    "decisions_topic",
    "load_queue",
    "rejected",
]

DecisionKind = Literal["approved", "edited", "rejected"]
_TOPIC_EXISTS = 36


class ReviewError(WoodpeckerError):
    """A review command that cannot be carried out (unknown id for the tenant, already decided)."""


class ReviewDecision(_Frozen):
    """review-decision.v1: who decided what about one answer under review, and when."""

    schema_version: Literal["review-decision.v1"] = "review-decision.v1"
    id: str = Field(min_length=1, max_length=256)
    tenant: str | None = None
    decision: DecisionKind
    reason: str = Field("", max_length=2000)
    reviewer: str = Field("unknown", max_length=256)
    decided_at_ms: int = Field(ge=0)


@dataclass(frozen=True)
class ReviewItem:
    corrected: Corrected
    headers: dict[str, bytes]
    timestamp_ms: int


@dataclass(frozen=True)
class ReviewQueue:
    """One tenant's view of the review topic: its items by id and the decisions already made."""

    tenant: str
    items: dict[str, ReviewItem]
    decided: dict[str, ReviewDecision]
    skipped: int = 0  # unreadable records on either topic

    def pending(self) -> list[ReviewItem]:
        waiting = [i for key, i in self.items.items() if key not in self.decided]
        return sorted(waiting, key=lambda i: (i.timestamp_ms, i.corrected.id))


def decisions_topic(kafka: KafkaSettings) -> str:
    return f"{kafka.topic_prefix}{kafka.topics.review}-decisions"


# ---- what a decision publishes -----------------------------------------------------------------


def approved(item: Corrected, *, note: str = "") -> Corrected:
    """The corrected answer as it goes out after approval: route `review_approved`."""
    reason = f"review_approved: {note}" if note else "review_approved"
    update = {"route": Route.REVIEW_APPROVED, "needs_review": False}
    return item.model_copy(update=update | {"review_reasons": (*item.review_reasons, reason)})


def rejected(item: Corrected, *, reason: str) -> Corrected:
    """The original answer passed through: every correction turned back into KEEP, saying why."""
    claims = tuple(
        c
        if c.action is Action.KEEP
        else c.model_copy(
            update={"action": Action.KEEP, "replacement": None, "reason": f"review rejected: {c.reason}"}
        )
        for c in item.claims
    )
    reasons = (*item.review_reasons, f"review_rejected: {reason}")
    update = {"corrected": item.original, "claims": claims, "needs_review": False, "review_reasons": reasons}
    return item.model_copy(update=update)


# ---- reading the topics ------------------------------------------------------------------------


async def load_queue(
    settings: Settings, *, bootstrap: str, tenant: str, timeout_s: float = 15.0
) -> ReviewQueue:
    """Read the review and decision topics to their current end, keeping only `tenant`'s records."""
    options = client_options(settings.kafka, bootstrap=bootstrap)
    review = await _read_topic(options, Topics.from_settings(settings.kafka).review, timeout_s=timeout_s)
    decisions = await _read_topic(options, decisions_topic(settings.kafka), timeout_s=timeout_s)
    items, bad_items = _items(review, tenant=tenant)
    decided, bad_decisions = _decisions(decisions, tenant=tenant)
    return ReviewQueue(tenant, items, decided, skipped=bad_items + bad_decisions)


def _items(records: list[ConsumerRecord[Any, Any]], *, tenant: str) -> tuple[dict[str, ReviewItem], int]:
    items: dict[str, ReviewItem] = {}
    bad = 0
    for record in records:
        try:
            corrected = read_output(record.value or b"")
        except InvalidMessage:
            bad += 1
            continue
        if (corrected.tenant or "") == tenant:  # a replayed record replaces the earlier one
            items[corrected.id] = ReviewItem(corrected, _headers(record), int(record.timestamp))
    return items, bad


def _decisions(
    records: list[ConsumerRecord[Any, Any]], *, tenant: str
) -> tuple[dict[str, ReviewDecision], int]:
    decided: dict[str, ReviewDecision] = {}
    bad = 0
    for record in records:
        try:
            decision = ReviewDecision.from_json(record.value or b"")
        except InvalidMessage:
            bad += 1
            continue
        if (decision.tenant or "") == tenant:
            decided.setdefault(decision.id, decision)  # the first decision stands
    return decided, bad


def _headers(record: ConsumerRecord[Any, Any]) -> dict[str, bytes]:
    return {k: bytes(v or b"") for k, v in (record.headers or ())}


async def _read_topic(
    options: dict[str, Any], topic: str, *, timeout_s: float
) -> list[ConsumerRecord[Any, Any]]:
    """Every record now on `topic` (none when it does not exist yet), oldest first per partition."""
    consumer = AIOKafkaConsumer(**options, group_id=None, enable_auto_commit=False)
    try:
        await consumer.start()
        partitions = consumer.partitions_for_topic(topic)  # start() loaded every topic's metadata
        if not partitions:
            return []
        parts = [TopicPartition(topic, p) for p in sorted(partitions)]
        consumer.assign(parts)
        await consumer.seek_to_beginning(*parts)
        ends: dict[TopicPartition, int] = await consumer.end_offsets(parts)
        return await asyncio.wait_for(_drain(consumer, ends), timeout_s)
    except TimeoutError as exc:
        raise ReviewError(f"could not read {topic} to its end within {timeout_s:g} s") from exc
    finally:
        await asyncio.sleep(0)  # aiokafka: stop() right after start() cancels a task not yet started
        await consumer.stop()


async def _drain(
    consumer: AIOKafkaConsumer, ends: dict[TopicPartition, int]
) -> list[ConsumerRecord[Any, Any]]:
    records: list[ConsumerRecord[Any, Any]] = []
    while await _behind(consumer, ends):
        batches = await consumer.getmany(*ends, timeout_ms=500)
        for tp, messages in batches.items():
            records += [m for m in messages if m.offset < ends[tp]]
    return records


async def _behind(consumer: AIOKafkaConsumer, ends: dict[TopicPartition, int]) -> bool:
    for tp, end in ends.items():
        if await consumer.position(tp) < end:
            return True
    return False


# ---- deciding ----------------------------------------------------------------------------------


async def _publish(
    settings: Settings, *, bootstrap: str, key: str, out: Corrected, record: ReviewDecision, item: ReviewItem
) -> None:
    # The output first: a crash between the two sends leaves the item pending (at-least-once), never lost.
    kafka = settings.kafka
    options = client_options(kafka, bootstrap=bootstrap)
    await _ensure_topic(
        options, decisions_topic(kafka), partitions=kafka.partitions, replicas=kafka.replication_factor
    )
    producer = AIOKafkaProducer(**options, acks="all", max_request_size=kafka.max_record_bytes)
    try:
        await producer.start()
        base = {k: v for k, v in item.headers.items() if k != H_SCHEMA}
        output_headers = inject_headers(headers={**base, H_SCHEMA: out.schema_version.encode()})
        await producer.send_and_wait(
            Topics.from_settings(kafka).corrected, out.to_json(), key=key.encode(), headers=output_headers
        )
        decision_headers = inject_headers(headers={H_SCHEMA: record.schema_version.encode()})
        await producer.send_and_wait(
            decisions_topic(kafka), record.to_json(), key=key.encode(), headers=decision_headers
        )
    finally:
        await producer.stop()


async def _ensure_topic(options: dict[str, Any], topic: str, *, partitions: int, replicas: int) -> None:
    admin = AIOKafkaAdminClient(**options)
    try:
        await admin.start()
        response = await admin.create_topics([NewTopic(topic, partitions, replicas)])
        for name, code, *rest in response.topic_errors:
            if code not in (0, _TOPIC_EXISTS):
                raise ReviewError(f"cannot create topic {name!r}: error {code} {rest[0] if rest else ''}")
    finally:
        await admin.close()


# ---- command line ------------------------------------------------------------------------------

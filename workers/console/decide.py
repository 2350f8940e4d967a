"""Approve, edit-then-approve or reject a review item, publishing exactly one output per answer id.

Usage::

    async with Decider(settings, store=store, bootstrap=bootstrap) as decider:
        await decider.decide(tenant="acme", answer_id="a1", kind="approved", reviewer="rita", note="ok")
        await decider.recover()       # finish decisions whose console died mid-way (run periodically)

How exactly-once holds:
1. **Claim** (one Lua script): pending -> deciding with the decision and a random token, leased for
   `review.lease_s`. Of two reviewers clicking at once exactly one wins; the other is told who decided.
2. **Mark**: the output partition (the key's, as every producer computes it) and its end offset before
   the send are stored on the item, while the token holds.
3. **Send** the output record with the token in a header (`woodpecker-review-token`), then the audit
   record on `<prefix>review-decisions`, then **finish** (deciding -> approved | edited | rejected).
A console that dies between 1 and 3 leaves the item `deciding`. Once its lease is over, `recover` (any
console, at start and periodically) takes the item over with a new token and scans the stored partition
from the stored offset for a record of that answer id carrying a review token: found, it only finishes;
not found, it publishes. The lease outlives the producer's request timeout, and nobody sends with less
than half its lease left, so a slow original cannot publish after a recovery has looked.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any

from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.partitioner import DefaultPartitioner

from workers.agents.context import H_SCHEMA
from workers.agents.topics import Topics, client_options
from workers.console.store import Claimed, DecisionKind, Item, PendingDecision, ReviewStore
from workers.decisions import FIELDS_ATTR, configure_decision_log
from workers.decisions import logger as decision_log
from workers.errors import WoodpeckerError
from workers.messages import Corrected
from workers.review import ReviewDecision, _ensure_topic, approved, decisions_topic, rejected
from workers.settings import Settings
from workers.telemetry import consume_span, current_trace_id, inject_headers

__all__ = ["H_REVIEW_TOKEN", "Conflict", "Decider", "NotFound", "decide_in_store", "output_for"]

H_REVIEW_TOKEN = "woodpecker-review-token"
log = logging.getLogger(__name__)


class NotFound(WoodpeckerError):
    """No such item for this tenant (another tenant's id reads the same)."""


class Conflict(WoodpeckerError):
    """The item is no longer pending: someone decided, or is deciding, it."""

    def __init__(self, message: str, *, claimed: Claimed) -> None:
        super().__init__(message)
        self.claimed = claimed


def output_for(corrected: Corrected, decision: PendingDecision) -> Corrected:
    """What reaches the output topic for a decision (route `review_approved` unless rejected)."""
    if decision.kind == "rejected":
        return rejected(corrected, reason=decision.note or f"rejected by {decision.reviewer}")
    out = approved(corrected, note=decision.note)
    if decision.kind == "edited" and decision.text is not None:
        reason = f"review_edited: {decision.note}" if decision.note else "review_edited"
        out = out.model_copy(
            update={"corrected": decision.text, "review_reasons": (*out.review_reasons[:-1], reason)}
        )
    return out


@dataclass
class Decider:
    """Publishes decisions for one deployment; `fault` (tests) is called at each step and may raise."""

    settings: Settings
    store: ReviewStore
    bootstrap: str
    clock: Callable[[], float] = time.time
    fault: Callable[[str], None] | None = None

    def __post_init__(self) -> None:
        self.topics = Topics.from_settings(self.settings.kafka)
        self._producer: AIOKafkaProducer | None = None
        self._consumer: AIOKafkaConsumer | None = None
        self._offsets_lock = asyncio.Lock()
        self._partitioner = DefaultPartitioner()

    @property
    def lease_ms(self) -> int:
        return int(self.settings.review.lease_s * 1000)

    def now_ms(self) -> int:
        return int(self.clock() * 1000)

    async def start(self) -> None:
        kafka = self.settings.kafka
        options = client_options(kafka, bootstrap=self.bootstrap)
        await _ensure_topic(
            options, decisions_topic(kafka), partitions=kafka.partitions, replicas=kafka.replication_factor
        )
        # A request that could outlive a third of the lease is abandoned, so it cannot land after recovery.
        timeout_ms = max(1000, self.lease_ms // 3)
        self._producer = AIOKafkaProducer(
            **options, acks="all", max_request_size=kafka.max_record_bytes, request_timeout_ms=timeout_ms
        )
        await self._producer.start()
        self._consumer = AIOKafkaConsumer(**options, group_id=None, enable_auto_commit=False)
        await self._consumer.start()

    async def stop(self) -> None:
        await asyncio.sleep(0)  # aiokafka: stop() right after start() cancels a task not yet started
        for client in (self._producer, self._consumer):
            if client is not None:
                await client.stop()
        self._producer = self._consumer = None

    async def __aenter__(self) -> Decider:
        await self.start()
        return self

    async def __aexit__(self, *exc: type[BaseException] | BaseException | TracebackType | None) -> None:
        await self.stop()

    # ---- deciding ----------------------------------------------------------------------------

    async def decide(
        self,
        *,
        tenant: str,
        answer_id: str,
        kind: DecisionKind,
        reviewer: str,
        note: str = "",
        text: str | None = None,
    ) -> Item:
        """Claim, publish and finish one decision; returns the item as decided."""
        decision = PendingDecision(
            kind=kind, reviewer=reviewer, note=note, text=text, decided_ms=self.now_ms()
        )
        lease_until = decision.decided_ms + self.lease_ms
        claimed = await self.store.claim(
            tenant=tenant, answer_id=answer_id, decision=decision, lease_until_ms=lease_until
        )
        if claimed.status == "missing":
            raise NotFound(f"no review item {answer_id!r}")
        if claimed.token is None:
            who = claimed.decision.reviewer if claimed.decision else "someone"
            raise Conflict(f"{answer_id!r} is already {claimed.status} by {who}", claimed=claimed)
        item = await self.store.get(tenant=tenant, answer_id=answer_id)
        assert item is not None and item.decision is not None
        await self._publish(item, token=claimed.token, lease_until_ms=lease_until)
        await self._finish(item, token=claimed.token)
        done = await self.store.get(tenant=tenant, answer_id=answer_id)
        assert done is not None
        return done

    async def recover(self) -> int:
        """Finish every decision whose lease ran out (its console died); returns how many."""
        now = self.now_ms()
        finished = 0
        for tenant, answer_id in await self.store.expired_leases(now_ms=now):
            item = await self.store.get(tenant=tenant, answer_id=answer_id)
            if item is None or item.status != "deciding" or item.token is None:
                continue
            lease_until = now + self.lease_ms
            token = await self.store.take_over(
                tenant=tenant,
                answer_id=answer_id,
                old_token=item.token,
                lease_until_ms=lease_until,
                now_ms=now,
            )
            if token is None:
                continue
            try:
                if not await self._already_published(item):
                    await self._publish(item, token=token, lease_until_ms=lease_until)
                await self._finish(item, token=token)
            except Conflict:
                continue  # another console took it over meanwhile
            log.warning("recovered the %s decision on %s for tenant %r", item.status, answer_id, tenant)
            finished += 1
        return finished

    # ---- steps -------------------------------------------------------------------------------

    def _step(self, name: str) -> None:
        if self.fault is not None:
            self.fault(name)

    async def _partition(self, key: bytes) -> int:
        assert self._producer is not None
        partitions = sorted(await self._producer.partitions_for(self.topics.corrected))
        return int(self._partitioner(key, partitions, partitions))

    async def _end_offset(self, tp: TopicPartition) -> int:
        assert self._consumer is not None
        async with self._offsets_lock:
            ends: dict[TopicPartition, int] = await self._consumer.end_offsets([tp])
        return ends[tp]

    async def _publish(self, item: Item, *, token: str, lease_until_ms: int) -> None:
        assert self._producer is not None and item.decision is not None
        key = item.id.encode()
        partition = await self._partition(key)
        before = await self._end_offset(TopicPartition(self.topics.corrected, partition))
        marked = await self.store.mark(
            tenant=item.tenant, answer_id=item.id, token=token, partition=partition, offset=before
        )
        if not marked or self.now_ms() > lease_until_ms - self.lease_ms // 2:
            raise Conflict(f"lost the lease on {item.id!r}", claimed=Claimed("deciding"))
        self._step("before_send")
        out = output_for(item.request.corrected, item.decision)
        base = {k: v.encode("latin-1") for k, v in item.headers.items() if k != H_SCHEMA}
        with consume_span("review", base, answer_id=item.id) as span:
            span.set_attribute("woodpecker.review.decision", item.decision.kind)
            headers = {**base, H_SCHEMA: out.schema_version.encode(), H_REVIEW_TOKEN: token.encode()}
            await self._producer.send_and_wait(
                self.topics.corrected,
                out.to_json(),
                key=key,
                partition=partition,
                headers=inject_headers(headers=headers),
            )
            self._step("after_send")
            record = ReviewDecision(
                id=item.id,
                tenant=item.request.tenant,
                decision=item.decision.kind,
                reason=item.decision.note,
                reviewer=item.decision.reviewer,
                decided_at_ms=item.decision.decided_ms,
            )
            audit = inject_headers(headers={H_SCHEMA: record.schema_version.encode()})
            await self._producer.send_and_wait(
                decisions_topic(self.settings.kafka), record.to_json(), key=key, headers=audit
            )
            _log_decision(item, trace_id=current_trace_id())

    async def _finish(self, item: Item, *, token: str) -> None:
        assert item.decision is not None
        self._step("before_finish")
        await self.store.finish(
            tenant=item.tenant, answer_id=item.id, token=token, status=item.decision.kind, at_ms=self.now_ms()
        )

    async def _already_published(self, item: Item) -> bool:
        """Whether the output of `item`'s decision is on the output topic after its marked offset."""
        if item.partition is None or item.offset is None:
            return False  # the mark comes before the send: nothing was sent
        tp = TopicPartition(self.topics.corrected, item.partition)
        end = await self._end_offset(tp)
        if end <= item.offset:
            return False
        options = client_options(self.settings.kafka, bootstrap=self.bootstrap)
        scanner = AIOKafkaConsumer(**options, group_id=None, enable_auto_commit=False)
        await scanner.start()
        try:
            scanner.assign([tp])
            scanner.seek(tp, item.offset)
            while await scanner.position(tp) < end:
                batches = await scanner.getmany(tp, timeout_ms=1000)
                for record in batches.get(tp, []):
                    headers = dict(record.headers or ())
                    if record.key == item.id.encode() and H_REVIEW_TOKEN in headers:
                        return True
            return False
        finally:
            await scanner.stop()


async def decide_in_store(
    settings: Settings,
    *,
    bootstrap: str,
    tenant: str,
    answer_id: str,
    kind: DecisionKind,
    reviewer: str,
    note: str,
) -> tuple[ReviewDecision, Corrected] | None:
    """A `woodpecker review approve|reject` through the console's store, when it holds the item.

    So the command line and the console never both publish one answer. None: no Redis configured, or
    the store does not know the item (no console ran): the caller decides from the topics alone.
    """
    from workers.console.store import open_store

    if settings.cache.redis_url is None:
        return None
    store = open_store(settings)
    try:
        if await store.get(tenant=tenant, answer_id=answer_id) is None:
            return None
        async with Decider(settings, store=store, bootstrap=bootstrap) as decider:
            try:
                item = await decider.decide(
                    tenant=tenant, answer_id=answer_id, kind=kind, reviewer=reviewer, note=note
                )
            except (Conflict, NotFound) as exc:
                from workers.review import ReviewError

                raise ReviewError(str(exc)) from exc
    finally:
        await store.client.aclose()
    assert item.decision is not None
    record = ReviewDecision(
        id=answer_id, tenant=item.request.tenant, decision=kind, reason=note, reviewer=reviewer,
        decided_at_ms=item.decision.decided_ms,
    )  # fmt: skip
    return record, output_for(item.request.corrected, item.decision)


def _log_decision(item: Item, *, trace_id: str | None) -> None:
    """One `review_decision` line in the decision log: who decided what, when."""
    assert item.decision is not None
    if not decision_log.handlers:
        configure_decision_log()
    fields: dict[str, Any] = {
        "answer_id": item.id,
        "tenant": item.request.tenant,
        "decision": item.decision.kind,
        "reviewer": item.decision.reviewer,
        "note": item.decision.note,
        "edited": item.decision.text is not None,
        "decided_at_ms": item.decision.decided_ms,
        "queued_ms": item.queued_ms,
        "trace_id": trace_id,
    }
    decision_log.info("review_decision", extra={FIELDS_ATTR: fields})

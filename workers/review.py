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

import argparse
import asyncio
import getpass
import sys
import time
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import KafkaError
from aiokafka.structs import ConsumerRecord
from pydantic import Field

from workers.agents.context import H_SCHEMA
from workers.agents.topics import Topics, client_options, require_bootstrap
from workers.errors import ConfigError, InvalidMessage, WoodpeckerError
from workers.exits import ExitCode, explain
from workers.messages import Action, Corrected, Route, _Frozen, read_output
from workers.redact import redact
from workers.render import render
from workers.settings import KafkaSettings, Settings
from workers.telemetry import consume_span, inject_headers, setup_telemetry

__all__ = [
    "Decision",
    "ReviewDecision",
    "ReviewError",
    "ReviewItem",
    "ReviewQueue",
    "approved",
    "decide",
    "decisions_topic",
    "load_queue",
    "register",
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


@dataclass(frozen=True)
class Decision:
    """What the reviewer decided: for an approval `reason` is the optional note."""

    kind: DecisionKind
    reason: str = ""
    reviewer: str = "unknown"


async def decide(
    settings: Settings,
    *,
    bootstrap: str,
    tenant: str,
    answer_id: str,
    decision: Decision,
    timeout_s: float = 15.0,
) -> tuple[ReviewDecision, Corrected]:
    """Publish the decided answer to the output topic, then record the decision; returns both.

    With Redis configured and the item in the review console's store, the console's decider does it
    (exactly once, also against a reviewer deciding in the console at the same moment).
    """
    if settings.cache.redis_url is not None:
        from workers.console.decide import decide_in_store

        done = await decide_in_store(
            settings, bootstrap=bootstrap, tenant=tenant, answer_id=answer_id, kind=decision.kind,
            reviewer=decision.reviewer, note=decision.reason,
        )  # fmt: skip
        if done is not None:
            return done
    queue = await load_queue(settings, bootstrap=bootstrap, tenant=tenant, timeout_s=timeout_s)
    item = _pending_item(queue, answer_id)
    if decision.kind == "approved":
        out = approved(item.corrected, note=decision.reason)
    else:
        out = rejected(item.corrected, reason=decision.reason)
    record = ReviewDecision(
        id=answer_id,
        tenant=item.corrected.tenant,
        decision=decision.kind,
        reason=decision.reason,
        reviewer=decision.reviewer,
        decided_at_ms=int(time.time() * 1000),
    )
    with consume_span("review", item.headers, answer_id=answer_id) as span:
        span.set_attribute("woodpecker.review.decision", decision.kind)
        await _publish(settings, bootstrap=bootstrap, key=answer_id, out=out, record=record, item=item)
    return record, out


def _pending_item(queue: ReviewQueue, answer_id: str) -> ReviewItem:
    item = queue.items.get(answer_id)
    if item is None:
        raise ReviewError(f"no review item {answer_id!r} for tenant {queue.tenant!r}")
    done = queue.decided.get(answer_id)
    if done is not None:
        raise ReviewError(f"{answer_id!r} was already {done.decision} by {done.reviewer}")
    return item


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


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "review",
        help="list, show, approve or reject answers held for human review",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="review_command", metavar="ACTION", required=True)
    for name, text in (
        ("list", "pending items for the tenant, one JSON line each"),
        ("show", "one item: the answer, its changes and why"),
        ("approve", "publish the corrected answer (route review_approved)"),
        ("reject", "publish the original answer, with the reason"),
    ):
        _action_parser(actions, name, text)
    from workers.console.command import add_parsers  # light: the console's own imports wait until it runs

    add_parsers(actions)


def _action_parser(actions: Any, name: str, text: str) -> None:
    p: argparse.ArgumentParser = actions.add_parser(name, help=text, description=text)
    p.add_argument("--tenant", required=True, help="the tenant whose items to see ('' for none)")
    p.add_argument("--bootstrap", help="Kafka brokers host:port[,...] (default: KAFKA_BOOTSTRAP)")
    p.add_argument("--config", help="a settings TOML file (default: WOODPECKER_CONFIG or built-in defaults)")
    p.add_argument("--timeout", type=float, default=15.0, help="seconds to read the topics (default 15)")
    if name == "list":
        p.add_argument("--all", action="store_true", help="also items already decided, with the decision")
    else:
        p.add_argument("answer_id", metavar="ANSWER_ID")
    if name == "show":
        p.add_argument("--json", action="store_true", help="print the corrected.v1 record instead")
    if name in ("approve", "reject"):
        p.add_argument("--reviewer", default=_user(), help="who decides (default: the login name)")
    if name == "approve":
        p.add_argument("--note", default="", help="a note recorded with the approval")
    if name == "reject":
        p.add_argument("--reason", required=True, help="why the correction is rejected")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.load(config_file=args.config)
    setup_telemetry(settings, service_name="woodpecker-review")
    try:
        bootstrap = require_bootstrap(settings.kafka, args.bootstrap)
        lines = asyncio.run(_command(args, settings, bootstrap=bootstrap))
    except (ReviewError, ConfigError, KafkaError) as exc:
        print(redact(f"woodpecker review: {exc}"), file=sys.stderr)
        return ExitCode.PARTIAL if isinstance(exc, ReviewError) else explain(exc)[0]
    for line in lines:
        print(line)
    return 0


async def _command(args: argparse.Namespace, settings: Settings, *, bootstrap: str) -> list[str]:
    if args.review_command in ("approve", "reject"):
        kind: DecisionKind = "approved" if args.review_command == "approve" else "rejected"
        decision = Decision(
            kind, reason=args.note if kind == "approved" else args.reason, reviewer=args.reviewer
        )
        record, _ = await decide(
            settings, bootstrap=bootstrap, tenant=args.tenant, answer_id=args.answer_id, decision=decision,
            timeout_s=args.timeout,
        )  # fmt: skip
        return [record.to_json().decode()]
    queue = await load_queue(settings, bootstrap=bootstrap, tenant=args.tenant, timeout_s=args.timeout)
    if queue.skipped:
        print(f"woodpecker review: skipped {queue.skipped} unreadable record(s)", file=sys.stderr)
    if args.review_command == "list":
        return _list_lines(queue, include_decided=args.all)
    return [_show(queue, args.answer_id, as_json=args.json)]


def _list_lines(queue: ReviewQueue, *, include_decided: bool) -> list[str]:
    items = sorted(queue.items.values(), key=lambda i: (i.timestamp_ms, i.corrected.id))
    shown = items if include_decided else queue.pending()
    return [orjson.dumps(_summary(i, queue.decided.get(i.corrected.id))).decode() for i in shown]


def _summary(item: ReviewItem, decision: ReviewDecision | None) -> dict[str, Any]:
    c = item.corrected
    summary: dict[str, Any] = {
        "id": c.id,
        "tenant": c.tenant,
        "review_reasons": list(c.review_reasons),
        "claims": len(c.claims),
        "changes": sum(claim.action is not Action.KEEP for claim in c.claims),
        "queued_at_ms": item.timestamp_ms,
    }
    if decision is not None:
        summary["decision"] = decision.decision
        summary["reviewer"] = decision.reviewer
    return summary


def _show(queue: ReviewQueue, answer_id: str, *, as_json: bool) -> str:
    item = queue.items.get(answer_id)
    if item is None:
        raise ReviewError(f"no review item {answer_id!r} for tenant {queue.tenant!r}")
    if as_json:
        return item.corrected.to_json().decode()
    done = queue.decided.get(answer_id)
    status = f"decided: {done.decision} by {done.reviewer}" if done else "pending"
    return f"{render(item.corrected, color=sys.stdout.isatty())}\n  review: {status}"


def _user() -> str:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no login name in some containers
        return "unknown"

"""`woodpecker review list|show|approve|reject|serve`: the review queue from the command line.

Usage::

    woodpecker review list --tenant acme
    woodpecker review approve --tenant acme a1 --note "checked against the contract"

The queue itself (reading the review topic, approving, rejecting, publishing) is `workers/review.py`,
which the review console shares; this module only adds the commands, so neither imports the other back.
"""

from __future__ import annotations

import argparse
import asyncio
import getpass
import sys
import time
from dataclasses import dataclass
from typing import Any

import orjson
from aiokafka.errors import KafkaError

from workers.agents.topics import require_bootstrap
from workers.errors import ConfigError
from workers.exits import ExitCode, explain
from workers.messages import Action, Corrected
from workers.redact import redact
from workers.render import render
from workers.review import (
    DecisionKind,
    ReviewDecision,
    ReviewError,
    ReviewItem,
    ReviewQueue,
    _publish,
    approved,
    load_queue,
    rejected,
)
from workers.settings import Settings
from workers.telemetry import consume_span, setup_telemetry

__all__ = ["Decision", "decide", "register", "run"]


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

"""Failure handling for the agents: bounded retries with backoff, then the dead-letter topic.

Usage::

    policy = RetryPolicy.from_settings(settings.kafka)
    try:
        prepared = await with_retries(lambda: ctx.blocking(prepare, answer), policy=policy, what="prepare")
    except Exception as exc:
        await send_dead_letter(ctx, raw, exc=exc, stage="extraction", headers=headers)

What is retried depends on the error's type: bad input (`InvalidMessage`) and records too large to send
never get better, so they go to the dead-letter topic at once; anything else (a backend timeout, a bug
hit by one input) is retried `max_retries` times with exponential backoff, then dead-lettered. Nothing
is acknowledged silently: the handler that calls these always either sends an output or a dead letter.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from workers.agents.topics import Topics
from workers.errors import InvalidMessage, WoodpeckerError
from workers.messages import DeadLetter
from workers.settings import KafkaSettings, Settings
from workers.telemetry import inject_headers, record_dead_letter
from workers.validate import dead_letter

__all__ = [
    "DeadLetterContext",
    "RecordTooLarge",
    "RetriesExhausted",
    "RetryPolicy",
    "classify",
    "send_dead_letter",
    "with_retries",
]

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    retries: int = 3
    backoff_s: float = 0.2
    max_backoff_s: float = 5.0

    @classmethod
    def from_settings(cls, kafka: KafkaSettings) -> RetryPolicy:
        return cls(retries=max(0, kafka.max_retries), backoff_s=kafka.retry_backoff_s)

    def delay(self, retry: int) -> float:
        """Seconds to wait before retry number `retry` (0-based): doubling, capped."""
        return float(min(self.max_backoff_s, self.backoff_s * 2**retry))


class RetriesExhausted(WoodpeckerError):
    """Every attempt failed; `last` is the final error."""

    def __init__(self, what: str, attempts: int, last: BaseException) -> None:
        super().__init__(f"{what} failed {attempts} times; last error: {type(last).__name__}: {last}")
        self.attempts = attempts
        self.last = last


class RecordTooLarge(WoodpeckerError):
    """An output record over `kafka.max_record_bytes`: the broker would refuse it, so it is never retried."""


def _never_retried(exc: Exception) -> bool:
    return isinstance(exc, InvalidMessage | RecordTooLarge)


async def with_retries(
    fn: Callable[[], Awaitable[T]],
    *,
    policy: RetryPolicy,
    what: str,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
) -> T:
    """Await `fn()`, retrying failures per `policy`; errors that cannot improve are raised at once."""
    for retry in range(policy.retries + 1):
        try:
            return await fn()
        except Exception as exc:
            if _never_retried(exc):
                raise
            if retry == policy.retries:
                raise RetriesExhausted(what, retry + 1, exc) from exc
            log.warning(
                "%s failed (%s: %s); retry %d of %d", what, type(exc).__name__, exc, retry + 1, policy.retries
            )
            await sleep(policy.delay(retry))
    raise AssertionError("unreachable")  # pragma: no cover


def classify(exc: BaseException) -> tuple[str, str]:
    """(kind, reason) for a dead-letter record; the kind lets producers count failures by cause."""
    if isinstance(exc, InvalidMessage):
        return exc.kind, exc.reason
    if isinstance(exc, RecordTooLarge):
        return "too_large_output", str(exc)
    if isinstance(exc, RetriesExhausted):
        return "retries_exhausted", str(exc)
    return "processing_error", f"{type(exc).__name__}: {exc}"


def text_headers(headers: Mapping[str, bytes]) -> dict[str, str]:
    return {k: v.decode("utf-8", "replace") for k, v in headers.items()}


class _Sink(Protocol):
    async def send(
        self, topic: str, *, key: str | None, value: bytes, headers: Mapping[str, bytes]
    ) -> None: ...


class DeadLetterContext(Protocol):
    """What sending a dead letter needs of an agent's context (`agents.context.AgentContext` has it)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def topics(self) -> Topics: ...
    @property
    def sink(self) -> _Sink: ...
    @property
    def counts(self) -> Counter[str]: ...


async def send_dead_letter(
    ctx: DeadLetterContext,
    raw: bytes,
    *,
    exc: BaseException,
    stage: str,
    headers: Mapping[str, bytes],
    answer_id: str | None = None,
) -> DeadLetter:
    """Publish a deadletter.v1 record (reason, original bytes, headers), keyed by answer id when known."""
    kind, reason = classify(exc)
    record = dead_letter(
        raw, reason=reason, kind=kind, stage=stage, headers=text_headers(headers), max_bytes=_room(ctx)
    )
    if record.id is None and answer_id is not None:
        record = record.model_copy(update={"id": answer_id})
    meta = {"woodpecker-dlq-kind": kind.encode(), "woodpecker-dlq-stage": stage.encode()}
    # The current agent span's trace context, so a dead letter is found in its answer's trace.
    traced = inject_headers(headers=[*meta.items(), ("woodpecker-schema", b"deadletter.v1")])
    await ctx.sink.send(ctx.topics.deadletter, key=record.id, value=record.to_json(), headers=dict(traced))
    ctx.counts[f"deadletter.{stage}"] += 1
    record_dead_letter(record)
    log.warning("dead-lettered %s at %s: %s (%s)", record.id or "<no id>", stage, reason, kind)
    return record


def _room(ctx: DeadLetterContext) -> int:
    # Base64 grows the original by 4/3, and the record needs room for the reason and headers.
    return max(1024, ctx.settings.kafka.max_record_bytes * 2 // 3 - 16_384)

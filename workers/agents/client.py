"""Plain Kafka clients for the edges of the stream: publish answers in, tail records out.

Usage::

    sent = await publish_lines(settings.kafka, bootstrap=b, topic=topics.answers, lines=open(path, "rb"))
    async for record in tail_records(settings.kafka, bootstrap=b, topic=topics.corrected, limit=8):
        print(record.key, record.latency_ms)

Records are keyed by answer id (so one answer's records stay in order); `tail_records` yields each key
once by default, since delivery is at-least-once and a restarted worker may repeat an output.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncGenerator, AsyncIterator, Iterable, Sequence
from dataclasses import dataclass, field

import orjson
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer
from aiokafka.errors import KafkaError

from workers.agents.compat import install_for
from workers.agents.context import H_INGEST_MS
from workers.agents.topics import client_options
from workers.settings import KafkaSettings

__all__ = ["PublishResult", "Record", "peek_id", "publish_lines", "tail_records"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Record:
    key: str | None
    value: bytes
    headers: dict[str, bytes]
    timestamp_ms: int
    partition: int
    offset: int

    @property
    def latency_ms(self) -> int | None:
        """Input record time to this record's time, from the ingest header the agents carry along."""
        raw = self.headers.get(H_INGEST_MS)
        if not raw:
            return None
        ingest = int(raw)
        return self.timestamp_ms - ingest if ingest > 0 else None


@dataclass(frozen=True)
class PublishResult:
    sent: int
    refused: tuple[str, ...] = field(default_factory=tuple)


def peek_id(line: bytes) -> str | None:
    """The `id` of a JSON object line, used as the record key; None for anything unreadable."""
    try:
        obj = orjson.loads(line)
    except orjson.JSONDecodeError:
        return None
    value = obj.get("id") if isinstance(obj, dict) else None
    return value if isinstance(value, str) and value else None


async def publish_lines(
    kafka: KafkaSettings, *, bootstrap: str, topic: str, lines: Iterable[bytes]
) -> PublishResult:
    """Send each non-empty line as one record, as is: the stream validates, and dead-letters bad input."""
    producer = AIOKafkaProducer(
        **client_options(kafka, bootstrap=bootstrap),
        acks="all",
        linger_ms=5,
        max_request_size=kafka.max_record_bytes,
    )
    await producer.start()
    pending: list[asyncio.Future[object]] = []
    refused: list[str] = []
    try:
        for number, line in enumerate(lines, start=1):
            body = line.rstrip(b"\r\n")
            if not body.strip():
                continue
            key = peek_id(body)
            try:
                pending.append(await producer.send(topic, body, key=key.encode() if key else None))
            except KafkaError as exc:
                refused.append(f"line {number}: {type(exc).__name__}")
        await asyncio.gather(*pending)
    finally:
        await producer.stop()
    return PublishResult(sent=len(pending), refused=tuple(refused))


async def tail_records(
    kafka: KafkaSettings,
    *,
    bootstrap: str,
    topic: str,
    from_beginning: bool = False,
    limit: int | None = None,
    idle_timeout_s: float | None = None,
    distinct: bool = True,
    also: Sequence[str] = (),
) -> AsyncGenerator[Record, None]:
    """Yield records of `topic` and the `also` topics until `limit` distinct keys or `idle_timeout_s` idle."""
    install_for(kafka, bootstrap=bootstrap, faust=False)
    consumer = AIOKafkaConsumer(
        topic,
        *also,
        **client_options(kafka, bootstrap=bootstrap),
        group_id=None,
        auto_offset_reset="earliest" if from_beginning else "latest",
        enable_auto_commit=False,
    )
    await consumer.start()
    seen: set[str | None] = set()
    try:
        async for record in _records(consumer, idle_timeout_s=idle_timeout_s):
            if distinct and record.key is not None and record.key in seen:
                continue
            seen.add(record.key)
            yield record
            if limit is not None and len(seen) >= limit:
                return
    finally:
        await consumer.stop()


async def _records(consumer: AIOKafkaConsumer, *, idle_timeout_s: float | None) -> AsyncIterator[Record]:
    loop = asyncio.get_running_loop()
    last = loop.time()
    while idle_timeout_s is None or loop.time() - last < idle_timeout_s:
        batches = await consumer.getmany(timeout_ms=200, max_records=500)
        for messages in batches.values():
            for m in messages:
                last = loop.time()
                yield Record(
                    key=m.key.decode("utf-8", "replace") if m.key is not None else None,
                    value=m.value or b"",
                    headers={k: bytes(v or b"") for k, v in (m.headers or ())},
                    timestamp_ms=int(m.timestamp),
                    partition=m.partition,
                    offset=m.offset,
                )

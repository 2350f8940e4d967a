"""The consumer that materialises the review topic into the Redis store.

Usage::

    sync = ReviewSync(settings, store=store, bootstrap=bootstrap)
    await sync.start()
    await sync.run_until(stop_event)      # or: added = await sync.poll_once()
    await sync.stop()

A consumer group of its own (`<app_id>-review-console`), so several consoles share the partitions and a
restarted one resumes at its committed offsets. Offsets are committed only after the records are in
Redis; a record seen twice is added once (`ReviewStore.add` keeps what is there), so an item already
decided is never queued again by a replay. Unreadable records are logged and skipped: the correction
agent already dead-letters what it cannot write.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiokafka import AIOKafkaConsumer
from aiokafka.structs import ConsumerRecord

from workers.agents.compat import install_for
from workers.agents.context import H_SCHEMA
from workers.agents.topics import Topics, client_options
from workers.console.store import ReviewStore
from workers.errors import InvalidMessage
from workers.messages import read_review
from workers.settings import Settings

__all__ = ["ReviewSync"]

log = logging.getLogger(__name__)


class ReviewSync:
    def __init__(self, settings: Settings, *, store: ReviewStore, bootstrap: str) -> None:
        self.settings = settings
        self.store = store
        self.bootstrap = bootstrap
        self.topic = Topics.from_settings(settings.kafka).review
        self.skipped = 0
        self._consumer: AIOKafkaConsumer | None = None

    async def start(self) -> None:
        kafka = self.settings.kafka
        install_for(kafka, bootstrap=self.bootstrap, faust=False)
        self._consumer = AIOKafkaConsumer(
            self.topic,
            **client_options(kafka, bootstrap=self.bootstrap),
            group_id=f"{kafka.app_id}-review-console",
            auto_offset_reset="earliest",
            enable_auto_commit=False,
            session_timeout_ms=int(kafka.session_timeout_s * 1000),
            heartbeat_interval_ms=int(kafka.heartbeat_s * 1000),
        )
        await self._consumer.start()

    async def stop(self) -> None:
        if self._consumer is not None:
            await asyncio.sleep(0)
            await self._consumer.stop()
            self._consumer = None

    async def poll_once(self, *, timeout_ms: int = 500) -> int:
        """Fetch what is there, store it, commit; returns how many items were new."""
        assert self._consumer is not None
        batches = await self._consumer.getmany(timeout_ms=timeout_ms, max_records=500)
        added = 0
        for records in batches.values():
            for record in records:
                added += await self._store(record)
        if batches:
            await self._consumer.commit()
        return added

    async def run_until(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.poll_once()
            except asyncio.CancelledError:
                raise
            except Exception:
                # Redis or the broker away for a moment: the uncommitted records come again.
                log.exception("review sync failed; retrying")
                await asyncio.sleep(1.0)

    async def _store(self, record: ConsumerRecord[Any, Any]) -> int:
        try:
            request = read_review(record.value or b"")
        except InvalidMessage as exc:
            self.skipped += 1
            log.warning(
                "skipped an unreadable review record at %s/%s: %s", record.partition, record.offset, exc
            )
            return 0
        headers = {k: bytes(v or b"").decode("latin-1") for k, v in (record.headers or ()) if k != H_SCHEMA}
        return int(await self.store.add(request, queued_ms=int(record.timestamp), headers=headers))

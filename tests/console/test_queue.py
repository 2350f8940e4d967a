"""The review queue in Redis against a real broker: materialised per tenant, decided exactly once."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator

import pytest

from lab.broker import EmbeddedBroker
from tests.console.helpers import fresh_settings, outputs, review_request, seed
from workers.console.decide import Conflict, Decider, NotFound
from workers.console.store import ReviewStore, open_store
from workers.console.sync import ReviewSync
from workers.decisions import FIELDS_ATTR
from workers.decisions import logger as decision_log
from workers.messages import Action, Route
from workers.settings import Settings

pytestmark = pytest.mark.integration


@pytest.fixture
def settings(broker: EmbeddedBroker, redis_url: str, redis_prefix: str) -> Settings:
    return fresh_settings(broker.bootstrap, redis_url, redis_prefix)


@pytest.fixture
async def store(settings: Settings) -> AsyncIterator[ReviewStore]:
    opened = open_store(settings)
    yield opened
    await opened.client.aclose()


async def _sync(settings: Settings, store: ReviewStore, *, expect: int) -> ReviewSync:
    sync = ReviewSync(settings, store=store, bootstrap=settings.kafka.bootstrap or "")
    await sync.start()
    added, deadline = 0, time.monotonic() + 30
    try:
        while added < expect and time.monotonic() < deadline:
            added += await sync.poll_once()
    finally:
        await sync.stop()
    assert added == expect
    return sync


def _decider(settings: Settings, store: ReviewStore, **options: object) -> Decider:
    return Decider(settings, store=store, bootstrap=settings.kafka.bootstrap or "", **options)  # type: ignore[arg-type]


async def test_the_topic_is_materialised_per_tenant_oldest_first(
    settings: Settings, store: ReviewStore
) -> None:
    requests = [review_request("a1", "acme"), review_request("a2", "acme"), review_request("a1", "globex")]
    await seed(settings, requests, garbage=True)
    sync = await _sync(settings, store, expect=3)
    assert sync.skipped == 1
    assert [i.id for i in await store.pending(tenant="acme")] == ["a1", "a2"]
    assert [i.tenant for i in await store.pending(tenant="globex")] == ["globex"]
    assert await store.pending(tenant="") == []
    item = await store.get(tenant="acme", answer_id="a1")
    assert item is not None and item.request.documents[0].id == "nw-ar" and item.status == "pending"
    assert item.headers == {"woodpecker-ingest-ms": "1"}
    # Nothing expires while pending.
    keys = [k async for k in store.client.scan_iter(match=store.ns + "*")]
    assert keys and [await store.client.ttl(k) for k in keys] == [-1] * len(keys)
    # A replay of an item (decided or not) never queues it a second time.
    async with _decider(settings, store) as decider:
        await decider.decide(tenant="acme", answer_id="a1", kind="approved", reviewer="rita")
    await seed(settings, [review_request("a1", "acme")])
    settings2 = settings.model_copy(update={"kafka": settings.kafka.model_copy(update={"app_id": "other"})})
    await _sync(settings2, store, expect=0)
    assert [i.id for i in await store.pending(tenant="acme")] == ["a2"]


async def test_the_queue_is_oldest_first_and_a_tie_goes_by_id(store: ReviewStore) -> None:
    # Records of one millisecond on different partitions are read in no set order: the id decides.
    for answer_id in ["a1", "a/2", "late"]:
        queued = 1_700_000_000_001 if answer_id == "late" else 1_700_000_000_000
        assert await store.add(review_request(answer_id, "acme"), queued_ms=queued, headers={})
    await store.add(review_request("early", "acme"), queued_ms=1_699_999_999_999, headers={})
    assert [i.id for i in await store.pending(tenant="acme")] == ["early", "a/2", "a1", "late"]


async def test_two_reviewers_at_once_publish_one_output(settings: Settings, store: ReviewStore) -> None:
    await seed(settings, [review_request("a1", "acme")])
    await _sync(settings, store, expect=1)
    async with _decider(settings, store) as one, _decider(settings, store) as two:
        results = await asyncio.gather(
            one.decide(tenant="acme", answer_id="a1", kind="approved", reviewer="rita"),
            two.decide(tenant="acme", answer_id="a1", kind="rejected", reviewer="sam", note="wrong"),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Conflict", "Item"]
        with pytest.raises(NotFound):
            await one.decide(tenant="globex", answer_id="a1", kind="approved", reviewer="rita")
    [out] = await outputs(settings)
    assert out.id == "a1" and not out.needs_review
    [conflict] = [r for r in results if isinstance(r, Conflict)]
    assert "already" in str(conflict)


class _Crash(Exception):
    """The console process dying at this point."""


@pytest.mark.parametrize("step", ["before_send", "after_send", "before_finish"])
async def test_a_console_that_dies_mid_decision_is_finished_once_by_recovery(
    settings: Settings, store: ReviewStore, step: str
) -> None:
    await seed(settings, [review_request("a1", "acme")])
    await _sync(settings, store, expect=1)

    def crash(at: str) -> None:
        if at == step:
            raise _Crash(at)

    async with _decider(settings, store, fault=crash) as dying:
        with pytest.raises(_Crash):
            await dying.decide(tenant="acme", answer_id="a1", kind="edited", reviewer="rita", text="Edited.")
    stuck = await store.get(tenant="acme", answer_id="a1")
    assert stuck is not None and stuck.status == "deciding"
    async with _decider(settings, store) as restarted:
        assert await restarted.recover() == 0  # the lease still runs: the first console may yet finish
        later = _decider(settings, store, clock=lambda: time.time() + settings.review.lease_s + 1)
        async with later:
            assert await later.recover() == 1
            assert await later.recover() == 0
    [out] = await outputs(settings)
    assert out.corrected == "Edited." and out.route is Route.REVIEW_APPROVED
    assert out.review_reasons[-1] == "review_edited"
    done = await store.get(tenant="acme", answer_id="a1")
    assert done is not None and done.status == "edited" and done.decision is not None
    assert done.decision.reviewer == "rita"
    assert [i.id for i in await store.decided(tenant="acme")] == ["a1"]


async def test_reject_publishes_the_original_and_logs_the_decision(
    settings: Settings, store: ReviewStore
) -> None:
    await seed(settings, [review_request("a1", "acme")])
    await _sync(settings, store, expect=1)
    seen: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = seen.append  # type: ignore[method-assign]
    decision_log.addHandler(handler)
    try:
        async with _decider(settings, store) as decider:
            item = await decider.decide(
                tenant="acme", answer_id="a1", kind="rejected", reviewer="rita", note="4.8 was restated"
            )
    finally:
        decision_log.removeHandler(handler)
    assert item.status == "rejected"
    [out] = await outputs(settings)
    assert out.corrected == out.original and all(c.action is Action.KEEP for c in out.claims)
    assert out.review_reasons[-1] == "review_rejected: 4.8 was restated"
    [line] = [getattr(r, FIELDS_ATTR) for r in seen if r.getMessage() == "review_decision"]
    assert line["decision"] == "rejected" and line["reviewer"] == "rita" and line["tenant"] == "acme"
    assert line["note"] == "4.8 was restated"


async def test_the_command_line_decides_through_the_store_when_it_holds_the_item(
    settings: Settings, store: ReviewStore
) -> None:
    from workers.review import ReviewError
    from workers.review_command import Decision, decide

    await seed(settings, [review_request("a1", "acme")])
    await _sync(settings, store, expect=1)
    bootstrap = settings.kafka.bootstrap or ""
    decision = Decision("approved", reason="fine", reviewer="cli-user")
    record, out = await decide(
        settings, bootstrap=bootstrap, tenant="acme", answer_id="a1", decision=decision
    )
    assert record.reviewer == "cli-user" and out.route is Route.REVIEW_APPROVED
    item = await store.get(tenant="acme", answer_id="a1")
    assert item is not None and item.status == "approved"
    with pytest.raises(ReviewError, match="already approved by cli-user"):
        await decide(settings, bootstrap=bootstrap, tenant="acme", answer_id="a1", decision=decision)
    assert [o.id for o in await outputs(settings)] == ["a1"]

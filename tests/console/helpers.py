"""Review items as the correction agent writes them, and the broker/Redis plumbing the console tests share."""

from __future__ import annotations

import itertools
import time
from typing import Any

from aiokafka import AIOKafkaProducer

from workers.agents.topics import Topics, client_options, ensure_topics
from workers.messages import (
    Action,
    ClaimResult,
    Corrected,
    Document,
    Evidence,
    Judgement,
    ReviewRequest,
    Route,
    Stakes,
    Verdict,
)
from workers.review import _read_topic
from workers.settings import Settings

_PREFIXES = itertools.count()

DOC_TEXT = (
    "Northwind Traders is headquartered in Amsterdam and operates in 14 countries. "
    "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier."
)
EVIDENCE = "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier."


def review_request(
    answer_id: str,
    tenant: str | None,
    *,
    answer: str = "Northwind reported revenue of $4.8 billion in fiscal 2023.",
    domain: str = "finance",
    stakes: Stakes = Stakes.HIGH,
) -> ReviewRequest:
    """A high-stakes contradiction held for review, with its evidence span inside the document."""
    start = DOC_TEXT.index(EVIDENCE)
    evidence = Evidence(doc_id="nw-ar", start=start, end=start + len(EVIDENCE), text=EVIDENCE, score=0.91)
    fixed = answer.replace("$4.8 billion", "$4.2 billion")
    claim = ClaimResult(
        id="c0",
        text=answer,
        start=0,
        end=len(answer),
        verdict=Verdict.CONTRADICTED,
        judgement=Judgement.CONTRADICT,
        similarity=0.88,
        evidence=(evidence,),
        reason="figure $4.8 billion in claim, $4.2 billion in evidence",
        action=Action.REPLACE,
        replacement=fixed,
    )
    corrected = Corrected(
        id=answer_id,
        tenant=tenant,
        original=answer,
        corrected=fixed,
        route=Route.FULL,
        claims=(claim,),
        needs_review=True,
        review_reasons=("high_stakes_contradiction",),
    )
    document = Document(id="nw-ar", title="Northwind annual report 2023", text=DOC_TEXT)
    return ReviewRequest(
        id=answer_id,
        tenant=tenant,
        corrected=corrected,
        query="How did Northwind do?",
        domain=domain,
        stakes=stakes,
        documents=(document,),
    )


def fresh_settings(bootstrap: str, redis_url: str, redis_prefix: str, **review: Any) -> Settings:
    """Settings with topics and a Redis namespace of this test's own (its keys deleted afterwards)."""
    prefix = f"cs{next(_PREFIXES)}."
    return Settings.load(
        kafka={"bootstrap": bootstrap, "topic_prefix": prefix, "app_id": f"wp-{redis_prefix[7:-1]}"},
        cache={"redis_url": redis_url},
        review={"lease_s": 6.0, "redis_prefix": redis_prefix, **review},
    )


async def seed(settings: Settings, requests: list[ReviewRequest], *, garbage: bool = False) -> None:
    """Put requests on the review topic, as the correction agent does."""
    bootstrap = settings.kafka.bootstrap or ""
    await ensure_topics(settings.kafka, bootstrap=bootstrap)
    producer = AIOKafkaProducer(**client_options(settings.kafka, bootstrap=bootstrap), acks="all")
    await producer.start()
    try:
        topic = Topics.from_settings(settings.kafka).review
        # Each record a millisecond of its own: the queue is oldest first by record time, and records
        # sent back to back can share one (the tie then goes by id, whatever partition is read first).
        start_ms = int(time.time() * 1000)
        for i, request in enumerate(requests):
            headers = [("woodpecker-schema", b"review.v1"), ("woodpecker-ingest-ms", b"1")]
            await producer.send_and_wait(
                topic, request.to_json(), key=request.id.encode(), headers=headers, timestamp_ms=start_ms + i
            )
        if garbage:
            await producer.send_and_wait(topic, b"{not json", key=b"junk")
    finally:
        await producer.stop()


async def outputs(settings: Settings) -> list[Corrected]:
    """Every record now on the output topic."""
    options = client_options(settings.kafka, bootstrap=settings.kafka.bootstrap or "")
    records = await _read_topic(options, Topics.from_settings(settings.kafka).corrected, timeout_s=15)
    return [Corrected.from_json(r.value) for r in records]

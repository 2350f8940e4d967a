"""The same answers give the same output through `woodpecker correct` and through the three agents.

Both paths run the phase contract (`Pipeline.prepare` / `verify` / `finish`) with an LLM extractor on the
scripted OpenAI-compatible server, the shipped verifier, citations, and a real Redis (one database per
path, so neither warms the other's caches). The answers go in three rounds, each waited for: a warm-up
(the texts every answer shares get cached), the answers, then copies of some of them under new ids,
which both paths must take from the semantic cache. Everything but timings must be equal, field for field.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster
from lab.llm_fake import FakeLLMServer
from lab.stream_bench import synthetic_answers
from workers.agents.client import publish_lines, tail_records
from workers.agents.context import H_SCHEMA
from workers.agents.topics import Topics
from workers.messages import Answer, Corrected, read_output, read_review
from workers.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as server:
        yield server


def _env(*, llm_url: str, redis_url: str, db: int, prefix: str) -> dict[str, str]:
    return {
        "WOODPECKER_SAMPLER__RATE": "1.0",
        "WOODPECKER_ROUTING__ENABLED": "false",
        "WOODPECKER_KAFKA__TOPIC_PREFIX": prefix,
        "WOODPECKER_CACHE__REDIS_URL": f"{redis_url.rstrip('/').rsplit('/', 1)[0]}/{db}",
        "WOODPECKER_MODELS__EXTRACTION__BACKEND": "openai",
        "WOODPECKER_MODELS__EXTRACTION__BASE_URL": llm_url,
        "WOODPECKER_MODELS__EXTRACTION__MODEL": "extractor-8b",
        "WOODPECKER_MODELS__PRICES": '{"extractor-8b": [0.1, 0.4]}',
        "OPENAI_API_KEY": "test-key",
    }


def _rounds(tag: str) -> list[list[Answer]]:
    """Warm-up, answers with citation markers, and copies of three of them (semantic-cache hits)."""
    answers = [_cited(a) for a in synthetic_answers(9, prefix=f"eq-{tag}")]
    copies = [a.model_copy(update={"id": f"{a.id}-again"}) for a in answers[1:8:3]]
    return [answers[:1], answers[1:], copies]


def _cited(answer: Answer) -> Answer:
    # "[1]" after the first sentence: a citation to check (and to repair when it names the wrong span).
    first, _, rest = answer.answer.partition(". ")
    return answer.model_copy(update={"answer": f"{first} [1]. {rest}".strip()})


def _compared(out: Corrected) -> dict[str, Any]:
    stats = out.stats
    return {
        "corrected": out.corrected,
        "claims": [(c.id, c.text, c.verdict, c.action, c.replacement) for c in out.claims],
        "citations": [(c.verdict, c.action, c.replacement) for c in out.citations],
        "needs_review": out.needs_review,
        "route": out.route,
        "llm": (stats.llm_calls, stats.tokens_in, stats.tokens_out, stats.cost_usd, stats.llm_stages),
        "cache_hits": stats.cache_hits,
        "fallback": stats.fallback,
        "escalated": stats.escalated,
    }


def _batch(rounds: list[list[Answer]], tmp_path: Path, env: dict[str, str]) -> dict[str, Corrected]:
    out: dict[str, Corrected] = {}
    for i, answers in enumerate(rounds):
        source, target = tmp_path / f"in{i}.jsonl", tmp_path / f"out{i}.jsonl"
        source.write_bytes(b"".join(a.to_json() + b"\n" for a in answers))
        command = [sys.executable, "-m", "workers.cli", "correct", "--in", str(source), "--out", str(target)]
        subprocess.run(command, env=env, check=True, timeout=600, capture_output=True)
        out |= {c.id: c for c in map(read_output, target.read_bytes().splitlines())}
    return out


async def _stream(rounds: list[list[Answer]], settings: Settings, bootstrap: str) -> dict[str, Corrected]:
    out: dict[str, Corrected] = {}
    for answers in rounds:
        topic = Topics.from_settings(settings.kafka)
        lines = [a.to_json() for a in answers]
        sent = await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic.answers, lines=lines)
        assert sent.sent == len(answers)
        out |= await _collect(settings, bootstrap, topic, ids={a.id for a in answers})
    return out


async def _collect(
    settings: Settings, bootstrap: str, topics: Topics, *, ids: set[str]
) -> dict[str, Corrected]:
    found: dict[str, Corrected] = {}
    records = tail_records(
        settings.kafka, bootstrap=bootstrap, topic=topics.corrected, also=(topics.review,),
        from_beginning=True, idle_timeout_s=240.0,
    )  # fmt: skip
    async with asyncio.timeout(240.0), contextlib.aclosing(records):
        async for record in records:
            if record.key in ids:
                review = record.headers.get(H_SCHEMA) == b"review.v1"
                found[record.key] = (
                    read_review(record.value).corrected if review else read_output(record.value)
                )
            if len(found) == len(ids):
                break
    return found


# 8 (the default): up to eight claim records at once, in two verify calls; records that come while both
# run share the next call (agents/coalesce.py), and its cache hits go back to the answers that had them.
# The same claim in two calls at once is judged once: the second waits for the verdict (backends.cached),
# so even the cache counts are equal. Claims go one to a record, or eight (the default) to a record.
@pytest.mark.parametrize(("verification_concurrency", "claims_per_record"), [(1, 1), (8, 1), (8, 8)])
async def test_batch_and_stream_give_the_same_output_field_for_field(
    llm: FakeLLMServer, redis_url: str, tmp_path: Path, verification_concurrency: int, claims_per_record: int
) -> None:
    prefix = f"eq-{uuid.uuid4().hex[:8]}."
    rounds = _rounds(uuid.uuid4().hex[:6])
    # A database per path and run (this one and its batch run the next): none warms another's caches.
    db = {(1, 1): 1, (8, 1): 3, (8, 8): 5}[verification_concurrency, claims_per_record]
    env = _env(llm_url=llm.url, redis_url=redis_url, db=db, prefix=prefix)
    env["WOODPECKER_KAFKA__VERIFICATION_CONCURRENCY"] = str(verification_concurrency)
    env["WOODPECKER_KAFKA__CLAIMS_PER_RECORD"] = str(claims_per_record)
    with kafka_bootstrap() as bootstrap, LocalCluster(bootstrap=bootstrap, env=env) as cluster:
        for agent in ("extraction", "verification", "correction"):
            cluster.start(agent)
        cluster.wait_assigned(timeout_s=180)
        settings = Settings(kafka={"topic_prefix": prefix})
        streamed = await _stream(rounds, settings, bootstrap)
        batch_env = cluster.child_env() | _env(llm_url=llm.url, redis_url=redis_url, db=db + 1, prefix=prefix)
    batched = _batch(rounds, tmp_path, batch_env)
    ids = [a.id for answers in rounds[1:] for a in answers]
    assert set(ids) <= set(streamed) and set(ids) <= set(batched)
    differ = [
        (i, field, got, want)
        for i in ids
        for (field, got), want in zip(
            _compared(streamed[i]).items(), _compared(batched[i]).values(), strict=True
        )
        if got != want
    ]
    assert differ == []
    # The comparison has teeth: LLM calls and tokens counted, citations checked, corrections made,
    # and the copies came from the semantic cache on both paths.
    assert all(streamed[i].stats.llm_calls >= 1 and streamed[i].stats.tokens_in > 0 for i in ids[:8])
    assert all(streamed[i].citations for i in ids[:8])
    assert any(streamed[i].corrected != streamed[i].original for i in ids)
    assert all(streamed[a.id].stats.cache_hits.get("semantic", 0) >= 1 for a in rounds[2])

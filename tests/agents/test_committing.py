"""A record still in flight holds its partition's commit, on a real broker (workers/agents/committing.py).

One verification worker works on two claims at once (`kafka.verification_concurrency` 2) on a
one-partition claims topic. The claim of one answer waits in `verify` until the test opens a gate, while
twenty later claims are verified and acked. The group's committed offset must stop at the held claim;
faust alone would commit past it. Then the worker is killed, as a crash would, and restarted with the
gate open: the held answer must still come out, every answer exactly once.

Usage::

    .venv/bin/python -m pytest tests/agents/test_committing.py -m integration
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster
from tests.agents.helpers import HELD
from tests.agents.test_faults import (
    _all_records,
    _committed,
    _count,
    _one,
    _one_claim,
    _outputs,
    _publish,
    _restart_settings,
    _wait_for,
)
from workers.agents.topics import Topics
from workers.messages import Answer, Document

if TYPE_CHECKING:
    from workers.settings import Settings

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def bootstrap() -> Iterator[str]:
    with kafka_bootstrap() as address:
        yield address


def _held(prefix: str) -> Answer:
    text = f"{HELD} Freight is headquartered in Oslo."
    return Answer(
        id=f"{prefix}-held", query=f"Where is {HELD} Freight based?", answer=text, stakes="medium",
        documents=(Document(id="d", text=f"{text} It employs 300 people."),),
    )  # fmt: skip


async def test_a_claim_in_flight_holds_the_commit_and_a_crash_after_later_acks_loses_nothing(
    bootstrap: str, tmp_path: Path
) -> None:
    prefix = f"inflight-{uuid.uuid4().hex[:8]}."
    settings, env = _restart_settings(prefix)
    gate = tmp_path / "gate"
    env |= {
        "WOODPECKER_KAFKA__PARTITIONS": "1",
        "WOODPECKER_KAFKA__VERIFICATION_CONCURRENCY": "2",
        "WOODPECKER_TEST_GATE": str(gate),
    }
    claims = Topics.from_settings(settings.kafka).claims
    answers = _one_claim(25, prefix=prefix)
    first, later = answers[:5], answers[5:]
    held = _held(prefix)
    ids = {a.id for a in [*first, held, *later]}
    factory = "tests.agents.helpers:gated_pipeline"
    with LocalCluster(bootstrap=bootstrap, env=env, pipeline_factory=factory) as cluster:
        for agents in ("extraction", "verification", "correction"):
            cluster.start(agents)
        cluster.wait_assigned(timeout_s=180)
        group = f"{cluster.app_id}-verification"
        verifier = _one(cluster, "verification")
        # A committed offset to start from: five claims verified and committed.
        await _publish(settings, bootstrap, first)
        await _committed_at_least(settings, bootstrap, group, claims, offset=5)
        # The held claim, then twenty that overtake it.
        await _publish(settings, bootstrap, [held, *later])
        await _wait_for(lambda: _count(verifier, "claims_verified") >= 25)
        await asyncio.sleep(2.0)  # four commit intervals: any commit faust would make is made
        held_at = next(
            r.offset
            for r in await _all_records(settings, bootstrap, claims)
            if (r.key or "").startswith(f"{held.id}/")
        )
        stopped_at = (await _committed(settings, bootstrap, group, claims)).get(0)
        fresh = cluster.restart(cluster.kill(verifier))
        gate.touch()
        found, counts = await _outputs(settings, bootstrap, ids=ids, timeout_s=300.0, idle_s=3.0)
        verified_by_fresh = _count(fresh, "claims_verified")
    assert held_at == 5
    assert stopped_at == held_at, "the commit must reach the held claim and stop there"
    assert set(found) == ids, f"lost: {sorted(ids - set(found))}"
    assert max(counts.values()) == 1
    # The fresh worker read from the held claim on: it and the twenty after it, again.
    assert verified_by_fresh >= 21
    assert not found[held.id].stats.fallback


async def _committed_at_least(
    settings: Settings, bootstrap: str, group: str, topic: str, *, offset: int
) -> None:
    for _ in range(600):
        if (await _committed(settings, bootstrap, group, topic)).get(0, 0) >= offset:
            return
        await asyncio.sleep(0.2)
    raise AssertionError(f"{group} never committed {offset} on {topic}")

"""`woodpecker review` against a real Kafka-protocol broker (the embedded noida-db)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
from aiokafka import AIOKafkaProducer
from opentelemetry import trace

from lab.broker import EmbeddedBroker
from workers.agents.topics import Topics, client_options, ensure_topics
from workers.cli import main
from workers.messages import Action, ClaimResult, Corrected, Judgement, Route, Verdict
from workers.review import ReviewError, _read_topic, approved, decisions_topic, load_queue, rejected
from workers.review_command import Decision, decide
from workers.settings import Settings
from workers.telemetry import answer_span, extract_context, inject_headers, setup_telemetry

pytestmark = pytest.mark.integration
_PREFIXES = itertools.count()


@pytest.fixture(scope="module")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker.start() as running:
        yield running


@pytest.fixture
def kafka_settings(broker: EmbeddedBroker) -> Settings:
    # A fresh topic prefix per test: tests share the broker, never each other's records.
    return Settings.load(kafka={"bootstrap": broker.bootstrap, "topic_prefix": f"rv{next(_PREFIXES)}."})


def _item(answer_id: str, tenant: str | None, *, text: str = "Revenue was 4.8 bn.") -> Corrected:
    claim = ClaimResult(
        id="c0",
        text=text,
        start=0,
        end=len(text),
        verdict=Verdict.CONTRADICTED,
        judgement=Judgement.CONTRADICT,
        similarity=0.9,
        reason="figure differs",
        action=Action.REPLACE,
        replacement="Revenue was 4.2 bn.",
    )
    return Corrected(
        id=answer_id,
        tenant=tenant,
        original=text,
        corrected="Revenue was 4.2 bn.",
        route=Route.FULL,
        claims=(claim,),
        needs_review=True,
        review_reasons=("high_stakes_contradiction",),
    )


async def _seed(settings: Settings, items: list[Corrected], *, garbage: bool = False) -> dict[str, int]:
    """Put items on the review topic as the correction agent does; returns their trace ids by tenant/id."""
    bootstrap = settings.kafka.bootstrap or ""
    await ensure_topics(settings.kafka, bootstrap=bootstrap)
    setup_telemetry(settings, service_name="woodpecker-test")
    producer = AIOKafkaProducer(**client_options(settings.kafka, bootstrap=bootstrap), acks="all")
    await producer.start()
    traces: dict[str, int] = {}
    try:
        topic = Topics.from_settings(settings.kafka).review
        for item in items:
            with answer_span(item.id) as span:
                headers = inject_headers(headers={"woodpecker-schema": b"corrected.v1"})
            traces[f"{item.tenant}/{item.id}"] = span.get_span_context().trace_id
            await producer.send_and_wait(topic, item.to_json(), key=item.id.encode(), headers=headers)
        if garbage:
            await producer.send_and_wait(topic, b"{not json", key=b"junk")
    finally:
        await producer.stop()
    return traces


async def _outputs(settings: Settings) -> list[Any]:
    options = client_options(settings.kafka, bootstrap=settings.kafka.bootstrap or "")
    return await _read_topic(options, Topics.from_settings(settings.kafka).corrected, timeout_s=15)


async def test_the_queue_is_scoped_by_tenant(kafka_settings: Settings) -> None:
    items = [_item("a1", "acme"), _item("a2", "acme"), _item("a1", "globex", text="Globex private text.")]
    await _seed(kafka_settings, items, garbage=True)
    bootstrap = kafka_settings.kafka.bootstrap or ""
    acme = await load_queue(kafka_settings, bootstrap=bootstrap, tenant="acme")
    assert sorted(i.corrected.id for i in acme.pending()) == ["a1", "a2"]
    assert all(i.corrected.tenant == "acme" for i in acme.pending())
    assert acme.skipped == 1
    globex = await load_queue(kafka_settings, bootstrap=bootstrap, tenant="globex")
    assert [i.corrected.original for i in globex.pending()] == ["Globex private text."]
    assert (await load_queue(kafka_settings, bootstrap=bootstrap, tenant="")).pending() == []


async def test_an_empty_or_missing_review_topic_reads_as_no_items(kafka_settings: Settings) -> None:
    queue = await load_queue(kafka_settings, bootstrap=kafka_settings.kafka.bootstrap or "", tenant="acme")
    assert queue.items == {} and queue.decided == {}


async def test_approve_publishes_the_corrected_answer_and_continues_its_trace(
    kafka_settings: Settings,
) -> None:
    traces = await _seed(kafka_settings, [_item("a1", "acme"), _item("a1", "globex")])
    bootstrap = kafka_settings.kafka.bootstrap or ""
    decision = Decision("approved", reason="checked the filing", reviewer="rita")
    record, out = await decide(
        kafka_settings, bootstrap=bootstrap, tenant="acme", answer_id="a1", decision=decision
    )
    assert (record.decision, record.tenant, record.reviewer) == ("approved", "acme", "rita")
    (published,) = await _outputs(kafka_settings)
    sent = Corrected.from_json(published.value)
    assert sent == out
    assert sent.route is Route.REVIEW_APPROVED and not sent.needs_review
    assert sent.corrected == "Revenue was 4.2 bn."
    assert sent.review_reasons == ("high_stakes_contradiction", "review_approved: checked the filing")
    context = extract_context(list(published.headers))
    assert trace.get_current_span(context).get_span_context().trace_id == traces["acme/a1"]
    assert (await load_queue(kafka_settings, bootstrap=bootstrap, tenant="acme")).pending() == []
    globex = await load_queue(kafka_settings, bootstrap=bootstrap, tenant="globex")
    assert [i.corrected.id for i in globex.pending()] == ["a1"]  # same id, other tenant: still pending
    with pytest.raises(ReviewError, match="already approved by rita"):
        await decide(kafka_settings, bootstrap=bootstrap, tenant="acme", answer_id="a1", decision=decision)


async def test_reject_passes_the_original_answer_through(kafka_settings: Settings) -> None:
    await _seed(kafka_settings, [_item("a2", "acme")])
    bootstrap = kafka_settings.kafka.bootstrap or ""
    decision = Decision("rejected", reason="4.8 is right: the report was restated")
    await decide(kafka_settings, bootstrap=bootstrap, tenant="acme", answer_id="a2", decision=decision)
    (published,) = await _outputs(kafka_settings)
    sent = Corrected.from_json(published.value)
    assert sent.corrected == sent.original == "Revenue was 4.8 bn."
    assert sent.route is Route.FULL and not sent.needs_review
    assert all(c.action is Action.KEEP and c.replacement is None for c in sent.claims)
    assert sent.claims[0].verdict is Verdict.CONTRADICTED  # the verdict stays on record
    assert sent.review_reasons[-1] == "review_rejected: 4.8 is right: the report was restated"
    options = client_options(kafka_settings.kafka, bootstrap=bootstrap)
    (logged,) = await _read_topic(options, decisions_topic(kafka_settings.kafka), timeout_s=15)
    assert orjson.loads(logged.value)["decision"] == "rejected"


async def test_another_tenants_item_reads_as_not_found(kafka_settings: Settings) -> None:
    await _seed(kafka_settings, [_item("g1", "globex")])
    bootstrap = kafka_settings.kafka.bootstrap or ""
    with pytest.raises(ReviewError, match="no review item 'g1' for tenant 'acme'"):
        await decide(
            kafka_settings, bootstrap=bootstrap, tenant="acme", answer_id="g1", decision=Decision("approved")
        )
    assert await _outputs(kafka_settings) == []


def test_approved_and_rejected_records_are_valid_output() -> None:
    item = _item("a1", "acme")
    assert Corrected.from_json(approved(item).to_json()).review_reasons[-1] == "review_approved"
    back = Corrected.from_json(rejected(item, reason="no").to_json())
    assert back.claims[0].reason == "review rejected: figure differs"


def test_the_cli_lists_shows_and_decides(
    kafka_settings: Settings, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import asyncio

    asyncio.run(_seed(kafka_settings, [_item("a1", "acme"), _item("a2", "acme"), _item("g1", "globex")]))
    monkeypatch.setenv("WOODPECKER_KAFKA__TOPIC_PREFIX", kafka_settings.kafka.topic_prefix)
    common = ["--tenant", "acme", "--bootstrap", kafka_settings.kafka.bootstrap or "", "--timeout", "15"]
    capsys.readouterr()
    assert main(["review", "list", *common]) == 0
    listed = [orjson.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [row["id"] for row in listed] == ["a1", "a2"]
    assert listed[0]["changes"] == 1 and listed[0]["review_reasons"] == ["high_stakes_contradiction"]
    assert main(["review", "show", *common, "a1"]) == 0
    shown = capsys.readouterr().out
    assert "NEEDS REVIEW" in shown and "review: pending" in shown
    assert main(["review", "show", *common, "g1"]) == 1
    assert "no review item 'g1'" in capsys.readouterr().err
    assert main(["review", "approve", *common, "a1", "--reviewer", "rita"]) == 0
    assert orjson.loads(capsys.readouterr().out)["decision"] == "approved"
    assert main(["review", "reject", *common, "a2", "--reason", "wrong fix"]) == 0
    capsys.readouterr()
    assert main(["review", "list", *common]) == 0
    assert capsys.readouterr().out == ""
    assert main(["review", "list", *common, "--all"]) == 0
    decided = {row["id"]: row["decision"] for row in map(orjson.loads, capsys.readouterr().out.splitlines())}
    assert decided == {"a1": "approved", "a2": "rejected"}


def test_the_tenant_is_required(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["review", "list", "--bootstrap", "127.0.0.1:1"])
    assert exited.value.code == 2
    assert "--tenant" in capsys.readouterr().err


def test_an_unreachable_broker_is_an_error_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["review", "list", "--tenant", "acme", "--bootstrap", "127.0.0.1:1", "--timeout", "3"]) == 3
    assert "woodpecker review: KafkaConnectionError" in capsys.readouterr().err

"""claim.v2 and verdict.v2 (`workers/agents/records.py`): the JSON Schemas and the models agree."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest
from pydantic import ValidationError

from tests.agents.helpers import ListSink, answer_bytes, make_ctx
from tests.schema_check import schema_ok
from workers.agents.correction import send_tick
from workers.agents.extraction import handle_answer
from workers.agents.records import STREAM_SCHEMA_VERSIONS, ClaimMessage, VerdictMessage
from workers.agents.verification import handle_claim
from workers.resources import load_schema


async def _sent() -> tuple[list[Any], list[Any]]:
    sink = ListSink()
    ctx = make_ctx(sink)
    await handle_answer(ctx, answer_bytes("s1"), headers={}, ingest_ms=1)
    for record in sink.on(ctx.topics.claims):
        await handle_claim(ctx, record.value, headers={})
    await send_tick(ctx, "s1")
    return [r.json() for r in sink.on(ctx.topics.claims)], [r.json() for r in sink.on(ctx.topics.verdicts)]


@pytest.mark.parametrize("name", sorted(STREAM_SCHEMA_VERSIONS.values()))
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["title"] == name
    jsonschema.Draft202012Validator.check_schema(schema)


async def test_every_message_the_agents_send_matches_its_schema() -> None:
    claims, verdicts = await _sent()
    assert claims and all(schema_ok("claim.v2", c) for c in claims)
    assert {v["kind"] for v in verdicts} == {"plan", "verdict", "tick"}
    assert all(schema_ok("verdict.v2", v) for v in verdicts)


async def test_schema_and_model_reject_the_same_broken_messages() -> None:
    claims, verdicts = await _sent()
    plan = next(v for v in verdicts if v["kind"] == "plan")
    verdict = next(v for v in verdicts if v["kind"] == "verdict")
    broken: list[tuple[str, dict[str, Any]]] = [
        ("claim.v2", {k: v for k, v in claims[0].items() if k != "tasks"}),
        ("claim.v2", {**claims[0], "expected": 0}),
        ("claim.v2", {**claims[0], "surprise": 1}),
        ("claim.v2", {**claims[0], "tasks": []}),
        ("verdict.v2", {**verdict, "checked": []}),
        ("verdict.v2", {**plan, "kind": "verdict"}),
        ("verdict.v2", {k: v for k, v in verdict.items() if k != "checked"}),
        ("verdict.v2", {**verdict, "kind": "nonsense"}),
        ("verdict.v2", {**plan, "plan": {**plan["plan"], "tasks": []}}),
    ]
    for name, obj in broken:
        model = ClaimMessage if name == "claim.v2" else VerdictMessage
        assert not schema_ok(name, obj), obj
        with pytest.raises(ValidationError):
            model.model_validate(obj)


async def test_messages_round_trip_through_json() -> None:
    claims, verdicts = await _sent()
    for obj in claims:
        assert orjson.loads(ClaimMessage.model_validate(obj).to_json()) == obj
    for obj in verdicts:
        assert orjson.loads(VerdictMessage.model_validate(obj).to_json()) == obj


async def test_v1_records_of_an_older_worker_read_as_v2_records_of_one_claim() -> None:
    claims, verdicts = await _sent()
    verdict = next(v for v in verdicts if v["kind"] == "verdict")
    [task, *_] = claims[0]["tasks"]
    [checked, *_] = verdict["checked"]
    old_claim = {k: v for k, v in claims[0].items() if k != "tasks"} | {
        "schema_version": "claim.v1",
        "task": task,
    }
    old_verdict = verdict | {"schema_version": "verdict.v1", "checked": checked}
    assert ClaimMessage.model_validate(old_claim).tasks == ClaimMessage.model_validate(claims[0]).tasks[:1]
    assert (
        VerdictMessage.model_validate(old_verdict).checked
        == VerdictMessage.model_validate(verdict).checked[:1]
    )
    for broken in ({**old_claim, "task": None}, {**old_verdict, "checked": []}):
        with pytest.raises(ValidationError):
            (ClaimMessage if "task" in broken else VerdictMessage).model_validate(broken)

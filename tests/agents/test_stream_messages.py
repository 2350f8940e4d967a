"""claim.v1 and verdict.v1: the JSON Schemas and the models agree on what the agents send."""

from __future__ import annotations

from typing import Any

import jsonschema
import orjson
import pytest
from pydantic import ValidationError

from tests.agents.helpers import ListSink, answer_bytes, make_ctx
from workers.agents.correction import send_tick
from workers.agents.extraction import handle_answer
from workers.agents.verification import handle_claim
from workers.messages import STREAM_SCHEMA_VERSIONS, ClaimMessage, VerdictMessage
from workers.resources import load_schema


def _valid(name: str, obj: object) -> bool:
    try:
        jsonschema.Draft202012Validator(load_schema(name)).validate(obj)
    except jsonschema.ValidationError:
        return False
    return True


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
    assert claims and all(_valid("claim.v1", c) for c in claims)
    assert {v["kind"] for v in verdicts} == {"plan", "verdict", "tick"}
    assert all(_valid("verdict.v1", v) for v in verdicts)


async def test_schema_and_model_reject_the_same_broken_messages() -> None:
    claims, verdicts = await _sent()
    plan = next(v for v in verdicts if v["kind"] == "plan")
    verdict = next(v for v in verdicts if v["kind"] == "verdict")
    broken: list[tuple[str, dict[str, Any]]] = [
        ("claim.v1", {k: v for k, v in claims[0].items() if k != "task"}),
        ("claim.v1", {**claims[0], "expected": 0}),
        ("claim.v1", {**claims[0], "surprise": 1}),
        ("verdict.v1", {**plan, "kind": "verdict"}),
        ("verdict.v1", {k: v for k, v in verdict.items() if k != "checked"}),
        ("verdict.v1", {**verdict, "kind": "nonsense"}),
        ("verdict.v1", {**plan, "plan": {**plan["plan"], "tasks": []}}),
    ]
    for name, obj in broken:
        model = ClaimMessage if name == "claim.v1" else VerdictMessage
        assert not _valid(name, obj), obj
        with pytest.raises(ValidationError):
            model.model_validate(obj)


async def test_messages_round_trip_through_json() -> None:
    claims, verdicts = await _sent()
    for obj in claims:
        assert orjson.loads(ClaimMessage.model_validate(obj).to_json()) == obj
    for obj in verdicts:
        assert orjson.loads(VerdictMessage.model_validate(obj).to_json()) == obj

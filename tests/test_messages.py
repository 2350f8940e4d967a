"""The JSON Schemas and the Python models agree on what is valid."""

from __future__ import annotations

import math
from typing import Any

import jsonschema
import orjson
import pytest
from pydantic import ValidationError

from tests.schema_check import schema_ok
from workers.errors import InvalidMessage
from workers.messages import (
    Action,
    Answer,
    ClaimResult,
    Corrected,
    DeadLetter,
    Evidence,
    Judgement,
    Route,
    Stats,
    Verdict,
)
from workers.resources import load_schema

VALID_ANSWERS: list[dict[str, Any]] = [
    {"id": "a1", "query": "q", "answer": "x"},
    {"id": "a2", "query": "q", "answer": "", "documents": []},
    {
        "id": "a3",
        "query": "q",
        "answer": "Zürich ☃",
        "documents": [{"id": "d1", "text": "t", "title": "T", "source": "s"}],
        "tenant": "acme",
        "domain": "legal",
        "stakes": "high",
        "metadata": {"generator": "m", "n": [1, 2]},
    },
    {"id": "a4", "query": "q", "answer": "x", "tenant": None, "stakes": None, "metadata": None},
]

INVALID_ANSWERS: list[dict[str, Any]] = [
    {"query": "q", "answer": "x"},
    {"id": "", "query": "q", "answer": "x"},
    {"id": "a", "query": "q"},
    {"id": "a", "query": "q", "answer": 3},
    {"id": "a", "query": "q", "answer": "x", "stakes": "extreme"},
    {"id": "a", "query": "q", "answer": "x", "documents": [{"id": "d"}]},
    {"id": "a", "query": "q", "answer": "x", "documents": [{"id": "d", "text": "t", "extra": 1}]},
    {"id": "a", "query": "q", "answer": "x", "surprise": True},
    {"id": "a", "query": "q", "answer": "x", "metadata": [1]},
    {"id": "x" * 257, "query": "q", "answer": "x"},
]


def _model_ok(model: type[Answer] | type[Corrected] | type[DeadLetter], obj: object) -> bool:
    try:
        model.model_validate(obj)
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize("name", ["answer.v1", "corrected.v1", "deadletter.v1", "review.v1"])
def test_schemas_are_valid_draft_2020_12(name: str) -> None:
    schema = load_schema(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("obj", VALID_ANSWERS)
def test_valid_answers_pass_schema_and_model(obj: dict[str, Any]) -> None:
    assert schema_ok("answer.v1", obj)
    assert _model_ok(Answer, obj)


@pytest.mark.parametrize("obj", INVALID_ANSWERS)
def test_invalid_answers_fail_schema_and_model(obj: dict[str, Any]) -> None:
    assert not schema_ok("answer.v1", obj)
    assert not _model_ok(Answer, obj)


def _corrected() -> Corrected:
    ev = Evidence(doc_id="d1", start=0, end=5, text="Hello", score=0.9)
    claim = ClaimResult(
        id="c0",
        text="Hi",
        start=0,
        end=2,
        verdict=Verdict.CONTRADICTED,
        judgement=Judgement.CONTRADICT,
        similarity=0.9,
        evidence=(ev,),
        reason="r",
        action=Action.REPLACE,
        replacement="Hello",
    )
    stats = Stats(stage_ms={"extract": 1.5}, cache_hits={"embedding": 2})
    return Corrected(
        id="a1", original="Hi", corrected="Hello", route=Route.FULL, claims=(claim,), stats=stats
    )


def test_model_output_validates_against_schema() -> None:
    out = orjson.loads(_corrected().to_json())
    assert schema_ok("corrected.v1", out)
    assert Corrected.from_json(_corrected().to_json()) == _corrected()


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (("route",), "slow_path"),
        (("claims", 0, "verdict"), "MAYBE"),
        (("claims", 0, "action"), "EDIT"),
        (("stats", "llm_calls"), -1),
        (("schema_version",), "corrected.v2"),
    ],
)
def test_bad_corrected_fails_both(path: tuple[Any, ...], value: object) -> None:
    obj = orjson.loads(_corrected().to_json())
    node = obj
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    assert not schema_ok("corrected.v1", obj)
    assert not _model_ok(Corrected, obj)


def test_never_nan() -> None:
    with pytest.raises(ValidationError):
        Evidence(doc_id="d", start=0, end=1, text="t", score=math.nan)
    with pytest.raises(ValidationError):
        Stats(cost_usd=math.inf)


def test_deadletter_round_trip_validates() -> None:
    record = DeadLetter(reason="bad", kind="schema", stage="parse", original="{}", line=3, original_size=2)
    assert schema_ok("deadletter.v1", orjson.loads(record.to_json()))
    bad = orjson.loads(record.to_json()) | {"original_encoding": "latin-1"}
    assert not schema_ok("deadletter.v1", bad)
    assert not _model_ok(DeadLetter, bad)


def test_from_json_reports_reason() -> None:
    with pytest.raises(InvalidMessage) as info:
        Answer.from_json(b'{"id": "a"}')
    assert info.value.kind == "schema"
    assert "query" in info.value.reason
    with pytest.raises(InvalidMessage) as info:
        Answer.from_json(b"{nope")
    assert info.value.kind == "invalid_json"


def test_models_are_frozen() -> None:
    answer = Answer(id="a", query="q", answer="x")
    with pytest.raises(ValidationError):
        answer.answer = "y"  # type: ignore[misc]


def test_the_review_topic_reads_review_v1_and_bare_corrected_v1() -> None:
    from workers.messages import Answer, Document, ReviewRequest, Route, read_output, read_review

    corrected = Corrected(
        id="a1", tenant="acme", original="x", corrected="y", route=Route.FULL, needs_review=True
    )
    answer = Answer(id="a1", query="q", answer="x", documents=(Document(id="d", text="t"),), domain="legal")
    request = ReviewRequest.for_answer(corrected, answer)
    assert read_review(request.to_json()) == request and read_output(request.to_json()) == corrected
    assert read_review(corrected.to_json()).documents == () and read_output(corrected.to_json()) == corrected
    assert orjson.loads(request.to_json())["id"] == "a1"
    with pytest.raises(ValidationError):
        ReviewRequest(id="other", tenant="acme", corrected=corrected)

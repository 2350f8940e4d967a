"""The decision log: one JSON line per claim decision, content off by default (workers/decisions.py)."""

from __future__ import annotations

import io
import logging
from collections.abc import Iterator
from typing import Any

import orjson
import pytest

from workers.batch import correct_lines
from workers.decisions import LOGGER_NAME, JsonFormatter, decision_records, log_decisions
from workers.messages import (
    Action,
    Answer,
    ClaimResult,
    Corrected,
    Evidence,
    Judgement,
    Route,
    Stats,
    Verdict,
)
from workers.settings import Settings
from workers.telemetry import answer_span, setup_telemetry

ANSWER = "Revenue was SECRET-ANSWER-4.8 bn in 2023. The firm owns a football club."
DOC_TEXT = "SECRET-DOCUMENT revenue was 4.2 bn in 2023"


def _corrected(**extra: Any) -> Corrected:
    evidence = Evidence(doc_id="d1", start=0, end=len(DOC_TEXT), text=DOC_TEXT, score=0.912345)
    claims = (
        ClaimResult(
            id="c0",
            text="Revenue was SECRET-ANSWER-4.8 bn in 2023.",
            start=0,
            end=41,
            verdict=Verdict.CONTRADICTED,
            judgement=Judgement.CONTRADICT,
            similarity=0.87654321,
            evidence=(evidence,),
            reason='figure "SECRET-ANSWER-4.8 bn" differs from the evidence "4.2 bn"',
            action=Action.REPLACE,
            replacement="Revenue was 4.2 bn in 2023.",
        ),
        ClaimResult(
            id="c1",
            text="The firm owns a football club.",
            start=42,
            end=72,
            verdict=Verdict.UNVERIFIED,
            judgement=Judgement.INSUFFICIENT,
            similarity=0.2,
            reason="no evidence window mentions it",
            action=Action.FLAG,
        ),
    )
    fields: dict[str, Any] = {
        "id": "a1",
        "tenant": "acme",
        "original": ANSWER,
        "corrected": "Revenue was 4.2 bn in 2023. The firm owns a football club. [unverified]",
        "route": Route.FULL,
        "claims": claims,
        "needs_review": True,
        "review_reasons": ("high_stakes_contradiction",),
        "stats": Stats(stage_ms={"verify": 12.5}),
    }
    return Corrected(**(fields | extra))


@pytest.fixture
def decision_log() -> Iterator[io.StringIO]:
    logger = logging.getLogger(LOGGER_NAME)
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    saved = (logger.handlers[:], logger.level, logger.propagate)
    logger.handlers = [handler]
    logger.setLevel(logging.INFO)
    yield stream
    logger.handlers, logger.level, logger.propagate = saved


def _lines(stream: io.StringIO) -> list[dict[str, Any]]:
    return [orjson.loads(line) for line in stream.getvalue().splitlines()]


def test_one_json_line_per_claim_and_one_per_answer(settings: Settings, decision_log: io.StringIO) -> None:
    assert log_decisions(_corrected(), settings=settings) == 3
    lines = _lines(decision_log)
    assert [line["event"] for line in lines] == ["claim_decision", "claim_decision", "answer_decision"]
    first = lines[0]
    assert first["logger"] == LOGGER_NAME and first["level"] == "INFO" and first["ts"].endswith("+00:00")
    expected = {
        "answer_id": "a1",
        "tenant": "acme",
        "claim_id": "c0",
        "start": 0,
        "end": 41,
        "verdict": "CONTRADICTED",
        "judgement": "CONTRADICT",
        "similarity": 0.8765,
        "action": "REPLACE",
        "route": "full",
        "model": "offline",
        "evidence": [{"doc_id": "d1", "start": 0, "end": len(DOC_TEXT), "score": 0.9123}],
    }
    assert expected.items() <= first.items()
    assert "trace_id" in first
    answer = lines[-1]
    assert answer["actions"] == {"KEEP": 0, "REPLACE": 1, "REMOVE": 0, "FLAG": 1}
    assert answer["needs_review"] is True and answer["review_reasons"] == ["high_stakes_contradiction"]


def test_no_content_is_logged_by_default(settings: Settings, decision_log: io.StringIO) -> None:
    assert not settings.log_content
    log_decisions(_corrected(), settings=settings)
    text = decision_log.getvalue()
    assert "SECRET-ANSWER" not in text and "SECRET-DOCUMENT" not in text
    assert "football" not in text and "Revenue was" not in text
    reason = _lines(decision_log)[0]["reason"]
    assert reason == 'figure "…" differs from the evidence "…"'  # quoted values are content too


def test_content_capture_when_switched_on(settings: Settings, decision_log: io.StringIO) -> None:
    log_decisions(_corrected(), settings=settings.model_copy(update={"log_content": True}))
    claim, _, answer = _lines(decision_log)
    assert claim["text"].startswith("Revenue was SECRET-ANSWER")
    assert claim["replacement"] == "Revenue was 4.2 bn in 2023."
    assert claim["evidence"][0]["text"] == DOC_TEXT
    assert "SECRET-ANSWER-4.8 bn" in claim["reason"]
    assert answer["original"] == ANSWER


def test_the_trace_id_of_the_current_answer_is_logged(settings: Settings) -> None:
    setup_telemetry(settings, service_name="woodpecker-test")
    with answer_span("a1") as span:
        records = decision_records(_corrected(), settings=settings)
    trace_id = format(span.get_span_context().trace_id, "032x")
    assert {r["trace_id"] for r in records} == {trace_id}
    assert decision_records(_corrected(), settings=settings, trace_id="t" * 32)[0]["trace_id"] == "t" * 32


@pytest.mark.parametrize(
    ("backend", "fallback", "model"),
    [
        ("local", None, "offline"),
        ("openai", None, "gpt-4o-mini"),
        ("openai", "verification: endpoint down", "offline (fallback from gpt-4o-mini)"),
    ],
)
def test_the_model_names_the_verifier_in_force(
    settings: Settings, backend: str, fallback: str | None, model: str
) -> None:
    configured = Settings.load(models={"verification": {"backend": backend, "model": "gpt-4o-mini"}})
    corrected = _corrected(stats=Stats(fallback=fallback))
    assert decision_records(corrected, settings=configured)[0]["model"] == model
    assert decision_records(corrected, settings=configured, model="mine")[0]["model"] == "mine"


def test_passthrough_answers_log_one_answer_line(settings: Settings, decision_log: io.StringIO) -> None:
    passthrough = _corrected(route=Route.SAMPLED_OUT, claims=(), corrected=ANSWER, needs_review=False)
    assert log_decisions(passthrough, settings=settings) == 1
    (line,) = _lines(decision_log)
    assert line["event"] == "answer_decision" and line["route"] == "sampled_out" and line["changed"] is False


def test_nothing_is_built_when_the_log_is_off(settings: Settings, decision_log: io.StringIO) -> None:
    logging.getLogger(LOGGER_NAME).setLevel(logging.WARNING)
    assert log_decisions(_corrected(), settings=settings) == 0
    assert decision_log.getvalue() == ""


class _Fixed:
    def process(self, answer: Answer) -> Corrected:
        return _corrected(id=answer.id)


def test_the_batch_cli_logs_each_answers_decisions(settings: Settings, decision_log: io.StringIO) -> None:
    lines = [orjson.dumps({"id": f"q{i}", "query": "q", "answer": ANSWER}) for i in range(2)] + [b"{bad"]
    results = list(correct_lines(lines, pipeline=_Fixed(), settings=settings))
    assert len(results) == 3
    logged = _lines(decision_log)
    assert [(r["event"], r["answer_id"]) for r in logged if r["event"] == "answer_decision"] == [
        ("answer_decision", "q0"),
        ("answer_decision", "q1"),
    ]
    assert len({r["trace_id"] for r in logged if r["answer_id"] == "q0"}) == 1
    assert "SECRET-ANSWER" not in decision_log.getvalue()


def test_without_set_up_the_log_goes_to_the_current_stderr(
    settings: Settings, capsys: pytest.CaptureFixture[str]
) -> None:
    logger = logging.getLogger(LOGGER_NAME)
    saved = (logger.handlers[:], logger.level, logger.propagate)
    logger.handlers = []
    try:
        assert log_decisions(_corrected(), settings=settings) == 3
        assert log_decisions(_corrected(id="a2"), settings=settings) == 3
        assert len(logger.handlers) == 1  # configured once, lazily
    finally:
        logger.handlers, logger.level, logger.propagate = saved
    lines = [orjson.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [line["answer_id"] for line in lines] == ["a1"] * 3 + ["a2"] * 3


@pytest.mark.parametrize(
    ("claim_text", "evidence_text", "reason", "logged"),
    [
        (
            "Revenue was $4.8 bn in 2023.",
            "In fiscal 2023 revenue was $4.2 billion.",
            "tier 2 CONTRADICT: figure $4.8 bn in claim, $4.2 billion in evidence [doc d1 0-42]",
            "tier 2 CONTRADICT: figure … bn in claim, … billion in evidence [doc d1 0-42]",
        ),
        (
            "It is headquartered in Rotterdam.",
            "Northwind is headquartered in Amsterdam.",
            "entity Rotterdam in claim, Amsterdam in evidence; similarity 0.78 < threshold 0.82",
            "entity … in claim, … in evidence; similarity 0.78 < threshold 0.82",
        ),
    ],
)
def test_values_quoted_in_reasons_are_masked_without_content_capture(
    settings: Settings, claim_text: str, evidence_text: str, reason: str, logged: str
) -> None:
    evidence = Evidence(doc_id="d1", start=0, end=len(evidence_text), text=evidence_text)
    claim = (
        _corrected()
        .claims[0]
        .model_copy(update={"text": claim_text, "evidence": (evidence,), "reason": reason})
    )
    corrected = _corrected(claims=(claim,))
    assert decision_records(corrected, settings=settings)[0]["reason"] == logged
    with_content = settings.model_copy(update={"log_content": True})
    assert decision_records(corrected, settings=with_content)[0]["reason"] == reason

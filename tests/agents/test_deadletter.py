"""Bounded retries with backoff, typed failures, and dead-letter records that keep the input."""

from __future__ import annotations

import base64

import pytest

from tests.agents.helpers import ListSink, make_ctx
from workers.agents.deadletter import (
    RecordTooLarge,
    RetriesExhausted,
    RetryPolicy,
    classify,
    send_dead_letter,
    with_retries,
)
from workers.errors import BackendUnavailable, InvalidMessage
from workers.messages import DeadLetter


class _Calls:
    def __init__(self, failures: int, exc: Exception) -> None:
        self.failures, self.exc, self.count = failures, exc, 0

    async def __call__(self) -> str:
        self.count += 1
        if self.count <= self.failures:
            raise self.exc
        return "ok"


async def test_transient_errors_are_retried_with_growing_delays() -> None:
    slept: list[float] = []

    async def sleep(s: float) -> None:
        slept.append(s)

    calls = _Calls(2, BackendUnavailable("down"))
    result = await with_retries(calls, policy=RetryPolicy(retries=3, backoff_s=0.1), what="x", sleep=sleep)
    assert result == "ok"
    assert calls.count == 3
    assert slept == [0.1, 0.2]


async def test_retries_are_bounded_then_exhausted() -> None:
    calls = _Calls(10, RuntimeError("boom"))

    async def sleep(s: float) -> None:
        return None

    with pytest.raises(RetriesExhausted) as info:
        await with_retries(calls, policy=RetryPolicy(retries=2, backoff_s=0.0), what="verify", sleep=sleep)
    assert calls.count == 3
    assert info.value.attempts == 3
    assert "verify failed 3 times" in str(info.value)
    assert "RuntimeError: boom" in str(info.value)


@pytest.mark.parametrize("exc", [InvalidMessage("bad", kind="schema"), RecordTooLarge("big")])
async def test_errors_that_cannot_improve_are_not_retried(exc: Exception) -> None:
    calls = _Calls(10, exc)
    with pytest.raises(type(exc)):
        await with_retries(calls, policy=RetryPolicy(retries=5, backoff_s=0.0), what="x")
    assert calls.count == 1


def test_backoff_doubles_and_is_capped() -> None:
    policy = RetryPolicy(retries=10, backoff_s=0.5, max_backoff_s=3.0)
    assert [policy.delay(i) for i in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]


def test_classify_names_the_cause() -> None:
    assert classify(InvalidMessage("x", kind="invalid_utf8")) == ("invalid_utf8", "x")
    assert classify(RecordTooLarge("big"))[0] == "too_large_output"
    assert classify(RetriesExhausted("prepare", 4, ValueError("v")))[0] == "retries_exhausted"
    assert classify(KeyError("k")) == ("processing_error", "KeyError: 'k'")


async def test_dead_letter_keeps_reason_bytes_and_headers() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    raw = b'{"id": "a7", "answer": \xff}'
    record = await send_dead_letter(
        ctx, raw, exc=InvalidMessage("invalid UTF-8 at byte 24", kind="invalid_utf8"), stage="parse",
        headers={"trace": b"t-1"},
    )  # fmt: skip
    [sent] = sink.on(ctx.topics.deadletter)
    assert DeadLetter.from_json(sent.value) == record
    assert record.kind == "invalid_utf8"
    assert record.stage == "parse"
    assert record.original_encoding == "base64"
    assert base64.b64decode(record.original) == raw
    assert record.headers == {"trace": "t-1"}
    assert sent.headers["woodpecker-dlq-kind"] == b"invalid_utf8"


async def test_dead_letter_is_keyed_by_the_answer_id_when_known() -> None:
    sink = ListSink()
    ctx = make_ctx(sink)
    record = await send_dead_letter(
        ctx, b"not json", exc=RuntimeError("x"), stage="verification", headers={}, answer_id="a9"
    )
    assert record.id == "a9"
    assert sink.on(ctx.topics.deadletter)[0].key == "a9"
    assert record.original == "not json"

from __future__ import annotations

import base64

import orjson
import pytest

from workers.errors import InvalidMessage
from workers.settings import LimitSettings
from workers.validate import dead_letter, parse_answer

LIMITS = LimitSettings(
    max_message_bytes=10_000,
    max_answer_chars=500,
    max_documents=3,
    max_document_chars=1000,
    max_total_document_chars=1500,
    max_metadata_depth=4,
)


def _raw(**fields: object) -> bytes:
    return orjson.dumps({"id": "a1", "query": "q", "answer": "The sky is blue."} | fields)


def _kind(raw: bytes) -> str:
    with pytest.raises(InvalidMessage) as info:
        parse_answer(raw, limits=LIMITS)
    assert info.value.reason
    return info.value.kind


def test_valid() -> None:
    answer = parse_answer(_raw(documents=[{"id": "d", "text": "t"}]), limits=LIMITS)
    assert answer.id == "a1"
    assert answer.documents[0].text == "t"


@pytest.mark.parametrize(
    ("raw", "kind"),
    [
        (b"{not json", "invalid_json"),
        (b'{"id": "a\xff"}', "invalid_utf8"),
        (b"[1, 2]", "schema"),
        (b'{"id": "a"}', "schema"),
        (_raw(answer="x" * 501), "too_large"),
        (b" " * 10_001, "too_large"),
        (_raw(documents=[{"id": str(i), "text": "t"} for i in range(4)]), "too_large"),
        (_raw(documents=[{"id": "d", "text": "t" * 1001}]), "too_large"),
        (_raw(documents=[{"id": "d", "text": "t" * 900}, {"id": "e", "text": "t" * 900}]), "too_large"),
        (_raw(documents=[{"id": "d", "text": "t"}, {"id": "d", "text": "u"}]), "schema"),
        (_raw(metadata={"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": 1}}}}}}}}), "too_deep"),
    ],
)
def test_rejections(raw: bytes, kind: str) -> None:
    assert _kind(raw) == kind


def test_deep_nesting_does_not_crash() -> None:
    raw = b'{"id": "a", "query": "q", "answer": "x", "metadata": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5001
    assert _kind(raw) in {"too_deep", "invalid_json", "too_large"}


def test_dead_letter_keeps_input() -> None:
    record = dead_letter(_raw(), reason="r", kind="schema", stage="parse", line=7)
    assert record.id == "a1"
    assert record.line == 7
    assert orjson.loads(record.original)["answer"] == "The sky is blue."
    assert not record.truncated


def test_dead_letter_binary_and_truncated() -> None:
    raw = b"\xff\xfe" + b"x" * 100
    record = dead_letter(raw, reason="r", kind="invalid_utf8", stage="parse", max_bytes=10)
    assert record.original_encoding == "base64"
    assert base64.b64decode(record.original) == raw[:10]
    assert record.truncated
    assert record.original_size == 102


def test_dead_letter_reason_hides_url_passwords() -> None:
    reason = "ConnectionError: cannot reach redis://:hunter2@cache:6379/0"
    record = dead_letter(b"{}", reason=reason, kind="processing_error", stage="pipeline")
    assert "hunter2" not in record.reason
    assert "cache:6379" in record.reason

"""Input validation: raw bytes to a trusted `Answer`, or an `InvalidMessage` that says why.

Every limit is checked before any model sees the text. The batch CLI and the stream agents both use
this, so a message is rejected for the same reason wherever it arrives.

Usage::

    try:
        answer = parse_answer(raw, limits=settings.limits)
    except InvalidMessage as exc:
        send(dead_letter(raw, reason=exc.reason, kind=exc.kind, stage="parse"))
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from typing import Any, Literal

import orjson
from pydantic import ValidationError

from workers.errors import InvalidMessage
from workers.messages import Answer, DeadLetter, _first_error
from workers.redact import redact
from workers.settings import LimitSettings

__all__ = ["dead_letter", "parse_answer"]


def parse_answer(raw: bytes | str, *, limits: LimitSettings) -> Answer:
    """Decode, bound and validate one answer.v1 message."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if len(data) > limits.max_message_bytes:
        raise InvalidMessage(
            f"message is {len(data)} bytes, over the limit of {limits.max_message_bytes}", kind="too_large"
        )
    obj = _decode(data)
    _check_depth(obj, limit=limits.max_metadata_depth + 4)
    try:
        answer = Answer.model_validate(obj)
    except ValidationError as exc:
        raise InvalidMessage(f"schema violation: {_first_error(exc)}", kind="schema") from exc
    _check_sizes(answer, limits)
    return answer


def _decode(data: bytes) -> dict[str, Any]:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidMessage(f"invalid UTF-8 at byte {exc.start}", kind="invalid_utf8") from exc
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError as exc:
        raise InvalidMessage(f"invalid JSON: {exc}", kind="invalid_json") from exc
    if not isinstance(obj, dict):
        raise InvalidMessage(f"schema violation: expected an object, got {type(obj).__name__}", kind="schema")
    return obj


def _check_depth(obj: object, *, limit: int) -> None:
    # Iterative, so a hostile nesting cannot exhaust the Python stack.
    stack: list[tuple[object, int]] = [(obj, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise InvalidMessage(f"nesting deeper than {limit} levels", kind="too_deep")
        children = node.values() if isinstance(node, Mapping) else node if isinstance(node, list) else ()
        stack.extend((child, depth + 1) for child in children)


def _check_sizes(answer: Answer, limits: LimitSettings) -> None:
    if len(answer.answer) > limits.max_answer_chars:
        raise _too_large(f"answer has {len(answer.answer)} characters, over {limits.max_answer_chars}")
    if len(answer.documents) > limits.max_documents:
        raise _too_large(f"{len(answer.documents)} documents, over the limit of {limits.max_documents}")
    for doc in answer.documents:
        if len(doc.text) > limits.max_document_chars:
            raise _too_large(
                f"document {doc.id!r} has {len(doc.text)} characters, over {limits.max_document_chars}"
            )
    total = sum(len(d.text) for d in answer.documents)
    if total > limits.max_total_document_chars:
        raise _too_large(f"documents total {total} characters, over {limits.max_total_document_chars}")
    ids = [d.id for d in answer.documents]
    if len(set(ids)) != len(ids):
        raise InvalidMessage("schema violation: document ids must be unique", kind="schema")


def _too_large(reason: str) -> InvalidMessage:
    return InvalidMessage(reason, kind="too_large")


def dead_letter(
    raw: bytes | str,
    *,
    reason: str,
    kind: str,
    stage: str,
    max_bytes: int = 1_000_000,
    line: int | None = None,
    headers: Mapping[str, str] | None = None,
) -> DeadLetter:
    """A dead-letter record holding the input (base64 when it is not UTF-8, cut to `max_bytes`)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    kept = data[:max_bytes]
    encoding: Literal["utf-8", "base64"] = "utf-8"
    try:
        data.decode("utf-8")
        # The cut may split a character; only that partial character is dropped.
        original = kept.decode("utf-8", "ignore")
    except UnicodeDecodeError:
        original, encoding = base64.b64encode(kept).decode("ascii"), "base64"
    return DeadLetter(
        id=_peek_id(data),
        reason=redact(reason),  # an exception text can carry a URL with its password
        kind=kind,
        stage=stage,
        original=original,
        original_encoding=encoding,
        original_size=len(data),
        truncated=len(kept) < len(data),
        line=line,
        headers=dict(headers or {}),
    )


def _peek_id(data: bytes) -> str | None:
    """The answer id if the input is a JSON object with a string id, so producers can match rejects."""
    if len(data) > 20_000_000:
        return None
    try:
        obj = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    value = obj.get("id") if isinstance(obj, dict) else None
    return value[:256] if isinstance(value, str) and value else None

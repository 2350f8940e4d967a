"""The Python API for applications that embed woodpecker: one call per answer, sync or async.

>>> from workers.api import correct
>>> result = correct(
...     "Northwind Traders reported revenue of $4.8 bn in fiscal 2023.",
...     ["In fiscal 2023 Northwind Traders reported revenue of $4.2 billion."],
...     query="What was Northwind's revenue in 2023?",
... )
>>> result.corrected
'Northwind Traders reported revenue of $4.2 bn in fiscal 2023.'
>>> [(c.verdict.value, c.action.value) for c in result.claims]
[('CONTRADICTED', 'REPLACE')]

In async code (FastAPI, LangChain callbacks, ...), `await acorrect(...)` takes the same arguments and
runs the CPU-bound work on a thread. Both build one pipeline per distinct settings on first use and keep
it (models load once); `close()` releases them. To own the pipeline yourself::

    with build_pipeline(Settings.load()) as pipeline:     # close() releases LLM clients and Redis
        result = correct(answer, documents, query=query, pipeline=pipeline)

Documents are strings (ids `d1`, `d2`, ... in order), `Document`s, or mappings with `id` and `text`.
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from workers.errors import InvalidMessage
from workers.messages import Answer, Corrected, Document, Stakes, _first_error
from workers.settings import Settings

if TYPE_CHECKING:
    from workers.pipeline import Pipeline

__all__ = ["DocumentLike", "acorrect", "close", "correct", "shared_pipeline"]

DocumentLike = str | Document | Mapping[str, Any]

_PIPELINES: dict[str, Pipeline] = {}
_LOCK = threading.Lock()


def correct(
    answer: str,
    documents: Sequence[DocumentLike],
    *,
    query: str = "",
    tenant: str | None = None,
    settings: Settings | None = None,
    answer_id: str | None = None,
    domain: str | None = None,
    stakes: Stakes | str | None = None,
    pipeline: Pipeline | None = None,
) -> Corrected:
    """Check `answer` against `documents` and return it corrected, with every decision explained.

    `pipeline` defaults to a shared one built from `settings` (default: `Settings.load()`); raises
    `InvalidMessage` for input the schema or the size limits refuse.
    """
    settings = settings or (pipeline.settings if pipeline is not None else Settings.load())
    message = _answer(
        answer, documents, query=query, tenant=tenant, answer_id=answer_id, domain=domain, stakes=stakes
    )
    _check_limits(message, settings)
    return (pipeline or shared_pipeline(settings)).process(message)


async def acorrect(
    answer: str,
    documents: Sequence[DocumentLike],
    *,
    query: str = "",
    tenant: str | None = None,
    settings: Settings | None = None,
    answer_id: str | None = None,
    domain: str | None = None,
    stakes: Stakes | str | None = None,
    pipeline: Pipeline | None = None,
) -> Corrected:
    """`correct` without blocking the event loop: the work runs on a thread."""
    return await asyncio.to_thread(
        correct, answer, documents, query=query, tenant=tenant, settings=settings, answer_id=answer_id,
        domain=domain, stakes=stakes, pipeline=pipeline,
    )  # fmt: skip


def shared_pipeline(settings: Settings) -> Pipeline:
    """The pipeline for `settings`, built on first use and kept until `close()`."""
    key = settings.model_dump_json()
    with _LOCK:
        found = _PIPELINES.get(key)
        if found is None:
            from workers.pipeline import build_pipeline

            found = _PIPELINES[key] = build_pipeline(settings)
        return found


def close() -> None:
    """Closes the shared pipelines (LLM clients, Redis); the next call builds them again."""
    with _LOCK:
        pipelines = list(_PIPELINES.values())
        _PIPELINES.clear()
    for pipeline in pipelines:
        pipeline.close()


def _answer(
    answer: str,
    documents: Sequence[DocumentLike],
    *,
    query: str,
    tenant: str | None,
    answer_id: str | None,
    domain: str | None,
    stakes: Stakes | str | None,
) -> Answer:
    docs = tuple(_document(d, n) for n, d in enumerate(documents, start=1))
    fields: dict[str, Any] = {
        "id": answer_id or f"py-{uuid.uuid4().hex[:16]}",
        "query": query,
        "answer": answer,
        "documents": docs,
        "tenant": tenant,
        "domain": domain,
        "stakes": stakes,
    }
    try:
        return Answer.model_validate(fields)
    except ValidationError as exc:
        raise InvalidMessage(f"schema violation: {_first_error(exc)}", kind="schema") from exc


def _document(doc: DocumentLike, number: int) -> Document:
    if isinstance(doc, Document):
        return doc
    if isinstance(doc, str):
        return Document(id=f"d{number}", text=doc)
    try:
        return Document.model_validate(dict(doc))
    except ValidationError as exc:
        raise InvalidMessage(
            f"schema violation: document {number}: {_first_error(exc)}", kind="schema"
        ) from exc


def _check_limits(answer: Answer, settings: Settings) -> None:
    from workers.validate import parse_answer

    parse_answer(answer.to_json(), limits=settings.limits)  # the same limits as every other path

"""The Python API: `correct` / `acorrect`, the docstring example as a doctest, and closing pipelines."""

from __future__ import annotations

import doctest
from typing import TYPE_CHECKING

import pytest

import workers.api as api
from tests.server.helpers import light_pipeline
from workers.errors import InvalidMessage
from workers.messages import Document, Route
from workers.settings import Settings

if TYPE_CHECKING:
    from workers.pipeline import Pipeline


def test_the_docstring_example_runs(
    real_pipeline: Pipeline, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The example builds the shared pipeline for Settings.load(); hand it the session's one instead.
    monkeypatch.setitem(api._PIPELINES, Settings.load().model_dump_json(), real_pipeline)
    result = doctest.testmod(api, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3 and result.failed == 0


def test_correct_takes_strings_documents_and_mappings() -> None:
    pipeline = light_pipeline()
    docs = [
        "Acme is based in Oslo.",
        Document(id="x", text="Acme has 40 staff."),
        {"id": "y", "text": "Acme."},
    ]
    out = api.correct("Acme is based in Oslo.", docs, query="Where?", tenant="t1", pipeline=pipeline)
    assert out.tenant == "t1" and out.original == "Acme is based in Oslo." and out.route is Route.FULL
    assert out.id.startswith("py-")


async def test_acorrect_is_the_same_call_without_blocking_the_loop() -> None:
    pipeline = light_pipeline()
    out = await api.acorrect(
        "Acme is based in Oslo.",
        ["Acme is based in Oslo."],
        query="Where?",
        answer_id="a1",
        pipeline=pipeline,
    )
    assert out.id == "a1" and out.claims


def test_bad_input_is_an_invalid_message() -> None:
    pipeline = light_pipeline(Settings(limits={"max_answer_chars": 10}))
    with pytest.raises(InvalidMessage, match="characters"):
        api.correct("far too long an answer", ["doc"], pipeline=pipeline)
    with pytest.raises(InvalidMessage, match="document 1"):
        api.correct("short", [{"text": "no id"}], pipeline=pipeline)


def test_a_pipeline_is_a_context_manager_that_closes_once() -> None:
    closed: list[str] = []
    settings = Settings()
    pipeline = light_pipeline(settings)
    pipeline._closers = [lambda: closed.append("cache"), lambda: closed.append("llm")]
    with pipeline as same:
        assert same is pipeline
    pipeline.close()
    assert closed == ["llm", "cache"]


def test_close_releases_the_shared_pipelines(monkeypatch: pytest.MonkeyPatch) -> None:
    closed: list[bool] = []
    pipeline = light_pipeline()
    pipeline._closers = [lambda: closed.append(True)]
    monkeypatch.setattr(api, "_PIPELINES", {"k": pipeline})
    api.close()
    assert closed == [True] and api._PIPELINES == {}

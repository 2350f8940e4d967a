"""The per-answer ledger: totals and per-stage usage into Stats, fallback reasons, generator warning."""

from __future__ import annotations

import logging
import math
import threading

import pytest

from workers.backends.llm_usage import (
    Usage,
    current_ledger,
    price_of,
    record,
    record_fallback,
    usage_scope,
    warn_if_self_verifying,
)
from workers.messages import Answer, Stats
from workers.settings import ModelSettings, StageModel


def test_ledger_folds_into_stats_per_stage() -> None:
    with usage_scope() as ledger:
        record("extraction", Usage(1, 100, 20, 0.001))
        record("verification", Usage(2, 300, 40, 0.002))
        record("verification", Usage(1, 50, 5, 0.0005))
        record_fallback("correction", "circuit_open: circuit open for http://x")
    stats = ledger.merge_into(Stats(llm_calls=1, tokens_in=1, fallback="cache: down"))
    assert (stats.llm_calls, stats.tokens_in, stats.tokens_out) == (5, 451, 65)
    assert stats.cost_usd == pytest.approx(0.0035)
    assert stats.llm_stages is not None and stats.llm_stages["verification"].calls == 3
    assert stats.fallback == "cache: down; correction: circuit_open: circuit open for http://x"


def test_empty_ledger_changes_nothing_and_no_scope_is_a_no_op() -> None:
    record("extraction", Usage(1, 1, 1, 0.0))  # outside any scope: ignored, no error
    assert current_ledger() is None
    with usage_scope() as ledger:
        pass
    stats = Stats(llm_calls=2)
    assert ledger.merge_into(stats) is stats
    assert stats.llm_stages is None


def test_nested_scopes_share_one_ledger_and_threads_may_record() -> None:
    with usage_scope() as outer, usage_scope() as inner:
        assert inner is outer
        threads = [
            threading.Thread(target=outer.add, args=("verification", Usage(1, 10, 1, 0.0))) for _ in range(8)
        ]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    assert outer.total == Usage(8, 80, 8, 0.0)


def test_price_of_never_gives_nan() -> None:
    prices = {"m": (2.0, 8.0), "bad": (math.nan, 1.0), "inf": (math.inf, 0.0)}
    assert price_of("m", 1_000_000, 500_000, prices) == pytest.approx(6.0)
    assert price_of("unknown", 10, 10, prices) == 0.0
    assert price_of("bad", 10, 10, prices) == 0.0
    assert price_of("inf", 10, 10, prices) == 0.0


def _answer(**metadata: object) -> Answer:
    return Answer(id="a", query="q", answer="x", metadata=metadata or None)


def test_warning_when_the_verifier_generated_the_answer(caplog: pytest.LogCaptureFixture) -> None:
    models = ModelSettings(verification=StageModel(backend="openai", model="meta/Llama-3-70B"))
    with caplog.at_level(logging.WARNING):
        assert warn_if_self_verifying(_answer(generator="llama-3-70b"), models)
        assert warn_if_self_verifying(_answer(model="meta/Llama-3-70B"), models)
        assert not warn_if_self_verifying(_answer(generator="gpt-4o"), models)
        assert not warn_if_self_verifying(_answer(generator=["odd"]), models)  # no crash on odd types
        assert not warn_if_self_verifying(_answer(), models)
    assert sum("is the answer's generator" in r.getMessage() for r in caplog.records) == 2
    local = ModelSettings(verification=StageModel(model="llama-3-70b"))
    assert not warn_if_self_verifying(_answer(generator="llama-3-70b"), local)  # offline verifier


def test_fallback_reasons_keep_the_stage_separator_unambiguous() -> None:
    with usage_scope() as ledger:
        record_fallback("verification", "exhausted: 500; body {'a': 1}\n more")
    assert ledger.fallbacks == ("verification: exhausted: 500, body {'a': 1} more",)

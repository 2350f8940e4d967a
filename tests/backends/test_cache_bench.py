"""The cache benchmark runs its four phases on fakes and reports rates, ratios and hit ratios."""

from __future__ import annotations

from pathlib import Path

from lab import cache_bench
from tests.fakes import HashEmbedder, ScriptedChecker


def test_bench_reports_cold_and_warm_in_one_run(tmp_path: Path) -> None:
    model = HashEmbedder()
    report = cache_bench.run(tmp_path, embedder=model, checker=ScriptedChecker(), answers=6)
    phases = report["phases"]
    assert set(phases) == {"no_cache", "cold", "warm", "repeat"}
    assert all(p["answers_per_s"] > 0 for p in phases.values())
    assert report["warm_over_cold"] > 0 and report["backend"] in {"lru", "redis"}
    assert phases["no_cache"]["hit_ratio"]["embedding"] == 0.0
    # Same documents, new answers: the document windows come from the cache.
    assert phases["warm"]["hit_ratio"]["embedding"] > phases["cold"]["hit_ratio"]["embedding"]
    assert phases["repeat"]["hit_ratio"]["semantic"] == 1.0
    assert phases["repeat"]["routes"] == {"semantic_cache": 6}


def test_workload_repeats_documents_across_answers() -> None:
    answers = cache_bench.make_workload(20, seed=1)
    doc_ids = [d.id for a in answers for d in a.documents]
    assert len(set(doc_ids)) <= 6 < len(doc_ids)
    assert len({a.answer for a in answers}) > 10
    assert answers == cache_bench.make_workload(20, seed=1)  # deterministic

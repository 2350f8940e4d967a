"""The speed bench's arithmetic and report; the measurement itself is `make bench-speed`, not a test."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.eval.speed_bench import _best, _document_words, markdown, sample_answers, summarise

CURRENT = {"answers_per_s": 2.0, "p50_s": 0.5, "p95_s": 0.9, "startup_s": 5.0, "rss_mb": 900.0, "workers": 2}
PREVIOUS = {"answers_per_s": 0.8, "p50_s": 1.2, "p95_s": 2.0, "startup_s": 8.0, "rss_mb": 950.0, "workers": 1}
LIMIT = {
    "model_s_per_answer": 0.3,
    "sentences_per_s": 300.0,
    "pairs_per_s": 70.0,
    "texts_per_answer": 20.0,
    "pairs_per_answer": 9.0,
}


def test_ratios_compare_throughput_with_the_previous_release_and_the_limit() -> None:
    ratios = summarise(CURRENT, PREVIOUS, LIMIT)
    assert ratios["speedup_vs_previous"] == 2.5
    assert ratios["share_of_limit"] == pytest.approx(0.6)  # 0.3 s of model time in 0.5 s per answer
    assert ratios["previous_share_of_limit"] == pytest.approx(0.24)
    assert ratios["p50_ratio"] == 2.4


def test_the_best_round_is_kept() -> None:
    slow = dict(CURRENT, answers_per_s=1.0)
    assert _best([slow, CURRENT]) is CURRENT
    assert _best([dict(LIMIT, model_s_per_answer=0.5), LIMIT]) is LIMIT


def test_the_report_shows_the_three_side_by_side() -> None:
    result = {
        "commit": "abc1234",
        "previous_commit": "6e5ad06",
        "answers": 30,
        "current": CURRENT,
        "previous": PREVIOUS,
        "limit": LIMIT,
        "ratios": summarise(CURRENT, PREVIOUS, LIMIT),
        "agents": {"correction": {"startup_s": 1.0, "rss_mb": 90.0, "loaded": []}},
    }
    text = markdown(result)
    assert "current abc1234" in text and "previous 6e5ad06" in text and "machine limit" in text
    assert "2.5x" in text and "60%" in text and "correction: start-up 1.0 s" in text


def test_the_sample_is_fixed_and_from_the_asked_split() -> None:
    data = Path(__file__).resolve().parents[3].parent / "shared" / "data"
    if not (data / "faithbench").is_dir():
        pytest.skip(f"no FaithBench data under {data}")
    first = sample_answers(data, n=5, split="train", seed=0)
    assert first == sample_answers(data, n=5, split="train", seed=0)
    assert len(first) == 5 and all(line.startswith(b"{") for line in first)


def test_more_documents_keep_the_answers_and_add_other_sources() -> None:
    data = Path(__file__).resolve().parents[3].parent / "shared" / "data"
    if not (data / "faithbench").is_dir():
        pytest.skip(f"no FaithBench data under {data}")
    plain = [json.loads(a) for a in sample_answers(data, n=4, seed=0)]
    wider = [json.loads(a) for a in sample_answers(data, n=4, seed=0, documents=5)]
    assert [a["answer"] for a in plain] == [a["answer"] for a in wider]
    for one, five in zip(plain, wider, strict=True):
        assert five["documents"][: len(one["documents"])] == one["documents"]
        assert len(five["documents"]) == len(one["documents"]) + 4
        own = {d["text"] for d in one["documents"]}
        assert not own & {d["text"] for d in five["documents"][len(one["documents"]) :]}
    assert _document_words([json.dumps(a).encode() for a in wider]) > _document_words(
        [json.dumps(a).encode() for a in plain]
    )

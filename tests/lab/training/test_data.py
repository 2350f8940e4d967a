"""Training and validation sets: licensed benchmarks only, split by half, pairs built like run time."""

from __future__ import annotations

import re
from pathlib import Path

import orjson
import pytest

from lab.eval.datasets import EvalItem, GoldRegion, in_split
from lab.training.data import benchmark_pairs, best_window, build_sets
from workers.errors import ConfigError
from workers.messages import Answer, Document

DOC = (
    "Arthur's Magazine was an American literary periodical published in Philadelphia. "
    "It was founded in 1844 by Timothy Shay Arthur. "
    "The magazine merged into Godey's Lady's Book in 1846."
)


def _item(answer: str, *, kind: str = "response", stance: str | None = None, **gold: object) -> EvalItem:
    return EvalItem(
        answer=Answer(
            id=f"x-{answer[:10]}", query="q", answer=answer, documents=(Document(id="d", text=DOC),)
        ),
        kind=kind,  # type: ignore[arg-type]
        stance=stance,
        **gold,  # type: ignore[arg-type]
    )


def test_the_window_that_covers_the_claim_is_chosen() -> None:
    window = best_window("Arthur's Magazine was founded in 1844.", [DOC])
    assert window is not None and "founded in 1844" in window
    assert len(window) <= 400


def test_gold_labels_map_to_the_three_verdicts() -> None:
    items = [
        _item("It was founded in 1844 by Timothy Shay Arthur.", default_supported=True),
        _item("It was founded in 1850 by Timothy Shay Arthur.", default_supported=False),
        _item("The magazine merged in 1846.", kind="stance", stance="completely-support"),
        _item("The magazine merged in 1846.", kind="stance", stance="partially-support"),
        _item("The magazine merged in 1846.", kind="stance", stance="refute"),
        _item("The magazine merged in 1846.", kind="stance", stance="irrelevant"),
    ]
    labels = [p.label for p in benchmark_pairs(items)]
    assert labels == ["SUPPORT", "CONTRADICT", "SUPPORT", "NEUTRAL", "CONTRADICT", "NEUTRAL"]


def test_a_response_gives_one_pair_per_labelled_sentence_and_skips_unlabelled_ones() -> None:
    text = "It was founded in 1844. It merged in 1900."
    regions = (GoldRegion(0, 23, supported=True), GoldRegion(24, len(text), supported=False))
    pairs = benchmark_pairs([_item(text, regions=regions), _item("No gold here.")])
    assert [(p.claim, p.label) for p in pairs] == [
        ("It was founded in 1844.", "SUPPORT"),
        ("It merged in 1900.", "CONTRADICT"),
    ]


@pytest.fixture
def tiny_data(tmp_path: Path) -> Path:
    """A HaluEval-QA file of 40 questions, each with its own year and item number."""
    halu = tmp_path / "halueval-qa"
    halu.mkdir()
    rows = [
        {
            "knowledge": f"{DOC} Item {i} was published in Boston in {1800 + i} by the Ward Press.",
            "question": f"Where was item {i} published?",
            "right_answer": "Boston",
            "hallucinated_answer": "It was published in Chicago.",
        }
        for i in range(40)
    ]
    (halu / "qa_data.jsonl").write_bytes(b"\n".join(orjson.dumps(r) for r in rows) + b"\n")
    return tmp_path


def test_sets_train_on_train_validate_on_valid_and_never_read_heldout(tiny_data: Path) -> None:
    train, valid = build_sets(tiny_data, valid_synthetic=20, datasets=["halueval-qa"])
    assert train and valid
    bench_train = {p.claim for p in train if p.source.startswith("halueval")}
    assert {"Boston", "It was published in Chicago."} <= bench_train
    assert {p.label for p in train} == {"SUPPORT", "CONTRADICT", "NEUTRAL"}
    assert sum(p.source.startswith("synthetic") for p in valid) <= 20
    # Every question trained on is from the train part (line n is group halueval-qa-n), every one
    # validated on from the valid part; the heldout part is read by neither.
    seen = {int(m) for p in train for m in re.findall(r"Item (\d+) ", p.evidence + " " + p.claim)}
    assert seen and all(in_split(f"halueval-qa-{i + 1}", "train") for i in seen)
    checked = {int(m) for p in valid for m in re.findall(r"Item (\d+) ", p.evidence + " " + p.claim)}
    assert checked and all(in_split(f"halueval-qa-{i + 1}", "valid") for i in checked)
    assert any(in_split(f"halueval-qa-{i + 1}", "heldout") for i in range(40))


def test_faithbench_may_not_be_trained_on(tiny_data: Path) -> None:
    with pytest.raises(ConfigError, match="may not be trained on"):
        build_sets(tiny_data, datasets=["faithbench"])

"""The NLI sets as training pairs: labels mapped, sets capped, validation split by premise."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.training.nli import nli_pairs, read_set, valid_key
from workers.errors import ConfigError

LONG_DOC = " ".join(f"Sentence number {i} talks about topic {i} at length." for i in range(60))


def _write(folder: Path, name: str, rows: list[dict[str, str]]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _rows(n: int, label: str) -> list[dict[str, str]]:
    return [
        {"premise": f"Premise {i} says a cat sat.", "hypothesis": f"Claim {i}.", "label": label}
        for i in range(n)
    ]


def test_labels_map_onto_the_verifiers_and_two_way_sets_become_not_support(tmp_path: Path) -> None:
    _write(tmp_path, "mnli_dev", _rows(3, "entailment") + _rows(3, "contradiction") + _rows(3, "neutral"))
    _write(tmp_path, "qnli_dev", _rows(4, "not_entailment"))
    pairs = [p for _, p in read_set(tmp_path / "mnli_dev.jsonl", "mnli_dev")]
    assert {p.label for p in pairs} == {"SUPPORT", "CONTRADICT", "NEUTRAL"}
    two_way = [p for _, p in read_set(tmp_path / "qnli_dev.jsonl", "qnli_dev")]
    assert {p.label for p in two_way} == {"NOT_SUPPORT"}
    assert all(p.source == "nli:qnli_dev" for p in two_way)


def test_each_set_is_capped_and_no_premise_is_on_both_sides(tmp_path: Path) -> None:
    rows = [
        {"premise": f"Premise {i // 3}.", "hypothesis": f"Claim {i}.", "label": "entailment"}
        for i in range(600)
    ]
    _write(tmp_path, "snli_devtest", rows)
    train, valid = nli_pairs(tmp_path, sets={"snli_devtest": 100})
    assert len(train) == 100
    assert valid, "about 6% of the premises go to validation"
    assert not {p.evidence for p in train} & {p.evidence for p in valid}


def test_wice_is_split_by_claim_so_its_two_files_never_straddle(tmp_path: Path) -> None:
    claims = [f"Claim {i} about the article." for i in range(200)]
    assert any(valid_key("wice_full", c) for c in claims)
    assert all(valid_key("wice_full", c) == valid_key("wice_full", c) for c in claims)
    _write(
        tmp_path, "wice_full", [{"premise": LONG_DOC, "hypothesis": c, "label": "entailment"} for c in claims]
    )
    train, valid = nli_pairs(tmp_path, sets={"wice_full": 1000})
    assert {p.claim for p in valid} == {c for c in claims if valid_key("wice_full", c)}
    assert not {p.claim for p in train} & {p.claim for p in valid}


def test_long_premises_are_windowed_like_the_pipeline(tmp_path: Path) -> None:
    _write(
        tmp_path,
        "factcg_cg2c",
        [{"premise": LONG_DOC, "hypothesis": "Topic 42 is talked about.", "label": "entailment"}],
    )
    [(_, pair)] = list(read_set(tmp_path / "factcg_cg2c.jsonl", "factcg_cg2c"))
    assert len(pair.evidence) <= 400
    assert "42" in pair.evidence


def test_a_missing_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no NLI data"):
        nli_pairs(tmp_path / "absent")

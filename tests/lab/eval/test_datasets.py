"""The adapters on a few hand-made records in each benchmark's native format, the split and the sampler."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lab.eval.adapters import load_dataset, locate
from lab.eval.datasets import DatasetError, EvalItem, GoldRegion, Split, in_split, select
from workers.messages import Answer


def _jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def _note(label: list[str], start: int, end: int) -> dict[str, Any]:
    return {"annot_id": 1, "label": label, "summary_start": start, "summary_end": end, "source_start": None}


def _faithbench(folder: Path) -> None:
    summary = "The film grossed $181 million with a production budget of $160 million."
    samples = [
        {
            "sample_id": 0,
            "source": "Poseidon grossed $181 million on a budget of $160 million.",
            "summary": summary,
            "annotations": [_note(["Unwanted", "Unwanted.Intrinsic"], 37, 47), _note(["Questionable"], 0, 8)],
            "metadata": {"summarizer": "m", "hhemv1": 0.9, "gpt_4o": 0, "raw_sample_id": 15},
        },
        {
            "sample_id": 1,
            "source": "A cat sat.",
            "summary": "A cat sat.",
            "annotations": [_note(["Questionable"], 0, 5), _note(["Benign"], 2, 5)],
            "metadata": {"summarizer": "m", "hhemv1": 0.2, "gpt_4o": 1, "raw_sample_id": 16},
        },
        {"sample_id": 2, "source": "x", "summary": "y", "annotations": [], "metadata": {}},
    ]
    (folder / "batch_2.json").write_text(json.dumps({"samples": samples}), encoding="utf-8")
    (folder / "batch_10.json").write_text(json.dumps({"samples": samples[:1]}), encoding="utf-8")


def test_faithbench(tmp_path: Path) -> None:
    _faithbench(tmp_path)
    items = load_dataset("faithbench", tmp_path)
    # batch_2 before batch_10, and sample ids repeat across batches, so the file is part of the id.
    assert [it.answer.id for it in items] == [
        "faithbench-batch_2-0", "faithbench-batch_2-1", "faithbench-batch_2-2", "faithbench-batch_10-0",
    ]  # fmt: skip
    first, second, third = items[:3]
    assert first.answer.query == "Summarize the document."
    assert {it.answer.domain for it in items} == {"summarization"}
    assert first.answer.documents[0].text.startswith("Poseidon")
    assert (first.hallucinated, first.hallucinated_lenient) == (True, True)
    assert first.spans == ((37, 47),)
    assert first.spans_lenient == ((0, 8), (37, 47))
    assert first.answer.answer[37:47] == "production"
    assert dict(first.detectors) == {"hhemv1": 0.9, "gpt_4o": 0.0}
    assert (second.hallucinated, second.hallucinated_lenient) == (False, True)
    assert second.spans == ()
    assert (third.hallucinated, third.spans, third.detectors) == (False, (), ())
    # Claim gold: inside the Unwanted span false, elsewhere true.
    assert first.claim_gold(30, 60) is False
    assert first.claim_gold(0, 20) is True


def test_halueval(tmp_path: Path) -> None:
    row = {"knowledge": "Delhi is the head office.", "question": "Where?", "right_answer": "Delhi",
           "hallucinated_answer": "Mumbai."}  # fmt: skip
    _jsonl(tmp_path / "qa_data.jsonl", [row, row])
    items = load_dataset("halueval-qa", tmp_path)
    assert len(items) == 4
    right, wrong = items[:2]
    assert (right.answer.answer, right.hallucinated) == ("Delhi", False)
    assert (wrong.answer.answer, wrong.hallucinated) == ("Mumbai.", True)
    assert right.group == wrong.group == "halueval-qa-1"
    assert {it.answer.domain for it in items} == {"qa"}
    assert right.answer.documents[0].text == row["knowledge"]
    assert wrong.claim_gold(0, 3) is False
    assert right.claim_gold(0, 3) is True


def _sentence(text: str, label: object, claims: list[str], labels: list[object]) -> dict[str, Any]:
    return {
        "text": text,
        "sentence_factuality_label": label,
        "claims": claims,
        "claims_factuality_label": labels,
        "human_evidence": ["NA"] + [f"human {c}" for c in claims[1:]],
        "auto_evidence": [[f"passage about {c}", "shared passage"] for c in claims],
        "auto_evidence_url": [["https://a", "https://b"] for _ in claims],
    }


def _factcheck(folder: Path) -> None:
    response = "Douglas was oldest in 1980. He was born in 1898.\r\n1. He served until 1975."
    sentences = {
        "sentence1": _sentence(
            "Douglas was oldest in 1980.", False, ["Douglas was oldest in 1980."], [False]
        ),
        "sentence2": _sentence("He was born in 1898.", True, ["Douglas was born in 1898."], [True]),
        "sentence3": _sentence("1. He served until 1975.", "NA", ["A", "B"], ["unknown", True]),
    }
    main = {"prompt": "Oldest justice?", "response": response, "revised_response": "Brennan was oldest.",
            "response_factuality": False, "sentences": sentences}  # fmt: skip
    na = {
        "prompt": "p",
        "response": "r",
        "revised_response": "r",
        "response_factuality": "NA",
        "sentences": {},
    }
    _jsonl(folder / "factcheck-GPT-benchmark.jsonl", [main, na])
    _jsonl(folder / "subtask4_claim_factuality.jsonl", [
        {"claim": "Douglas was oldest in 1980.", "label": "false", "revised_claim": "Brennan was oldest."},
        {"claim": "A", "label": "not_enough_evidence", "revised_claim": "A"},
        {"claim": "unknown claim", "label": "true", "revised_claim": "x"},
    ])  # fmt: skip
    _jsonl(folder / "subtask3_claim_evidence_stance.jsonl", [
        {"claim": "Douglas was born in 1898.", "evidence": "Born 1898.", "stance": "completely-support"},
    ])  # fmt: skip


def test_factcheck(tmp_path: Path) -> None:
    _factcheck(tmp_path)
    items = load_dataset("factcheck-gpt", tmp_path)
    kinds = [it.kind for it in items]
    assert kinds == ["response", "response", "claim", "claim", "stance"]
    main, na, claim, unknown, stance = items
    assert {it.answer.domain for it in items} == {"open-domain"}
    assert main.answer.id == "factcheck-gpt-0"
    assert (main.hallucinated, na.hallucinated) == (True, None)
    assert main.revised == "Brennan was oldest."
    texts = [d.text for d in main.answer.documents]
    assert "NA" not in texts
    assert texts.count("shared passage") == 1  # deduplicated
    assert "human B" in texts
    # Sentences 1 and 2 located with their labels; sentence 3 ("NA") gives no region.
    assert [(r.supported, main.answer.answer[r.start : r.end]) for r in main.regions] == [
        (False, "Douglas was oldest in 1980."), (True, "He was born in 1898."),
    ]  # fmt: skip
    assert (claim.hallucinated, claim.group, claim.revised) == (
        True,
        "factcheck-gpt-0",
        "Brennan was oldest.",
    )
    assert [d.text for d in claim.answer.documents] == [
        "passage about Douglas was oldest in 1980.",
        "shared passage",
    ]
    assert unknown.hallucinated is None
    assert (stance.stance, stance.answer.answer, stance.answer.documents[0].text) == (
        "completely-support", "Douglas was born in 1898.", "Born 1898.",
    )  # fmt: skip


def test_locate_ignores_whitespace_and_numbering() -> None:
    hay = "They are: \r\n1. Sandra Day - 1981. \r\n2. Ruth - 1993."
    span = locate("They are: 1. Sandra Day - 1981. \n2. Ruth - 1993.", hay)
    assert span == (0, len(hay))
    assert locate("absent text", hay) is None
    assert locate("Ruth", hay, start=5) == (hay.index("Ruth"), hay.index("Ruth") + 4)


def test_jsonl_file_and_folder(tmp_path: Path) -> None:
    rows: list[dict[str, Any]] = [
        {"id": "a1", "query": "q", "answer": "Ann won in 2020.",
         "documents": [{"id": "d", "text": "Ann won in 2021."}],
         "label": {"hallucinated": True, "spans": [[11, 15]], "revised": "Ann won in 2021."}},
        {"id": "a2", "query": "q", "answer": "Fine.", "label": {"hallucinated": False}},
        {"id": "a3", "query": "q", "answer": "Wrong.", "label": {"hallucinated": True}},
    ]  # fmt: skip
    _jsonl(tmp_path / "b.jsonl", rows)
    items = load_dataset("jsonl", tmp_path / "b.jsonl")
    assert [it.answer.id for it in items] == ["a1", "a2", "a3"]
    assert items[0].spans == ((11, 15),)
    assert items[0].revised == "Ann won in 2021."
    assert items[0].claim_gold(11, 15) is False
    assert items[0].claim_gold(0, 7) is True
    assert items[1].spans is None
    assert items[2].claim_gold(0, 6) is False  # no spans: the answer's label applies to every claim
    assert len(load_dataset("jsonl", tmp_path)) == 3


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "query": "q", "answer": "x"}', "label"),
        ('{"id": "a", "query": "q", "answer": "x", "label": {"hallucinated": "yes"}}', "label"),
        ('{"id": "a", "answer": "x", "label": {"hallucinated": true}}', "answer.v1"),
        (
            '{"id": "a", "query": "q", "answer": "x", "label": {"hallucinated": true, "spans": [[0, 9]]}}',
            "outside",
        ),
        ("not json", "invalid JSON"),
    ],
)
def test_jsonl_errors_name_the_line(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text("\n" + line + "\n", encoding="utf-8")
    with pytest.raises(DatasetError, match=message) as info:
        load_dataset("jsonl", path)
    assert ":2" in str(info.value)


def test_missing_and_unknown(tmp_path: Path) -> None:
    with pytest.raises(DatasetError, match="does not exist"):
        load_dataset("faithbench", tmp_path / "nope")
    with pytest.raises(DatasetError, match="unknown dataset"):
        load_dataset("squad", tmp_path)
    with pytest.raises(DatasetError, match="qa_data"):
        load_dataset("halueval-qa", tmp_path)


def _item(i: int, kind: str = "response", group: str = "") -> EvalItem:
    return EvalItem(answer=Answer(id=f"x{i}", query="q", answer="a"), kind=kind, group=group)  # type: ignore[arg-type]


def test_split_is_deterministic_and_complementary() -> None:
    keys = [f"item-{i}" for i in range(400)]
    dev = {k for k in keys if in_split(k, "dev")}
    test = {k for k in keys if in_split(k, "test")}
    assert dev.isdisjoint(test)
    assert dev | test == set(keys)
    assert 150 < len(dev) < 250
    assert dev == {k for k in keys if in_split(k, "dev")}


def test_select_groups_limit_and_seed() -> None:
    items = [_item(i, group="g1") for i in range(4)] + [_item(10 + i, kind="claim") for i in range(6)]
    split: Split = "dev" if in_split("g1", "dev") else "test"
    assert all(it in select(items, split=split) for it in items[:4])  # one group, one side
    limited = select(items, limit=2, seed=3)
    assert [it.kind for it in limited].count("response") == 2
    assert [it.kind for it in limited].count("claim") == 2
    assert limited == select(items, limit=2, seed=3)
    assert [items.index(it) for it in limited] == sorted(items.index(it) for it in limited)


def test_claim_gold_regions() -> None:
    item = EvalItem(
        answer=Answer(id="a", query="q", answer="x" * 30),
        regions=(GoldRegion(0, 10, supported=True), GoldRegion(10, 20, supported=False)),
    )
    assert item.claim_gold(0, 5) is True
    assert item.claim_gold(5, 15) is False
    assert item.claim_gold(25, 30) is None

"""Calibration: verdicts re-derived at any threshold, the sweep, the choice, and the command end to end."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from lab.eval import calibrate as cal
from lab.eval.calibrate import ClaimRecord, ItemRecord
from lab.eval.datasets import EvalItem
from workers.errors import InvalidMessage
from workers.messages import Answer, Checked, CheckedClaim, Claim, ClaimTask, Judgement, Verdict
from workers.protocols import CheckResult
from workers.stages.verify import combine

NO_TYPES: dict[str, float] = {}


def _item(i: int, bad: bool, *claims: tuple[float, Judgement], kind: str = "response") -> ItemRecord:
    records = tuple(ClaimRecord(similarity=s, judgement=j) for s, j in claims)
    return ItemRecord(id=f"i{i}", kind=kind, domain="qa", hallucinated=bad, claims=records)  # type: ignore[arg-type]


@pytest.mark.parametrize("judgement", list(Judgement))
@pytest.mark.parametrize("similarity", [0.0, 0.5, 0.82, 0.9])
def test_verdict_at_agrees_with_the_verify_stage(judgement: Judgement, similarity: float) -> None:
    claim = Claim(id="c0", text="x", start=0, end=1)
    task = ClaimTask(claim=claim, similarity=similarity, threshold=0.82)
    staged = combine(task, CheckResult(judgement, "why"), verifier="t").verdict
    assert cal.verdict_at(ClaimRecord(similarity, judgement), 0.82) is staged


def test_predict_rules_and_claim_type_thresholds() -> None:
    weak = _item(0, False, (0.7, Judgement.SUPPORT))
    assert cal.predict(weak, threshold=0.82, rule="contradicted_or_unverified", by_claim_type=NO_TYPES)
    assert not cal.predict(weak, threshold=0.6, rule="contradicted_or_unverified", by_claim_type=NO_TYPES)
    assert not cal.predict(weak, threshold=0.82, rule="contradicted_only", by_claim_type=NO_TYPES)
    typed = ItemRecord("t", "response", "qa", False, (ClaimRecord(0.7, Judgement.SUPPORT, "novel"),))
    # The claim type keeps its own threshold whatever the domain's.
    assert cal.predict(typed, threshold=0.1, rule="contradicted_or_unverified", by_claim_type={"novel": 0.88})
    contradicted = _item(1, True, (0.95, Judgement.CONTRADICT))
    assert cal.predict(contradicted, threshold=0.0, rule="contradicted_only", by_claim_type=NO_TYPES)
    assert not cal.predict(
        _item(2, False), threshold=1.0, rule="contradicted_or_unverified", by_claim_type={}
    )


def _records() -> list[ItemRecord]:
    return [
        _item(0, False, (0.75, Judgement.SUPPORT)),
        _item(1, False, (0.72, Judgement.SUPPORT), (0.9, Judgement.SUPPORT)),
        _item(2, True, (0.65, Judgement.SUPPORT)),
        _item(3, True, (0.9, Judgement.NEUTRAL)),
        _item(4, True, (0.9, Judgement.CONTRADICT), kind="claim"),
    ]


def test_sweep_and_choice() -> None:
    rows = cal.sweep(_records(), by_claim_type=NO_TYPES)
    assert [r["threshold"] for r in rows][:3] == [0.0, 0.01, 0.02] and rows[-1]["threshold"] == 1.0
    by_t = {r["threshold"]: r for r in rows}
    # 0.66 .. 0.72 separate the classes: both right answers verified, the 0.65 one not.
    assert by_t[0.7]["balanced_accuracy"] == 1.0 and by_t[0.7]["flagged_share"] == 0.6
    assert by_t[0.82]["balanced_accuracy"] == 0.5
    assert by_t[0.5]["balanced_accuracy"] == pytest.approx(5 / 6)
    assert cal.choose(rows, default=0.82) == 0.72  # the tie nearest the default
    assert cal.choose(rows, default=0.0) == 0.66
    assert cal.choose([], default=0.82) == 0.82


def test_calibrate_reports_both_rules_dev_and_test() -> None:
    test = [_item(5, False, (0.7, Judgement.SUPPORT)), _item(6, True, (0.6, Judgement.SUPPORT))]
    out = cal.calibrate(_records(), test, default=0.82, current=0.82, by_claim_type=NO_TYPES)
    assert out["chosen_threshold"] == 0.72
    assert out["dev"]["chosen:contradicted_or_unverified"]["balanced_accuracy"] == 1.0
    assert out["dev"]["contradicted_only"]["recall"] == 1 / 3
    assert set(out["dev_by_kind"]) == {"claim", "response"}
    assert out["claims"]["judgements"]["SUPPORT"] == 4 and out["claims"]["support_with_domain_threshold"] == 4
    # On test 0.72 flags the 0.7 answer too: no better than the default there.
    assert out["test"]["chosen:contradicted_or_unverified"]["balanced_accuracy"] == 0.5
    assert out["helps_on_test"] is False
    assert out["gates_like_one"] is False
    assert "test" not in cal.calibrate(_records(), None, default=0.82, current=0.8, by_claim_type={})
    flagging = [_item(7, True, (0.95, Judgement.SUPPORT)), _item(8, False)]
    assert cal.calibrate(flagging, None, default=0.82, current=0.82, by_claim_type={})["gates_like_one"]


def _checked(claim_id: str, similarity: float, judgement: Judgement) -> CheckedClaim:
    claim = Claim(id=claim_id, text="Delhi is the head office", start=0, end=24)
    verdict = Verdict.CONTRADICTED if judgement is Judgement.CONTRADICT else Verdict.UNVERIFIED
    return CheckedClaim(claim=claim, verdict=verdict, judgement=judgement, similarity=similarity, reason="r")


@dataclass
class FakeJudge:
    """Contradicts answers saying "Mumbai", supports the rest at 0.7; rejects the answer ids in `reject`."""

    reject: frozenset[str] = frozenset()
    seen: list[str] = field(default_factory=list)

    def checked(self, answer: Answer) -> list[CheckedClaim]:
        self.seen.append(answer.id)
        if answer.id in self.reject:
            raise InvalidMessage("too large", kind="too_large")
        bad = "Mumbai" in answer.answer
        return [_checked("c0", 0.7, Judgement.CONTRADICT if bad else Judgement.SUPPORT)]


def test_record_items_skips_unlabelled_and_lists_rejections() -> None:
    def item(i: str, bad: bool | None) -> EvalItem:
        return EvalItem(answer=Answer(id=i, query="q", answer="Delhi.", domain="qa"), hallucinated=bad)

    judge = FakeJudge(reject=frozenset({"b"}))
    records, errors = cal.record_items([item("a", False), item("b", True), item("c", None)], judge)
    assert judge.seen == ["a", "b"]
    assert [(r.id, r.domain, r.hallucinated) for r in records] == [("a", "qa", False)]
    assert records[0].claims[0] == ClaimRecord(
        0.7, Judgement.SUPPORT, "general", "Delhi is the head office", "r"
    )
    assert errors == ["b: InvalidMessage: too large"]


@dataclass
class FakeStepwise:
    tasks: tuple[str, ...] = ("c0", "c0@1")

    def prepare(self, answer: Answer) -> object:
        claim = Claim(id="x", text="t", start=0, end=1)
        return type(
            "P", (), {"tasks": tuple(ClaimTask(claim=claim.model_copy(update={"id": i})) for i in self.tasks)}
        )

    def verify(self, tasks: Sequence[ClaimTask]) -> Checked:
        return Checked(claims=tuple(_checked(t.claim.id, 0.9, Judgement.SUPPORT) for t in tasks))


def test_pipeline_judge_leaves_out_citation_checks() -> None:
    checked = cal.PipelineJudge(FakeStepwise()).checked(Answer(id="a", query="q", answer="t"))
    assert [c.claim.id for c in checked] == ["c0"]


def test_main_writes_calibration_and_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "data" / "halueval-qa"
    folder.mkdir(parents=True)
    rows = [
        {"knowledge": "Delhi is the head office.", "question": f"Where {i}?", "right_answer": "Delhi is.",
         "hallucinated_answer": "Mumbai is."}
        for i in range(12)
    ]  # fmt: skip
    (folder / "qa_data.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    out, records = tmp_path / "cal.json", tmp_path / "records.jsonl"
    argv = ["--data", str(tmp_path / "data"), "--datasets", "halueval-qa", "--out", str(out)]
    assert cal.main([*argv, "--records", str(records)], judge=FakeJudge()) == 0
    result = json.loads(out.read_text())
    qa = result["domains"]["qa"]
    assert result["by_domain"] == {"qa": qa["chosen_threshold"]} and qa["chosen_threshold"] <= 0.7
    assert qa["dev"]["chosen:contradicted_or_unverified"]["balanced_accuracy"] == 1.0
    assert qa["dev"]["default:contradicted_or_unverified"]["balanced_accuracy"] == 0.5
    assert qa["helps_on_test"] is True and result["items"]["dev"] + result["items"]["test"] == 24
    assert len(records.read_text().splitlines()) == 24
    assert "qa" in capsys.readouterr().out
    assert cal.main([*argv, "--data", str(tmp_path / "none")], judge=FakeJudge()) == 2

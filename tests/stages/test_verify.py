from __future__ import annotations

import math

import pytest

from tests.fakes import ScriptedChecker
from workers.errors import BackendError
from workers.messages import Claim, ClaimTask, Evidence, Judgement, SlotFix, Verdict
from workers.protocols import CheckResult
from workers.stages.verify import combine, verify_many

CANDIDATES = (
    Evidence(doc_id="d1", start=0, end=20, text="Revenue was $3.9 bn.", score=0.9),
    Evidence(doc_id="d2", start=5, end=25, text="Revenue rose in 2023.", score=0.7),
)
FIX = SlotFix(start=12, end=19, wrong="$4.2 bn", right="$3.9 bn", evidence_doc_id="d1")


def _task(cid: str = "c0", *, similarity: float = 0.9, threshold: float = 0.82) -> ClaimTask:
    claim = Claim(id=cid, text="Revenue was $4.2 bn.", start=0, end=20)
    return ClaimTask(claim=claim, candidates=CANDIDATES, similarity=similarity, threshold=threshold)


def _result(
    label: Judgement, *, evidence: Evidence | None = CANDIDATES[1], confidence: float = 0.8
) -> CheckResult:
    return CheckResult(label, "scripted reason", evidence, (FIX,), confidence)


def test_contradict_is_contradicted_with_its_fixes_whatever_the_similarity() -> None:
    checked = combine(_task(similarity=0.1), _result(Judgement.CONTRADICT), verifier="v")
    assert checked.verdict is Verdict.CONTRADICTED
    assert checked.fixes == (FIX,)
    assert checked.reason == "tier 2 CONTRADICT: scripted reason"
    assert checked.verifier == "v"


def test_support_above_threshold_is_verified() -> None:
    checked = combine(_task(similarity=0.9), _result(Judgement.SUPPORT), verifier="v")
    assert checked.verdict is Verdict.VERIFIED
    assert checked.judgement is Judgement.SUPPORT
    assert checked.fixes == ()
    assert "0.90 >= threshold 0.82" in checked.reason


def test_support_below_threshold_is_unverified_and_says_tier_1_failed() -> None:
    checked = combine(_task(similarity=0.74), _result(Judgement.SUPPORT), verifier="v")
    assert checked.verdict is Verdict.UNVERIFIED
    assert checked.reason.startswith("tier 2 SUPPORT but similarity 0.74 < threshold 0.82")


@pytest.mark.parametrize("label", [Judgement.NEUTRAL, Judgement.INSUFFICIENT])
def test_neutral_and_insufficient_are_unverified_even_when_similar(label: Judgement) -> None:
    checked = combine(_task(similarity=0.99), _result(label), verifier="v")
    assert checked.verdict is Verdict.UNVERIFIED
    assert checked.reason.startswith(f"tier 2 {label.value}")
    assert checked.fixes == ()


def test_evidence_puts_the_span_the_result_rests_on_first_once() -> None:
    checked = combine(_task(), _result(Judgement.SUPPORT), verifier="v")
    assert checked.evidence == (CANDIDATES[1], CANDIDATES[0])
    no_span = combine(_task(), _result(Judgement.NEUTRAL, evidence=None), verifier="v")
    assert no_span.evidence == CANDIDATES


def test_bad_numbers_are_clipped_never_nan() -> None:
    checked = combine(_task(similarity=0.9), _result(Judgement.SUPPORT, confidence=math.nan), verifier="v")
    assert checked.confidence == 0.5
    high = combine(_task(similarity=1.5), _result(Judgement.SUPPORT, confidence=7.0), verifier="v")
    assert high.similarity == 1.0 and high.confidence == 1.0
    low = combine(_task(similarity=-0.2), _result(Judgement.SUPPORT, confidence=-1.0), verifier="v")
    assert low.similarity == 0.0 and low.confidence == 0.0
    assert low.verdict is Verdict.UNVERIFIED


def test_verify_many_judges_all_tasks_in_one_call() -> None:
    checker = ScriptedChecker({"a": _result(Judgement.CONTRADICT), "b": _result(Judgement.SUPPORT)})
    checked = verify_many([_task("a"), _task("b"), _task("c")], checker=checker)
    assert len(checker.batches) == 1 and len(checker.batches[0]) == 3
    assert [c.verdict for c in checked] == [Verdict.CONTRADICTED, Verdict.VERIFIED, Verdict.UNVERIFIED]
    assert {c.verifier for c in checked} == {"scripted"}
    assert checker.batches[0][0][1] == CANDIDATES


def test_verify_many_without_tasks_makes_no_call() -> None:
    checker = ScriptedChecker()
    assert verify_many([], checker=checker) == []
    assert checker.batches == []


class _ShortChecker(ScriptedChecker):
    def judge_many(self, items):  # type: ignore[no-untyped-def]
        return super().judge_many(items)[:-1]


def test_a_checker_losing_results_is_a_backend_error() -> None:
    with pytest.raises(BackendError, match="1 results for 2 claims"):
        verify_many([_task("a"), _task("b")], checker=_ShortChecker())


def _answer_task(text: str) -> ClaimTask:
    claim = Claim(id="c0", text=text, start=0, end=len(text), standalone=f"The 2023 revenue was {text}")
    return ClaimTask(claim=claim, candidates=CANDIDATES, similarity=0.9, threshold=0.82)


def test_a_short_answer_no_window_states_is_insufficient_whatever_the_verdict_said() -> None:
    checked = combine(_answer_task("$5.1 bn"), _result(Judgement.SUPPORT), verifier="scripted")
    assert (checked.verdict, checked.judgement) == (Verdict.UNVERIFIED, Judgement.INSUFFICIENT)
    assert checked.fixes == ()
    assert "'$5.1 bn' is stated in none of the 2 evidence windows" in checked.reason
    assert "the verifier alone: SUPPORT; scripted reason" in checked.reason


def test_a_stated_short_answer_keeps_its_verdict_and_a_contradiction_stands() -> None:
    stated = combine(_answer_task("$3.9 bn"), _result(Judgement.SUPPORT), verifier="scripted")
    assert stated.verdict is Verdict.VERIFIED
    wrong = combine(_answer_task("$5.1 bn"), _result(Judgement.CONTRADICT), verifier="scripted")
    assert (wrong.verdict, wrong.fixes) == (Verdict.CONTRADICTED, (FIX,))

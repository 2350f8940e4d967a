"""The shipped trained verifier: it loads offline from the package and gets clear cases right."""

from __future__ import annotations

import pytest

from workers.backends.checker import OfflineChecker
from workers.backends.crossenc import shipped_dir
from workers.backends.trained import TrainedChecker, load_offline_verifier
from workers.messages import Claim, Evidence, Judgement
from workers.settings import VerifierSettings

DOC = (
    "Northwind Bank reported net income of $2.4 billion for 2023, up 8% from a year earlier. "
    "The bank opened 35 new branches in Ohio and Michigan. "
    "Its chief executive, Maria Lopez, joined the company in 2015 after a decade at a rival lender."
)


def _window(sentence: str) -> Evidence:
    start = DOC.index(sentence)
    return Evidence(doc_id="annual-report", start=start, end=start + len(sentence), text=sentence)


FIRST = _window("Northwind Bank reported net income of $2.4 billion for 2023, up 8% from a year earlier.")
SECOND = _window("The bank opened 35 new branches in Ohio and Michigan.")
THIRD = _window(
    "Its chief executive, Maria Lopez, joined the company in 2015 after a decade at a rival lender."
)


@pytest.fixture(scope="module")
def checker() -> TrainedChecker:
    loaded = load_offline_verifier(VerifierSettings(), rules=OfflineChecker())
    assert isinstance(loaded, TrainedChecker), f"no trained verifier shipped in {shipped_dir()}"
    return loaded


def _claim(text: str) -> Claim:
    return Claim(id="c", text=text, start=0, end=len(text))


def test_the_weights_ship_in_the_package_and_stay_small() -> None:
    weights = shipped_dir() / "weights.safetensors"
    assert weights.is_file()
    assert weights.stat().st_size <= 50 * 1024 * 1024


def test_an_exact_restatement_is_support(checker: TrainedChecker) -> None:
    [result] = checker.judge_many([(_claim(SECOND.text), [SECOND])])
    assert result.label is Judgement.SUPPORT
    assert result.evidence == SECOND
    assert result.extra["p_support"] >= 0.5


def test_a_swapped_figure_is_contradict(checker: TrainedChecker) -> None:
    claim = _claim("The bank opened 85 new branches in Ohio and Michigan.")
    [result] = checker.judge_many([(claim, [SECOND])])
    assert result.label is Judgement.CONTRADICT
    assert result.evidence == SECOND


def test_an_unrelated_window_is_neutral(checker: TrainedChecker) -> None:
    claim = _claim("Maria Lopez joined the company in 2015.")
    [result] = checker.judge_many([(claim, [FIRST])])
    assert result.label is Judgement.NEUTRAL
    assert result.extra["p_support"] < 0.5


def test_the_supporting_window_among_several_is_the_one_cited(checker: TrainedChecker) -> None:
    claim = _claim("Maria Lopez joined the company in 2015.")
    [result] = checker.judge_many([(claim, [FIRST, SECOND, THIRD])])
    assert result.label is Judgement.SUPPORT
    assert result.evidence == THIRD
    assert "annual-report" in result.reason


def test_probabilities_are_calibrated_rows_that_sum_to_one(checker: TrainedChecker) -> None:
    probs = checker.probabilities([(SECOND.text, SECOND.text), ("The river floods in spring.", SECOND.text)])
    assert probs.shape == (2, 3)
    assert abs(probs.sum(axis=1) - 1.0).max() < 1e-6
    assert probs[0, 0] > probs[1, 0]

"""Fitting the calibrated decision: logistic regression, cross-validated, thresholds from held-out folds."""

from __future__ import annotations

import numpy as np
import pytest

from lab.training.decision import (
    SIGNS,
    ClaimRow,
    _corroborate_threshold,
    answer_threshold,
    fit,
    fit_logistic,
    fit_signed,
)
from workers.messages import Claim, ClaimTask, Judgement
from workers.protocols import CheckResult
from workers.stages.decide import FEATURES


def test_logistic_regression_finds_the_signal() -> None:
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 2))
    y = (x[:, 0] + 0.1 * rng.normal(size=400) > 0).astype(float)
    coef, _ = fit_logistic(x, y, np.ones(400), l2=0.1)
    assert coef[0] > 3 * abs(coef[1])


def test_a_weight_against_its_meaning_is_left_out_and_the_rest_refitted() -> None:
    # Feature 1 is meant to count for the label, but in this sample it counts against it.
    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 3))
    y = (x[:, 0] - 0.8 * x[:, 1] + 0.3 * rng.normal(size=400) > 0).astype(float)
    free, _ = fit_signed(x, y, np.ones(400), l2=0.1)
    held, _ = fit_signed(x, y, np.ones(400), l2=0.1, signs=(1, 1, -1))
    assert free[1] < 0 and held[1] == 0.0
    assert held[0] > 0 and held[2] <= 0
    assert len(SIGNS) == len(FEATURES)
    with pytest.raises(ValueError, match="1 signs for 3 signals"):
        fit_signed(x, y, np.ones(400), l2=0.1, signs=(1,))


def _row(n: int, supported: bool, rng: np.random.Generator, source: str) -> ClaimRow:
    claim = Claim(id=f"c{n}", text="x", start=0, end=1)
    task = ClaimTask(
        claim=claim, similarity=float(rng.uniform(0.5, 0.9) if supported else rng.uniform(0.2, 0.8))
    )
    p_s = float(np.clip(rng.normal(0.8 if supported else 0.3, 0.15), 0.01, 0.99))
    p_c = float(np.clip(rng.normal(0.05 if supported else 0.6, 0.15), 0.01, 0.99))
    rule = CheckResult(Judgement.NEUTRAL, "", None, (), 0.5, {})
    signals = {"p_support": p_s, "p_contradict": p_c, "coverage": float(rng.uniform(0, 1))}
    return ClaimRow(source, "valid", supported, task, rule, signals)


def test_fit_chooses_thresholds_that_separate_and_reports_per_source() -> None:
    rng = np.random.default_rng(1)
    rows = [_row(i, i % 2 == 0, rng, "a" if i % 3 else "b") for i in range(300)]
    decision, report = fit(rows)
    assert set(report) == {"a", "b"}
    assert all(r["balanced_accuracy"] >= 0.8 for r in report.values())
    assert 0.05 <= decision.support <= 0.95
    # The model's own precise threshold is kept, but the model alone does not edit.
    assert 0.3 <= decision.fitted["contradict_precise"] < decision.contradict == 0.99
    assert 0.0 < decision.gate(None) < 0.9
    supported = decision.p_supported({"p_support": 0.9, "p_contradict": 0.02}, similarity=0.8)
    unsupported = decision.p_supported({"p_support": 0.2, "p_contradict": 0.7}, similarity=0.4)
    assert supported > decision.support > unsupported
    assert decision.answer_support is None  # no short answers read with their question among the rows


def test_short_answers_get_the_threshold_that_separates_them() -> None:
    p = np.array([0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7] * 3)
    gold = p >= 0.3
    assert answer_threshold(p, gold, grid=np.round(np.arange(0.05, 0.951, 0.025), 3)) == 0.275
    assert answer_threshold(p[:5], gold[:5], grid=np.array([0.5])) is None  # too few to choose on


def test_a_value_conflict_needs_the_agreement_that_keeps_the_edits_precise() -> None:
    # Six claims the model contradicts on its own, all wrong, and four rule conflicts with a fix: the two
    # wrong ones (0.6, 0.4) join the edits; with the right one at 0.2 they would be 8 of 9 wrong, < 90%.
    p_c = np.array([0.9, 0.92, 0.95, 0.97, 0.98, 0.99, 0.6, 0.4, 0.2, 0.1])
    fix = np.array([False] * 6 + [True] * 4)
    wrong = np.array([True] * 8 + [False, False])
    assert _corroborate_threshold(p_c, fix, wrong, contradict=0.9) == 0.21
    assert _corroborate_threshold(p_c, fix, np.zeros(10, dtype=bool), contradict=0.9) == 0.9  # never more

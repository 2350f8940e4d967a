"""Threshold choice on FaithBench dev: each setting scored as `woodpecker eval` scores a summary."""

from __future__ import annotations

from workers.messages import Judgement
from workers.training.tune import ClaimRead, score


def _read(
    p_support: float, *, rule: Judgement = Judgement.SUPPORT, fix: bool = False, sim: float = 0.9
) -> ClaimRead:
    return ClaimRead(similarity=sim, threshold=0.5, rule=rule, rule_fix=fix, p_support=p_support)


def test_a_summary_is_hallucinated_when_any_claim_is_not_verified() -> None:
    reads = [[_read(0.9), _read(0.9)], [_read(0.9), _read(0.2)]]
    assert score(reads, [False, True], support=0.5, mode="model") == 1.0
    assert score(reads, [False, True], support=0.1, mode="model") == 0.5  # nothing flagged


def test_agreement_modes_and_rule_contradictions_with_a_fix() -> None:
    doubted = [[_read(0.9, rule=Judgement.NEUTRAL)], [_read(0.9)]]
    assert score(doubted, [True, False], support=0.5, mode="both") == 1.0
    assert score(doubted, [True, False], support=0.5, mode="model") == 0.5
    fixed = [[_read(0.95, rule=Judgement.CONTRADICT, fix=True)], [_read(0.95)]]
    assert score(fixed, [True, False], support=0.5, mode="either") == 1.0


def test_tier_one_similarity_still_applies() -> None:
    assert score([[_read(0.99, sim=0.3)], [_read(0.99)]], [True, False], support=0.5, mode="model") == 1.0

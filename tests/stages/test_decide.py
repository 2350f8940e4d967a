"""The calibrated decision: one probability from every signal, tier 1 as a calibrated floor."""

from __future__ import annotations

import json

import pytest

from workers.messages import Claim, ClaimTask, Evidence, Judgement, SlotFix, Verdict
from workers.protocols import CheckResult
from workers.stages.decide import FEATURES, Decision
from workers.stages.verify import combine

# P(supported) rests on the model's support log-odds and the rules' agreement, as a fitted model would.
DECISION = Decision(
    weights=tuple({"p_support": 1.5, "rule_support": 1.0}.get(f, 0.0) for f in FEATURES),
    bias=-0.2,
    support=0.6,
    contradict=0.85,
    corroborate=0.3,
    veto=0.7,
    gates={"default": 0.5, "legal": 0.7},
)
WINDOW = Evidence(doc_id="d", start=0, end=20, text="rate of 5.25% per annum")
FIX = SlotFix(start=0, end=3, wrong="4%", right="5%")


def _signals(p_s: float, p_c: float, **rules: float) -> dict[str, float]:
    return {"p_support": p_s, "p_contradict": p_c, **rules}


def _task(similarity: float, threshold: float) -> ClaimTask:
    claim = Claim(id="c", text="rate of 5.25% per year", start=0, end=22)
    return ClaimTask(claim=claim, candidates=(WINDOW,), similarity=similarity, threshold=threshold)


def test_a_confident_model_supports_even_without_the_rules() -> None:
    label, p, why = DECISION.decide(_signals(0.95, 0.01), similarity=0.7)
    assert label is Judgement.SUPPORT and p >= 0.6
    assert "P(supported)" in why


def test_an_unsure_model_is_neutral_not_contradict() -> None:
    label, _, _ = DECISION.decide(_signals(0.3, 0.5), similarity=0.7)
    assert label is Judgement.NEUTRAL


def test_a_rule_conflict_needs_the_model_to_agree() -> None:
    agreed, _, _ = DECISION.decide(_signals(0.05, 0.4, rule_conflict_fix=1.0), similarity=0.9)
    alone, _, _ = DECISION.decide(_signals(0.05, 0.1, rule_conflict_fix=1.0), similarity=0.9)
    assert agreed is Judgement.CONTRADICT
    assert alone is Judgement.NEUTRAL


@pytest.mark.parametrize("conflict", ["rule_conflict_fix", "rule_conflict"])
def test_a_rule_conflict_the_model_reads_as_support_is_flagged_not_verified(conflict: str) -> None:
    # "upheld the award" against "overturned the award": the rules' conflict, the model's support
    label, p, why = DECISION.decide(_signals(0.95, 0.01, **{conflict: 1.0}), similarity=0.9)
    assert DECISION.decide(_signals(0.95, 0.01), similarity=0.9)[0] is Judgement.SUPPORT
    assert label is Judgement.NEUTRAL and p >= DECISION.support
    assert "withheld" in why


def test_gates_come_per_domain_with_a_pooled_default() -> None:
    assert DECISION.gate("legal") == 0.7
    assert DECISION.gate("finance") == DECISION.gate(None) == 0.5


def test_a_supported_paraphrase_passes_a_calibrated_gate_it_would_fail_at_082() -> None:
    result = CheckResult(Judgement.NEUTRAL, "model", WINDOW, (), 0.5, _signals(0.97, 0.01))
    checked = combine(_task(0.75, DECISION.gate(None)), result, verifier="v", decision=DECISION)
    assert checked.verdict is Verdict.VERIFIED
    assert "tier 2 SUPPORT and similarity 0.75 >= threshold 0.50" in checked.reason
    assert "calibrated P(supported)" in checked.reason
    unchecked = combine(_task(0.75, 0.82), result, verifier="v")
    assert unchecked.verdict is Verdict.UNVERIFIED


def test_a_fix_is_kept_only_for_a_calibrated_contradiction() -> None:
    contradicted = CheckResult(
        Judgement.CONTRADICT, "rules", WINDOW, (FIX,), 0.9, _signals(0.02, 0.6, rule_conflict_fix=1.0)
    )
    checked = combine(_task(0.8, 0.5), contradicted, verifier="v", decision=DECISION)
    assert checked.verdict is Verdict.CONTRADICTED and checked.fixes == (FIX,)
    doubted = CheckResult(
        Judgement.CONTRADICT, "rules", WINDOW, (FIX,), 0.9, _signals(0.02, 0.05, rule_conflict_fix=1.0)
    )
    flagged = combine(_task(0.8, 0.5), doubted, verifier="v", decision=DECISION)
    assert flagged.verdict is Verdict.UNVERIFIED and flagged.fixes == ()


def test_a_verdict_without_the_models_signals_keeps_its_own_label() -> None:
    llm = CheckResult(Judgement.SUPPORT, "llm says so", WINDOW, (), 0.9, {})
    checked = combine(_task(0.9, 0.5), llm, verifier="llm", decision=DECISION)
    assert checked.verdict is Verdict.VERIFIED and checked.reason.endswith("llm says so")


def test_the_decision_round_trips_through_json() -> None:
    assert Decision.from_dict(json.loads(json.dumps(DECISION.to_dict()))) == DECISION


def test_a_plain_contradiction_vetoes_support_and_is_flagged() -> None:
    label, p, why = DECISION.decide(_signals(0.9, 0.75, rule_support=1.0), similarity=0.9)
    assert label is Judgement.NEUTRAL and p == 0.75
    assert "withheld" in why


def test_a_negation_both_readers_see_vetoes_support_whichever_window_the_model_reads_it_on() -> None:
    signals = _signals(0.9, 0.8, rule_support=1.0, p_contradict_cited=0.1)
    assert DECISION.decide(signals, similarity=0.9)[0] is Judgement.SUPPORT  # the cited window agrees
    label, p, why = DECISION.decide(signals | {"rule_negation": 1.0}, similarity=0.9)
    assert label is Judgement.NEUTRAL and p == 0.8
    assert "with a negation the rules see: withheld" in why


def test_a_short_answer_read_with_its_question_has_its_own_support_threshold() -> None:
    answers = Decision(**{**DECISION.__dict__, "answer_support": 0.3})
    signals = _signals(0.45, 0.05)  # P(supported) ~0.48: under `support`, over `answer_support`
    assert answers.decide(signals, similarity=0.7)[0] is Judgement.NEUTRAL
    assert answers.decide(signals, similarity=0.7, answer=True)[0] is Judgement.SUPPORT
    assert DECISION.decide(signals, similarity=0.7, answer=True)[0] is Judgement.NEUTRAL  # None: `support`
    assert Decision.from_dict(answers.to_dict()) == answers


def test_verification_applies_it_to_a_claim_read_with_its_question() -> None:
    answers = Decision(**{**DECISION.__dict__, "answer_support": 0.3})
    fragment = Claim(id="c0", text="Paris", start=0, end=5, standalone="The capital of France is Paris")
    pronoun = Claim(id="c1", text="It is big", start=0, end=9, standalone="Paris is big")
    paris = Evidence(doc_id="d", start=0, end=31, text="Paris is the capital of France.")
    result = CheckResult(Judgement.NEUTRAL, "", paris, (), 0.5, _signals(0.45, 0.05))
    verdicts = [
        combine(ClaimTask(claim=c, candidates=(paris,), similarity=0.7, threshold=0.5), result,
                verifier="t", decision=answers).verdict
        for c in (fragment, pronoun)
    ]  # fmt: skip
    assert verdicts == [Verdict.VERIFIED, Verdict.UNVERIFIED]


def test_the_model_alone_never_edits_a_claim_whose_every_value_the_rules_find_as_stated() -> None:
    # "The second, Tim Roth, born on December 6, 1975, is the guitarist ..." read at P(contradict) 1.00
    # against a window that says just that: it was removed; two readers disagreeing is a flag
    label, p, why = DECISION.decide(_signals(0.01, 0.99, rule_support=1.0, rule_values=1.0), similarity=0.9)
    assert label is Judgement.NEUTRAL and p == 0.99
    assert "the rules find every value as stated: flagged, not edited" in why
    alone, _, _ = DECISION.decide(_signals(0.01, 0.99), similarity=0.9)
    assert alone is Judgement.CONTRADICT
    # a SUPPORT with no value to compare ("acquitted" against "convicted") says nothing against it
    nothing, _, _ = DECISION.decide(_signals(0.01, 0.99, rule_support=1.0), similarity=0.9)
    assert nothing is Judgement.CONTRADICT


def test_the_model_alone_never_edits_a_claim_whose_negation_the_rules_read_over_other_words() -> None:
    # "Children under 2 should never be given aspirin" against a window about adults: the model's
    # contradiction is the "never" it sees, which the rules find denies nothing the window says
    label, _, why = DECISION.decide(_signals(0.01, 0.995, rule_doubt=1.0), similarity=0.9)
    assert label is Judgement.NEUTRAL and "read its negation over other words: flagged, not edited" in why


def test_a_date_no_window_states_keeps_the_claim_from_support() -> None:
    signals = _signals(0.9, 0.1, rule_missing=1.0)
    assert DECISION.decide(signals, similarity=0.9)[0] is Judgement.SUPPORT
    label, _, why = DECISION.decide(signals | {"rule_unseen_date": 1.0}, similarity=0.9)
    assert label is Judgement.NEUTRAL
    assert "a date of the claim no window states: withheld" in why

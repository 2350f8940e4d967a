"""One calibrated decision per claim from the signals verification already has. Pure.

The trained verifier reports, for each claim, its signals in `CheckResult.extra`: the cross-encoder's
calibrated P(support) and P(contradict) over the best windows, the rule checks' verdict (slots agree,
conflict with a supported value, conflict without one, a value not found), and the lexical coverage of
the claim's content words. With the tier-1 similarity they go through a logistic model fitted on
labelled claims (`python -m lab.training.decision`, cross-validated on the training part of the
data, never on the items it is scored on), giving P(supported):

- CONTRADICT first, when the rule checks found a conflicting value and the model agrees at least
  `corroborate`, or when the model's P(contradict) >= `contradict`, unless the rules found the claim's
  figures, dates and names, at least one, all as stated, or read its negation over other words than
  the window's (`rule_doubt`; two readers disagreeing: the claim is flagged): only then is it edited;
- SUPPORT when P(supported) >= `support`; tier 1 then asks similarity >= the calibrated gate for the
  answer's domain (`gate`): a floor, not a second opinion, so a strongly supported paraphrase is not
  flagged for its cosine;
- never SUPPORT while the rules found a conflict (a value, with a fix or without, or an outcome
  said the other way) the model does not corroborate (two readers disagreeing: the claim is
  flagged), nor while the model reads the window that SUPPORT would rest on as a contradiction
  (P(contradict) >= `veto` there): the other signals cannot outvote it;
  nor while the rules see a "not" in the claim or its window that the other lacks (`rule_negation`)
  and the model reads some window as a contradiction at `veto`: a negation barely moves similarity;
  nor while the claim gives a date with its month that no window states (`rule_unseen_date`);
- NEUTRAL otherwise, which correction FLAGs.

Usage::

    decision = Decision.from_dict(json.loads((path / "decision.json").read_text()))
    label, p, why = decision.decide(result.extra, similarity=0.71)
    decision.gate("finance")     # the tier-1 floor the pipeline puts in the claim's task
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from workers.messages import Judgement

__all__ = ["FEATURES", "Decision", "feature_vector"]

# The signals, in the model's order. `p_*` enter as log-odds, so a confident model moves the sum a lot.
FEATURES: tuple[str, ...] = (
    "p_support",
    "p_contradict",
    "rule_support",
    "rule_conflict_fix",
    "rule_conflict",
    "rule_missing",
    "coverage",
    "similarity",
)
_LOGIT = frozenset({"p_support", "p_contradict"})


def _logit(p: float) -> float:
    p = min(1.0 - 1e-4, max(1e-4, p))
    return math.log(p / (1.0 - p))


def feature_vector(signals: Mapping[str, float], *, similarity: float) -> list[float]:
    """The model's inputs from a verdict's signals and the tier-1 similarity."""
    values = {**signals, "similarity": similarity}
    return [_logit(values.get(f, 0.0)) if f in _LOGIT else float(values.get(f, 0.0)) for f in FEATURES]


@dataclass(frozen=True, kw_only=True)
class Decision:
    """The fitted combination and its thresholds; written by training, read with the weights."""

    weights: tuple[float, ...]
    bias: float
    support: float = 0.5
    contradict: float = 0.8
    corroborate: float = 0.3
    # The model's own P(contradict) at which SUPPORT is withheld whatever the other signals say: the claim
    # is then flagged (or contradicted, by the rules above), never verified.
    veto: float = 1.0
    # The support threshold for a short answer read with its question (`stages.qa2d`): such a claim is
    # the question restated, so its similarity and word coverage are high whether the answer is right or
    # not, and the pooled `support` flags most right answers. None: `support`.
    answer_support: float | None = None
    gates: Mapping[str, float] = field(default_factory=lambda: {"default": 0.0})
    fitted: Mapping[str, Any] = field(default_factory=dict)

    def p_supported(self, signals: Mapping[str, float], *, similarity: float) -> float:
        x = feature_vector(signals, similarity=similarity)
        z = self.bias + sum(w * v for w, v in zip(self.weights, x, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def gate(self, domain: str | None) -> float:
        """The tier-1 similarity floor for `domain` (the pooled one where the domain had no data)."""
        return self.gates.get(domain or "", self.gates.get("default", 0.0))

    def decide(
        self, signals: Mapping[str, float], *, similarity: float, answer: bool = False
    ) -> tuple[Judgement, float, str]:
        """(tier-2 label, its confidence, why) for one claim; tier 1 is the caller's (`gate`). `answer`: the
        claim is a short answer read with its question (`answer_support` applies)."""
        p = self.p_supported(signals, similarity=similarity)
        p_c = signals.get("p_contradict", 0.0)
        cited = signals.get("p_contradict_cited", p_c)
        where = "on the window it would rest on"
        if signals.get("rule_negation", 0.0) and p_c > cited:
            # two readers see the "not": the model's strongest contradiction counts, wherever it reads it
            cited, where = p_c, "with a negation the rules see"
        support = self.answer_support if answer and self.answer_support is not None else self.support
        why = f"calibrated P(supported) {p:.2f} (threshold {support:.2f}), model P(contradict) {p_c:.2f}"
        # A value conflict the model corroborates comes first: it carries the value the evidence states.
        if signals.get("rule_conflict_fix", 0.0) and p_c >= self.corroborate:
            return Judgement.CONTRADICT, p_c, why
        # The model alone contradicts only where the rules do not find every value as the claim states
        # it: two readers disagreeing is a flag, never the removal of a claim whose values all check out.
        stated = signals.get("rule_support", 0.0) and signals.get("rule_values", 0.0)
        if p_c >= self.contradict and not stated and not signals.get("rule_doubt", 0.0):
            return Judgement.CONTRADICT, p_c, why
        if p_c >= self.contradict:
            held = "find every value as stated" if stated else "read its negation over other words"
            return Judgement.NEUTRAL, p_c, f"{why}; the rules {held}: flagged, not edited"
        if p >= support and (signals.get("rule_conflict_fix", 0.0) or signals.get("rule_conflict", 0.0)):
            # the rules read a conflict in the window, the model does not: a flag, as above
            return Judgement.NEUTRAL, p, f"{why}; the rules find the window says otherwise: withheld"
        if p >= support and signals.get("rule_unseen_date", 0.0):
            # a date is said or not: one no window states is unverified whatever else the words share
            return Judgement.NEUTRAL, p, f"{why}; a date of the claim no window states: withheld"
        if p >= support and cited < self.veto:
            return Judgement.SUPPORT, p, why
        if p >= support:
            why = f"{why}; P(contradict) {cited:.2f} >= {self.veto:.2f} {where}"
            return Judgement.NEUTRAL, cited, f"{why}: withheld"
        return Judgement.NEUTRAL, 1.0 - p, why

    @classmethod
    def from_dict(cls, raw: Mapping[str, Any]) -> Decision:
        """From what `to_dict` wrote (the file beside the weights); ValueError if fitted on other signals."""
        body = dict(raw)
        if tuple(body.pop("features", FEATURES)) != FEATURES:
            raise ValueError(f"fitted on other features than {FEATURES}")
        body["weights"] = tuple(body["weights"])
        return cls(**body)

    def to_dict(self) -> dict[str, Any]:
        return {"features": list(FEATURES), **asdict(self), "gates": dict(self.gates)}

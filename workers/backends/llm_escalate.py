"""The escalation tier: the offline verifier decides what it is sure of, the LLM judges the rest.

With `verification.escalate = "uncertain"` every claim is judged offline first; only the claims in
the offline verifier's uncertain band go to the LLM verifier, all of them in ONE call per answer, so
tokens are spent on the hard claims alone. A failed call (budget, circuit open, retries exhausted,
invalid output) or an LLM verdict woodpecker does not accept leaves the offline verdict standing,
marked "offline fallback" in its reason. `stats.escalated` counts the claims sent.

Usage::

    checker = EscalatingChecker(offline=trained, llm=LLMChecker(...), settings=settings.verification)
    results = checker.judge_many([(claim, windows), ...])
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.backends.llm_checker import LLMChecker, Pair
from workers.messages import Judgement
from workers.protocols import CheckResult, VerdictComponent
from workers.settings import VerificationSettings

__all__ = ["EscalatingChecker", "is_uncertain"]

_DECIDED = (Judgement.SUPPORT, Judgement.CONTRADICT)


def is_uncertain(result: CheckResult, settings: VerificationSettings) -> bool:
    """Whether an offline verdict is in the band worth an LLM call.

    Sure: SUPPORT or CONTRADICT at `confident_at` or above (the trained verifier's P(support) /
    P(contradict), else the verdict's confidence), or a verdict whose P(support) and P(contradict)
    are both under `settled_below`: the evidence plainly says nothing about the claim.
    """
    p_s, p_c = result.extra.get("p_support"), result.extra.get("p_contradict")
    if p_s is None or p_c is None:  # the rule checks alone, or a rule contradiction with a fix
        return not (result.label in _DECIDED and result.confidence >= settings.confident_at)
    if result.label is Judgement.SUPPORT and p_s >= settings.confident_at:
        return False
    if result.label is Judgement.CONTRADICT and p_c >= settings.confident_at:
        return False
    return max(p_s, p_c) >= settings.settled_below


class EscalatingChecker:
    """A `VerdictComponent`: `offline` for every claim, `llm` for the uncertain ones (one call)."""

    def __init__(self, *, offline: VerdictComponent, llm: LLMChecker, settings: VerificationSettings) -> None:
        self.offline, self.llm, self.settings = offline, llm, settings

    @property
    def name(self) -> str:
        return f"{self.offline.name}+{self.llm.name}"

    def judge_many(self, items: Sequence[Pair]) -> list[CheckResult]:
        first = self.offline.judge_many(items)
        hard = [i for i, (r, (_, windows)) in enumerate(zip(first, items, strict=True)) if windows]
        hard = [i for i in hard if is_uncertain(first[i], self.settings)]
        if not hard:
            return first
        judged = self.llm.judge([items[i] for i in hard], prior=[first[i] for i in hard], one_call=True)
        out = list(first)
        for i, result in zip(hard, judged, strict=True):
            out[i] = result
        return out

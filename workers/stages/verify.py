"""Stage 4, verification in two tiers. Pure apart from the verdict component it is given.

Tier 1: similarity of the best evidence window to the claim against the threshold for the domain.
Tier 2: a SUPPORT / CONTRADICT / NEUTRAL / INSUFFICIENT verdict with a reason and the evidence span.
VERIFIED only when both pass; CONTRADICTED on a contradiction; else UNVERIFIED.

With a calibrated `Decision` (`workers.stages.decide`) and a verdict that carries the trained verifier's
signals, tier 2's label is the calibrated one: every signal and the similarity weighed together, rather
than the component's own cut-off. Both tiers stay visible in the reason.

Usage::

    checked = verify_many(tasks, checker=OfflineChecker())
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from workers.errors import BackendError
from workers.messages import CheckedClaim, ClaimTask, Evidence, Judgement, Verdict
from workers.protocols import CheckResult, VerdictComponent
from workers.stages.decide import Decision
from workers.stages.qa2d import answer_stated, read_with_question

__all__ = ["combine", "unstated", "verify_many"]


def combine(
    task: ClaimTask, result: CheckResult, *, verifier: str, decision: Decision | None = None
) -> CheckedClaim:
    """Both tiers into one verdict, with a reason that names the tier that failed."""
    similarity = _unit(task.similarity, default=0.0)
    if decision is not None and "p_support" in result.extra:
        result = _calibrated(result, decision, similarity, answer=read_with_question(task.claim))
    # A contradiction carries the value the evidence states instead ("Lyon" -> "Paris"): it stands.
    if result.label is not Judgement.CONTRADICT and unstated(task):
        result = _unstated(task, result)
    verdict, why = _verdict(result.label, similarity, task.threshold)
    return CheckedClaim(
        claim=task.claim,
        verdict=verdict,
        judgement=result.label,
        similarity=similarity,
        evidence=_evidence(result.evidence, task.candidates),
        reason=f"{why}: {result.reason}" if result.reason else why,
        fixes=result.fixes if verdict is Verdict.CONTRADICTED else (),
        confidence=_unit(result.confidence, default=0.5),
        verifier=verifier,
    )


def _calibrated(result: CheckResult, decision: Decision, similarity: float, *, answer: bool) -> CheckResult:
    label, confidence, why = decision.decide(result.extra, similarity=similarity, answer=answer)
    # A rule fix is kept only for a contradiction: it is the supported value correction puts in.
    fixes = result.fixes if label is Judgement.CONTRADICT else ()
    reason = f"{why}; {result.reason}" if result.reason else why
    return CheckResult(label, reason, result.evidence, fixes, confidence, result.extra)


def unstated(task: ClaimTask) -> bool:
    """Whether the task is a short answer read with its question (`stages.qa2d`) whose words none of its
    evidence windows states: unsupported whatever the verdict component says, bar a contradiction.

    By default (`retrieval.short_answers_stated`) such a claim exists only where no document states the
    answer, and windows are cut from documents, so the two agree; with `short_answers_with_question`
    every short answer is a claim, and one its document states outside the claim's windows is flagged."""
    return read_with_question(task.claim) and not answer_stated(
        task.claim.text, [c.text for c in task.candidates]
    )


def _unstated(task: ClaimTask, result: CheckResult) -> CheckResult:
    """A short answer whose words no evidence window states is unsupported, whatever the verdict component
    made of its question restated (a wrong name fits a restated question as well as the right one)."""
    why = f"the answer {task.claim.text!r} is stated in none of the {len(task.candidates)} evidence windows"
    why = f"{why} (the verifier alone: {result.label.value}; {result.reason})" if result.reason else why
    return CheckResult(Judgement.INSUFFICIENT, why, None, (), 1.0, result.extra)


def _verdict(label: Judgement, similarity: float, threshold: float) -> tuple[Verdict, str]:
    if label is Judgement.CONTRADICT:
        return Verdict.CONTRADICTED, "tier 2 CONTRADICT"
    if label is not Judgement.SUPPORT:
        return Verdict.UNVERIFIED, f"tier 2 {label.value}"
    if similarity >= threshold:
        return (
            Verdict.VERIFIED,
            f"tier 2 SUPPORT and similarity {similarity:.2f} >= threshold {threshold:.2f}",
        )
    return Verdict.UNVERIFIED, f"tier 2 SUPPORT but similarity {similarity:.2f} < threshold {threshold:.2f}"


def _evidence(rests_on: Evidence | None, candidates: Sequence[Evidence]) -> tuple[Evidence, ...]:
    """The window the verdict rests on first, then the other candidates, each span once."""
    ordered = ([rests_on] if rests_on is not None else []) + list(candidates)
    seen: dict[tuple[str, int, int], Evidence] = {}
    for ev in ordered:
        seen.setdefault((ev.doc_id, ev.start, ev.end), ev)
    return tuple(seen.values())


def _unit(value: float, *, default: float) -> float:
    return min(1.0, max(0.0, value)) if math.isfinite(value) else default


def verify_many(
    tasks: Sequence[ClaimTask], *, checker: VerdictComponent, decision: Decision | None = None
) -> list[CheckedClaim]:
    """Tier 2 for all tasks in one `judge_many` call, then both tiers combined per claim."""
    if not tasks:
        return []
    results = checker.judge_many([(t.claim, t.candidates) for t in tasks])
    if len(results) != len(tasks):
        raise BackendError(
            f"verdict component {checker.name!r} gave {len(results)} results for {len(tasks)} claims"
        )
    return [
        combine(task, result, verifier=checker.name, decision=decision)
        for task, result in zip(tasks, results, strict=True)
    ]

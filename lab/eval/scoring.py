"""From outcomes to metrics: detection, spans, claims, stance, correction and cost.

Every system (woodpecker and each baseline) is scored by the same functions on the same items:
those the pipeline processed without error.

Usage::

    metrics = woodpecker_metrics(run)
    baseline = system_metrics(run.outcomes, no_correction())
"""

from __future__ import annotations

import difflib
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from lab.eval.baselines import System, woodpecker_system
from lab.eval.citations import citation_metrics
from lab.eval.datasets import Kind, Span
from lab.eval.metrics import (
    binary_scores,
    confusion,
    histogram,
    lev_similarity,
    mean,
    multiclass_scores,
    percentile,
    preservation,
    share,
    span_scores,
    token_f1,
)
from lab.eval.runner import Outcome, Run
from workers.messages import Action, ClaimResult, Corrected, Verdict
from workers.settings import CorrectionSettings

__all__ = [
    "STANCES",
    "correction_metrics",
    "cost_metrics",
    "detection",
    "span_detection",
    "stance_metrics",
    "stance_of",
    "system_metrics",
    "woodpecker_metrics",
]

STANCES = ("completely-support", "partially-support", "refute", "irrelevant")
_DROPPED = frozenset({Action.REMOVE, Action.FLAG})
# What a flag adds to a claim under the default flag format ("{text} [unverified]"): stripped before
# edits are compared with the correct version, so a flag is neither toward nor away.
_FLAG_MARK = CorrectionSettings().flag_format.replace("{text}", "")


def detection(
    outcomes: Sequence[Outcome], system: System, *, kind: Kind, lenient: bool = False
) -> dict[str, Any]:
    """Binary detection scores on the items of `kind` with gold and a prediction (positive = hallucinated)."""
    gold: list[bool] = []
    pred: list[bool] = []
    for o in outcomes:
        truth = o.item.hallucinated_lenient if lenient else o.item.hallucinated
        guess = system.predict(o) if o.ok and o.item.kind == kind else None
        if truth is not None and guess is not None:
            gold.append(truth)
            pred.append(guess)
    return binary_scores(confusion(gold=gold, pred=pred))


def span_detection(
    outcomes: Sequence[Outcome], system: System, *, lenient: bool = False
) -> dict[str, Any] | None:
    """Character-overlap scores of the blamed spans against the annotated ones; None without spans."""
    if system.spans is None:
        return None
    pairs: list[tuple[tuple[Span, ...], tuple[Span, ...]]] = []
    for o in outcomes:
        gold = o.item.spans_lenient if lenient else o.item.spans
        blamed = system.spans(o) if o.ok and gold is not None else None
        if gold is not None and blamed is not None:
            pairs.append((gold, blamed))
    return span_scores(pairs) if pairs else None


def _claim_scores(outcomes: Sequence[Outcome], system: System) -> dict[str, Any]:
    """Claim items: positive = a false claim, so `false_f1` is the F1 of the false class."""
    scores = detection(outcomes, system, kind="claim")
    return {
        "accuracy": scores["accuracy"],
        "false_f1": scores["f1"],
        "false_precision": scores["precision"],
        "false_recall": scores["recall"],
        "balanced_accuracy": scores["balanced_accuracy"],
        **{k: scores[k] for k in ("n", "tp", "fp", "fn", "tn")},
    }


def system_metrics(outcomes: Sequence[Outcome], system: System) -> dict[str, Any]:
    """All detection metrics the data supports for one system."""
    out: dict[str, Any] = {"response": detection(outcomes, system, kind="response")}
    if any(o.item.hallucinated_lenient is not None for o in outcomes):
        out["response_lenient"] = detection(outcomes, system, kind="response", lenient=True)
    for key, lenient in (("span", False), ("span_lenient", True)):
        spans = span_detection(outcomes, system, lenient=lenient)
        if spans is not None:
            out[key] = spans
    if any(o.item.kind == "claim" and o.item.hallucinated is not None for o in outcomes):
        out["claim"] = _claim_scores(outcomes, system)
    return out


def woodpecker_metrics(run: Run) -> dict[str, Any]:
    outcomes = run.outcomes
    metrics = system_metrics(outcomes, woodpecker_system())
    metrics["response_strict"] = detection(outcomes, woodpecker_system(strict=True), kind="response")
    stance = stance_metrics(outcomes)
    if stance is not None:
        metrics["stance"] = stance
    metrics["correction"] = correction_metrics(outcomes)
    metrics["cost"] = cost_metrics(outcomes)
    return metrics


# ---- stance (Factcheck-GPT subtask 3) ---------------------------------------------------------------


def stance_of(corrected: Corrected) -> str:
    """4-way stance from the claims' verdicts: any contradiction refutes; all verified fully supports."""
    verdicts = [c.verdict for c in corrected.claims]
    if Verdict.CONTRADICTED in verdicts:
        return "refute"
    if verdicts and all(v is Verdict.VERIFIED for v in verdicts):
        return "completely-support"
    return "partially-support" if Verdict.VERIFIED in verdicts else "irrelevant"


def stance_metrics(outcomes: Sequence[Outcome]) -> dict[str, Any] | None:
    pairs = [
        (o.item.stance, stance_of(o.corrected))
        for o in outcomes
        if o.item.kind == "stance" and o.item.stance in STANCES and o.corrected is not None
    ]
    if not pairs:
        return None
    return multiclass_scores(gold=[str(g) for g, _ in pairs], pred=[p for _, p in pairs], labels=STANCES)


# ---- correction -------------------------------------------------------------------------------------


def correction_metrics(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    rows = [o for o in outcomes if o.item.kind == "response" and o.corrected is not None]
    done = [o.corrected for o in rows if o.corrected is not None]
    changed = [c for c in done if c.corrected != c.original]
    before, after, asserted = _claim_accuracy(rows)
    cited, cited_ok = _citations(rows)
    return {
        "claim_accuracy_before": share(sum(before), len(before)),
        "claim_accuracy_after": share(sum(after), len(after)),
        "labelled_claims": len(before),
        "asserted_share_after": share(asserted, len(before)),
        "citation_precision": share(cited_ok, cited),
        "cited_spans": cited,
        "correction_rate": share(len(changed), len(done)),
        "preservation": mean(preservation(c.original, c.corrected) for c in done),
        "preservation_changed": mean(preservation(c.original, c.corrected) for c in changed),
        "needs_review_rate": share(sum(c.needs_review for c in done), len(done)),
        "verified_share_before": _verified_share(done),
        "verified_share_after": _verified_share([_final(o) for o in rows]),
        "actions": _action_counts(done),
        **_revision(rows),
        **edit_metrics(rows),
        # The answer's own inline citations, checked and repaired by the citation stage.
        **citation_metrics((o.corrected, _final(o)) for o in rows),
    }


def edit_metrics(rows: Sequence[Outcome]) -> dict[str, Any]:
    """Does correction leave correct answers alone, and move wrong ones toward their correct version?

    - `correct_kept_verbatim`: correct answers (gold) returned exactly as they came; `correct_unedited`:
      the same with flags allowed (nothing replaced or removed).
    - `edits_toward` / `edits_away`: wrong answers with a gold correct version (a revision, or the right
      answer) whose edits, flags ignored, moved the text closer to / further from it; where the gold is
      spans (FaithBench), each replaced or removed claim: toward when it touches a hallucinated span.
    """
    correct = [o.corrected for o in rows if o.item.hallucinated is False and o.corrected is not None]
    toward = away = 0
    for o in rows:
        if o.item.hallucinated is not True or o.corrected is None:
            continue
        t, a = _edit_direction(o)
        toward, away = toward + t, away + a
    return {
        "correct_answers": len(correct),
        "correct_kept_verbatim": share(sum(c.corrected == c.original for c in correct), len(correct)),
        "correct_unedited": share(sum(not _edited(c) for c in correct), len(correct)),
        "edits_toward": toward,
        "edits_away": away,
    }


def _edited(record: Corrected) -> bool:
    return any(c.action in (Action.REPLACE, Action.REMOVE) for c in record.claims)


def _unflagged(text: str) -> str:
    marker = _FLAG_MARK
    return text.replace(marker, "") if marker else text


def _edit_direction(o: Outcome) -> tuple[int, int]:
    record = o.corrected
    if record is None or not _edited(record):
        return 0, 0
    if o.item.revised:
        gold = str(o.item.revised)
        before = lev_similarity(record.original, gold)
        after = lev_similarity(_unflagged(record.corrected), gold)
        return int(after > before), int(after < before)
    if o.item.regions:
        edits = [c for c in record.claims if c.action in (Action.REPLACE, Action.REMOVE)]
        hits = sum(o.item.claim_gold(c.start, c.end) is False for c in edits)
        return hits, len(edits) - hits
    return 0, 0


def _claim_accuracy(rows: Sequence[Outcome]) -> tuple[list[bool], list[bool], int]:
    """Gold support of each labelled claim before, and of those still asserted after, correction.

    After: a kept claim keeps its gold label; a removed or flagged one is no longer asserted as fact
    and leaves the count; a replaced one is supported when the second pass verifies its new text.
    """
    before: list[bool] = []
    after: list[bool] = []
    asserted = 0
    for o in rows:
        for claim in o.corrected.claims if o.corrected else ():
            gold = o.item.claim_gold(claim.start, claim.end)
            if gold is None:
                continue
            before.append(gold)
            asserted += claim.action not in _DROPPED
            fate = _after(o, claim, gold)
            if fate is not None:
                after.append(fate)
    return before, after, asserted


def _after(o: Outcome, claim: ClaimResult, gold: bool) -> bool | None:
    if claim.action is Action.KEEP:
        return gold
    if claim.action in _DROPPED or o.corrected is None or o.recheck is None:
        return None
    start, end = map_span(o.corrected.original, o.corrected.corrected, claim.start, claim.end)
    touching = [c for c in o.recheck.claims if c.start < end and start < c.end]
    return all(c.verdict is Verdict.VERIFIED for c in touching) if touching else None


def map_span(original: str, corrected: str, start: int, end: int) -> Span:
    """Where `original[start:end]` went in `corrected`, through a character diff."""
    ops = difflib.SequenceMatcher(None, original, corrected, autojunk=False).get_opcodes()
    new_start = next(
        (j1 + (start - i1) if tag == "equal" else j1 for tag, i1, i2, j1, _ in ops if i1 <= start < i2),
        len(corrected),
    )
    new_end = next(
        (j1 + (end - i1) if tag == "equal" else j2 for tag, i1, i2, j1, j2 in ops if i1 < end <= i2),
        new_start,
    )
    return new_start, max(new_start, new_end)


def _citations(rows: Sequence[Outcome]) -> tuple[int, int]:
    """Evidence spans cited for VERIFIED claims with a gold label, and those whose claim is gold-supported."""
    cited = correct = 0
    for o in rows:
        for claim in o.corrected.claims if o.corrected else ():
            gold = o.item.claim_gold(claim.start, claim.end)
            if claim.verdict is Verdict.VERIFIED and gold is not None:
                cited += len(claim.evidence)
                correct += len(claim.evidence) if gold else 0
    return cited, correct


def _final(o: Outcome) -> Corrected | None:
    """The record describing the corrected text: the second pass if the text changed, else the first."""
    if o.corrected is not None and o.corrected.corrected == o.corrected.original:
        return o.corrected
    return o.recheck


def _verified_share(records: Sequence[Corrected | None]) -> float | None:
    claims = [c for r in records if r is not None for c in r.claims]
    return share(sum(c.verdict is Verdict.VERIFIED for c in claims), len(claims))


def _action_counts(done: Sequence[Corrected]) -> dict[str, int]:
    counts = {a.value: 0 for a in Action}
    for record in done:
        for claim in record.claims:
            counts[claim.action.value] += 1
    return counts


def _revision(rows: Sequence[Outcome]) -> dict[str, Any]:
    """Similarity to the gold revision, of the original (before) and of woodpecker's correction (after)."""
    pairs = [(o.corrected, o.item.revised) for o in rows if o.corrected is not None and o.item.revised]
    if not pairs:
        return {}
    return {
        "revision_similarity": {
            "lev_before": mean(lev_similarity(c.original, str(g)) for c, g in pairs),
            "lev_after": mean(lev_similarity(c.corrected, str(g)) for c, g in pairs),
            "token_f1_before": mean(token_f1(c.original, str(g)) for c, g in pairs),
            "token_f1_after": mean(token_f1(c.corrected, str(g)) for c, g in pairs),
            "n": len(pairs),
        }
    }


# ---- cost ---------------------------------------------------------------------------------------------


def cost_metrics(outcomes: Sequence[Outcome]) -> dict[str, Any]:
    """Latency of the first pass per answer (all kinds), per stage, throughput, and LLM use per answer."""
    done = [o for o in outcomes if o.corrected is not None]
    wall = [o.wall_ms for o in done]
    stages: dict[str, list[float]] = defaultdict(list)
    for o in done:
        for stage, ms in (o.corrected.stats.stage_ms if o.corrected else {}).items():
            stages[stage].append(ms)
    stats = [o.corrected.stats for o in done if o.corrected is not None]
    return {
        "p50_ms": percentile(wall, 50),
        "p95_ms": percentile(wall, 95),
        "mean_ms": mean(wall),
        "answers_per_s": share(len(done), sum(wall) / 1000.0),
        "answers": len(done),
        "stages": {
            s: {"p50_ms": percentile(v, 50), "p95_ms": percentile(v, 95)} for s, v in sorted(stages.items())
        },
        "llm_calls_per_answer": mean(s.llm_calls for s in stats),
        "tokens_in_per_answer": mean(s.tokens_in for s in stats),
        "tokens_out_per_answer": mean(s.tokens_out for s in stats),
        "cost_usd_per_answer": mean(s.cost_usd for s in stats),
        "latency_histogram": histogram(wall),
    }

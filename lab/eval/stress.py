"""Correction under controlled errors: one value of a correct answer changed, then corrected.

A benchmark's gold edits are few (HaluEval-QA `train` gives 22, FaithBench's 2), too few to show a
rule that gives one holder's value to another. Here every sentence of every correct answer of a split
is changed once per kind (a figure, a date, a name from the same documents, an added "not";
`lab.training.perturb`) and the changed answer goes through the pipeline. The correct text is then
known exactly, so each edit is scored against it:

- `restored`: the corrected answer, flags left out, is the original;
- `toward` / `away`: edits moved it closer to / further from the original (Levenshtein similarity);
  a REMOVE of the changed sentence counts `away`, though it is what REMOVE is for; `same`: neither;
- `flagged`: nothing edited and the changed sentence flagged; `held`: not flagged in the text but
  UNVERIFIED or CONTRADICTED in an answer sent to human review (the over-correction guard holds an
  answer's flags back when they are too many); `missed`: none of these (verified);
  `no_claim`: none of these, and the original sentence gave no claim either ("Here is a concise
  summary:" made "Here is not a concise summary:"): procedural text is not checked, so nothing is missed;
- the unchanged answers: `verbatim` or not.

Read only `train` or `valid`: the changes reuse those splits' own names and figures.

Usage::

    python -m lab.eval.stress --dataset faithbench --data ../shared/data/faithbench --split train \\
        --out bench/results/stress-faithbench-train.json
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.eval.adapters import load_dataset
from lab.eval.datasets import EvalItem, select
from lab.eval.metrics import lev_similarity
from lab.eval.runner import Processor
from lab.eval.scoring import _unflagged
from lab.training import perturb
from workers.messages import Action, Corrected, Verdict
from workers.stages.extract import split_sentences

__all__ = ["KINDS", "Variant", "outcome", "run", "summary", "variants"]

KINDS = ("number", "date", "entity", "negation")


@dataclass(frozen=True, slots=True)
class Variant:
    """A correct answer with the sentence at [start, end) replaced by `changed` (kind "original": as is)."""

    item: EvalItem
    kind: str
    start: int = 0
    end: int = 0
    changed: str = ""

    @property
    def text(self) -> str:
        original = self.item.answer.answer
        return (
            original
            if self.kind == "original"
            else original[: self.start] + self.changed + original[self.end :]
        )


def variants(items: Sequence[EvalItem], *, seed: int = 0) -> list[Variant]:
    """Each correct response as it is, then once per sentence and kind that applies, changed."""
    correct = [it for it in items if it.kind == "response" and it.hallucinated is False]
    rng, others = random.Random(seed), _names(correct)
    out: list[Variant] = []
    for it in correct:
        pool = perturb.EntityPool(local=_names([it]), others=others)
        out.append(Variant(it, "original"))
        text = it.answer.answer
        for start, end in split_sentences(text):
            for kind in KINDS:
                changed = perturb.KINDS[kind](text[start:end], rng, pool)
                if changed and changed != text[start:end]:
                    out.append(Variant(it, kind, start, end, changed))
    return out


def _names(items: Sequence[EvalItem]) -> dict[str, list[str]]:
    found: dict[str, set[str]] = {}
    for it in items:
        for doc in it.answer.documents:
            for kind, slot in perturb.entity_slots(doc.text):
                found.setdefault(kind, set()).add(slot.text)
    return {k: sorted(v) for k, v in found.items()}


def outcome(variant: Variant, corrected: Corrected, *, claimed: bool = True) -> str:
    """What correction did with the variant (see the module's list); `claimed`: whether the original
    answer had a claim in the changed sentence."""
    if variant.kind == "original":
        return "verbatim" if corrected.corrected == corrected.original else "changed"
    original, changed = variant.item.answer.answer, variant.text
    if any(c.action in (Action.REPLACE, Action.REMOVE) for c in corrected.claims):
        fixed = _unflagged(corrected.corrected)
        if fixed == original:
            return "restored"
        before, after = lev_similarity(changed, original), lev_similarity(fixed, original)
        return "toward" if after > before else "away" if after < before else "same"
    lo, hi = variant.start, variant.start + len(variant.changed)
    touched = [c for c in corrected.claims if c.start < hi and lo < c.end]
    if any(c.action is Action.FLAG for c in touched):
        return "flagged"
    held = corrected.needs_review and any(c.verdict is not Verdict.VERIFIED for c in touched)
    return "held" if held else "missed" if claimed else "no_claim"


def _claimed(variant: Variant, spans: Sequence[tuple[int, int]]) -> bool:
    return any(start < variant.end and variant.start < end for start, end in spans)


def run(chosen: Sequence[Variant], pipeline: Processor) -> list[dict[str, Any]]:
    """One row per variant: its kind, outcome, the changed sentence and the edits made."""
    rows = []
    spans: dict[str, list[tuple[int, int]]] = {}  # each original's claims, which comes before its variants
    for i, v in enumerate(chosen):
        answer = v.item.answer.model_copy(update={"answer": v.text, "id": f"{v.item.answer.id}~{i}"})
        corrected = pipeline.process(answer)
        if v.kind == "original":
            spans[v.item.answer.id] = [(c.start, c.end) for c in corrected.claims]
        claimed = v.kind == "original" or _claimed(v, spans.get(v.item.answer.id, [(0, len(v.text))]))
        edits = [
            {"claim": c.text, "action": c.action.value, "replacement": c.replacement, "reason": c.reason}
            for c in corrected.claims
            if c.action in (Action.REPLACE, Action.REMOVE)
        ]
        rows.append(
            {
                "id": answer.id,
                "kind": v.kind,
                "outcome": outcome(v, corrected, claimed=claimed),
                "changed": v.changed,
                "edits": edits,
            }
        )
    return rows


def summary(rows: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Outcome counts per kind, and the edits toward (restored included) against away over all kinds
    (`same` is left out of both)."""
    by_kind = {k: dict(Counter(r["outcome"] for r in rows if r["kind"] == k)) for k in ("original", *KINDS)}
    changed = Counter(r["outcome"] for r in rows if r["kind"] != "original")
    return {
        "by_kind": by_kind,
        "edits_toward": changed["restored"] + changed["toward"],
        "edits_away": changed["away"],
        "flagged": changed["flagged"],
        "held": changed["held"],
        "missed": changed["missed"],
        "no_claim": changed["no_claim"],
        "originals_verbatim": by_kind["original"].get("verbatim", 0),
        "originals": sum(by_kind["original"].values()),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", required=True)
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--split", choices=("train", "valid"), default="train")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    from lab.eval.command import build_eval_pipeline, eval_settings

    chosen = variants(select(load_dataset(args.dataset, args.data), split=args.split), seed=args.seed)
    rows = run(chosen, build_eval_pipeline(eval_settings()))
    report = {"dataset": args.dataset, "split": args.split, "seed": args.seed, **summary(rows), "rows": rows}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1), encoding="utf-8")
    print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

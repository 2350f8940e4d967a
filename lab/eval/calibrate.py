"""Per-domain calibration of the tier-1 similarity threshold: fitted on the dev split, reported on test.

Each labelled item runs through the pipeline once, up to verification (route, extract, decompose,
retrieve, verify; no correction), and every claim keeps its tier-1 similarity, its tier-2 judgement
and its claim type. A claim's verdict at any threshold follows from those three exactly as
`workers.stages.verify` combines them, so the sweep re-scores the stored claims instead of running
the pipeline again. A claim type listed in `settings.thresholds.by_claim_type` keeps its own
threshold, as in production, where the claim type beats the domain.

Per domain (the `domain` the adapters give each dataset's answers) the sweep takes every threshold
0.00, 0.01, ..., 1.00 and scores the dev items (responses and single claims alike, one answer each;
positive = hallucinated) under the response rule `contradicted_or_unverified` (what
`metrics.response` counts). The threshold with the best dev balanced accuracy is chosen (a tie goes
to the one nearest the global default). The rule `contradicted_only` does not depend on the
threshold; its dev and test scores are reported beside, so the better rule is visible, never chosen
silently. The test split is then scored at the default and at the chosen threshold: that is the
honest figure. Nothing is fitted on test. `gates_like_one` marks a domain whose chosen threshold does
no better on dev than 1.0 (nothing VERIFIED, every claim flagged): such a threshold rewards flagging
on that data and says little about the similarity tier.

Usage::

    python -m lab.eval.calibrate --data ../shared/data --out bench/results/calibration.json \\
        --records bench/results/calibration-records.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

import orjson
from tqdm import tqdm

from lab.eval.adapters import load_dataset
from lab.eval.datasets import DatasetError, EvalItem, Kind, Split, select
from lab.eval.metrics import binary_scores, confusion, share
from lab.eval.report import write_json
from workers.errors import ConfigError, WoodpeckerError
from workers.messages import Answer, Checked, CheckedClaim, ClaimTask, Judgement, Verdict
from workers.settings import Settings

__all__ = [
    "RULES",
    "ClaimJudge",
    "ClaimRecord",
    "ItemRecord",
    "PipelineJudge",
    "Rule",
    "calibrate",
    "choose",
    "main",
    "predict",
    "record_items",
    "scores",
    "sweep",
    "verdict_at",
]

Rule = Literal["contradicted_or_unverified", "contradicted_only"]
RULES: tuple[Rule, ...] = ("contradicted_or_unverified", "contradicted_only")
GRID = tuple(round(i / 100, 2) for i in range(101))
DATASETS = ("faithbench", "factcheck-gpt", "halueval-qa")
_BAD: dict[Rule, frozenset[Verdict]] = {
    "contradicted_or_unverified": frozenset({Verdict.CONTRADICTED, Verdict.UNVERIFIED}),
    "contradicted_only": frozenset({Verdict.CONTRADICTED}),
}
_KEPT = ("precision", "recall", "f1", "balanced_accuracy", "accuracy", "n", "tp", "fp", "fn", "tn")


# ---- records ----------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClaimRecord:
    """What a claim's verdict depends on: tier-1 similarity, tier-2 judgement and claim type."""

    similarity: float
    judgement: Judgement
    claim_type: str = "general"
    text: str = ""
    reason: str = ""


@dataclass(frozen=True)
class ItemRecord:
    """One labelled answer after verification: its gold label and its claims."""

    id: str
    kind: Kind
    domain: str
    hallucinated: bool
    claims: tuple[ClaimRecord, ...]

    def to_dict(self) -> dict[str, Any]:
        claims = [
            {"text": c.text, "similarity": c.similarity, "judgement": c.judgement.value,
             "claim_type": c.claim_type, "reason": c.reason}
            for c in self.claims
        ]  # fmt: skip
        return {"id": self.id, "kind": self.kind, "domain": self.domain,
                "hallucinated": self.hallucinated, "claims": claims}  # fmt: skip


class ClaimJudge(Protocol):
    """The claims of one answer with their verdicts (citation checks left out)."""

    def checked(self, answer: Answer) -> list[CheckedClaim]: ...


class _Stepwise(Protocol):
    def prepare(self, answer: Answer) -> Any: ...

    def verify(self, tasks: Sequence[ClaimTask]) -> Checked: ...


class PipelineJudge:
    """A `Pipeline` run up to verification: route, extract, decompose, retrieve, verify."""

    def __init__(self, pipeline: _Stepwise) -> None:
        self._pipeline = pipeline

    def checked(self, answer: Answer) -> list[CheckedClaim]:
        from workers.stages.cite import split_checked

        claims, _citations = split_checked(self._pipeline.verify(self._pipeline.prepare(answer).tasks).claims)
        return claims


def record_items(
    items: Sequence[EvalItem], judge: ClaimJudge, *, progress: bool = False
) -> tuple[list[ItemRecord], list[str]]:
    """The labelled items judged once each; an item the pipeline rejects is listed as an error."""
    labelled = [it for it in items if it.hallucinated is not None]
    bar = tqdm(labelled, desc="calibrate", unit="answer", file=sys.stderr, disable=not progress)
    records: list[ItemRecord] = []
    errors: list[str] = []
    for item in bar:
        try:
            checked = judge.checked(item.answer)
        except WoodpeckerError as exc:
            errors.append(f"{item.answer.id}: {type(exc).__name__}: {exc}")
            continue
        records.append(_record(item, checked))
    return records, errors


def _record(item: EvalItem, checked: Sequence[CheckedClaim]) -> ItemRecord:
    claims = tuple(
        ClaimRecord(c.similarity, c.judgement, c.claim.claim_type, c.claim.text, c.reason) for c in checked
    )
    return ItemRecord(item.answer.id, item.kind, item.answer.domain or "", bool(item.hallucinated), claims)


# ---- verdicts at a threshold ----------------------------------------------------------------------


def verdict_at(claim: ClaimRecord, threshold: float) -> Verdict:
    """The verdict `stages.verify.combine` gives this claim at `threshold`."""
    if claim.judgement is Judgement.CONTRADICT:
        return Verdict.CONTRADICTED
    if claim.judgement is Judgement.SUPPORT and claim.similarity >= threshold:
        return Verdict.VERIFIED
    return Verdict.UNVERIFIED


def predict(record: ItemRecord, *, threshold: float, rule: Rule, by_claim_type: Mapping[str, float]) -> bool:
    """Hallucinated at this domain threshold under `rule`; listed claim types keep their own threshold."""
    bad = _BAD[rule]
    return any(verdict_at(c, by_claim_type.get(c.claim_type, threshold)) in bad for c in record.claims)


def scores(
    records: Sequence[ItemRecord], *, threshold: float, rule: Rule, by_claim_type: Mapping[str, float]
) -> dict[str, Any]:
    """Detection scores (positive = hallucinated) of the records at one threshold, and the share flagged."""
    pred = [predict(r, threshold=threshold, rule=rule, by_claim_type=by_claim_type) for r in records]
    result = binary_scores(confusion(gold=[r.hallucinated for r in records], pred=pred))
    return {k: result[k] for k in _KEPT} | {"flagged_share": share(sum(pred), len(pred))}


def sweep(
    records: Sequence[ItemRecord], *, by_claim_type: Mapping[str, float], grid: Iterable[float] = GRID
) -> list[dict[str, Any]]:
    """The `contradicted_or_unverified` scores at every threshold of `grid`."""
    return [
        {"threshold": t}
        | scores(records, threshold=t, rule="contradicted_or_unverified", by_claim_type=by_claim_type)
        for t in grid
    ]


def choose(rows: Sequence[Mapping[str, Any]], *, default: float) -> float:
    """The threshold of best balanced accuracy; a tie goes to the one nearest `default`."""
    if not rows:
        return default
    best = max(rows, key=lambda r: (round(float(r["balanced_accuracy"]), 9), -abs(r["threshold"] - default)))
    return float(best["threshold"])


# ---- one domain ---------------------------------------------------------------------------------


def calibrate(
    dev: Sequence[ItemRecord],
    test: Sequence[ItemRecord] | None,
    *,
    default: float,
    current: float,
    by_claim_type: Mapping[str, float],
) -> dict[str, Any]:
    """One domain: the sweep on dev, the chosen threshold, and both rules on dev and test."""
    rows = sweep(dev, by_claim_type=by_claim_type)
    chosen = choose(rows, default=default)
    points = {"default": default, "current": current, "chosen": chosen}
    out: dict[str, Any] = {
        "chosen_threshold": chosen,
        "default_threshold": default,
        "current_threshold": current,
        "dev": _at(dev, points, by_claim_type),
        "dev_by_kind": _by_kind(dev, chosen, by_claim_type),
        "claims": _claim_counts(dev, by_claim_type),
        "gates_like_one": _gates_like_one(rows, chosen),
        "sweep": rows,
    }
    if test is not None:
        out["test"] = _at(test, points, by_claim_type)
        out["test_by_kind"] = _by_kind(test, chosen, by_claim_type)
        out["helps_on_test"] = _helps(out["test"])
    return out


def _at(
    records: Sequence[ItemRecord], points: Mapping[str, float], by_claim_type: Mapping[str, float]
) -> dict[str, Any]:
    """Both rules at the named thresholds (contradicted-only does not depend on it: scored once)."""
    out: dict[str, Any] = {
        f"{name}:contradicted_or_unverified": scores(
            records, threshold=t, rule="contradicted_or_unverified", by_claim_type=by_claim_type
        )
        for name, t in points.items()
    }
    out["contradicted_only"] = scores(
        records, threshold=points["default"], rule="contradicted_only", by_claim_type=by_claim_type
    )
    return out


def _by_kind(
    records: Sequence[ItemRecord], threshold: float, by_claim_type: Mapping[str, float]
) -> dict[str, Any]:
    kinds = sorted({r.kind for r in records})
    return {
        kind: {
            rule: scores([r for r in records if r.kind == kind], threshold=threshold, rule=rule,
                         by_claim_type=by_claim_type)
            for rule in RULES
        }
        for kind in kinds
    }  # fmt: skip


def _claim_counts(records: Sequence[ItemRecord], by_claim_type: Mapping[str, float]) -> dict[str, Any]:
    """How the claims were judged, and how many a domain threshold can move (SUPPORT, type not listed)."""
    claims = [c for r in records for c in r.claims]
    movable = [c for c in claims if c.judgement is Judgement.SUPPORT and c.claim_type not in by_claim_type]
    judged = {j.value: sum(c.judgement is j for c in claims) for j in Judgement}
    return {
        "n": len(claims),
        "judgements": judged,
        "support_with_domain_threshold": len(movable),
        "own_type_threshold": sum(c.claim_type in by_claim_type for c in claims),
        "items_without_claims": sum(not r.claims for r in records),
    }


def _gates_like_one(rows: Sequence[Mapping[str, Any]], chosen: float) -> bool:
    """Whether the chosen threshold scores no better on dev than 1.0, where no claim is VERIFIED and
    the detector only counts claims: then the data rewards flagging, not the similarity tier."""
    by_t = {float(r["threshold"]): float(r["balanced_accuracy"]) for r in rows}
    return 1.0 in by_t and by_t[chosen] <= by_t[1.0] + 1e-9


def _helps(test: Mapping[str, Any]) -> bool:
    key = "balanced_accuracy"
    chosen = test["chosen:contradicted_or_unverified"][key]
    return bool(chosen > test["default:contradicted_or_unverified"][key])


# ---- command ----------------------------------------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lab.eval.calibrate", description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, default=Path("../shared/data"), help="folder of the datasets")
    parser.add_argument("--out", type=Path, default=Path("bench/results/calibration.json"))
    parser.add_argument("--datasets", default=",".join(DATASETS), help="comma-separated names")
    parser.add_argument("--limit", type=int, default=None, help="at most N items of each kind per split")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-test", action="store_true", help="do not score the test split")
    parser.add_argument("--backend", choices=("local", "openai"), default="local")
    parser.add_argument("--records", type=Path, default=None, help="also write every judged item (JSONL)")
    return parser


def main(argv: Sequence[str] | None = None, *, judge: ClaimJudge | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        settings = _settings(args.backend)
        judge = judge or _judge(settings)
        runs: dict[str, tuple[list[ItemRecord], list[str]]] = {
            split: _judged(args, judge, split) for split in _splits(args)
        }
    except (DatasetError, ConfigError) as exc:
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    result = _result(args, settings, runs)
    write_json(result, args.out)
    if args.records is not None:
        _write_records(args.records, [r for split in runs.values() for r in split[0]])
    print(_table(result))
    return 0


def _splits(args: argparse.Namespace) -> tuple[Split, ...]:
    return ("dev",) if args.no_test else ("dev", "test")


def _settings(backend: str) -> Settings:
    from lab.eval.command import eval_settings

    return eval_settings(backend)


def _judge(settings: Settings) -> ClaimJudge:
    from workers.pipeline import build_pipeline

    return PipelineJudge(build_pipeline(settings))


def _judged(args: argparse.Namespace, judge: ClaimJudge, split: Split) -> tuple[list[ItemRecord], list[str]]:
    records: list[ItemRecord] = []
    errors: list[str] = []
    for name in (n.strip() for n in args.datasets.split(",") if n.strip()):
        folder = args.data / name
        items = select(load_dataset(name, folder), split=split, limit=args.limit, seed=args.seed)
        found, failed = record_items(items, judge, progress=True)
        records += found
        errors += failed
    return records, errors


def _result(
    args: argparse.Namespace, settings: Settings, runs: Mapping[str, tuple[list[ItemRecord], list[str]]]
) -> dict[str, Any]:
    thresholds = settings.thresholds
    dev = runs["dev"][0]
    test = runs["test"][0] if "test" in runs else None
    domains = sorted({r.domain for r in dev if r.domain})
    per_domain = {
        d: calibrate(
            [r for r in dev if r.domain == d],
            None if test is None else [r for r in test if r.domain == d],
            default=thresholds.default,
            current=settings.threshold_for(domain=d),
            by_claim_type=thresholds.by_claim_type,
        )
        for d in domains
    }
    return _meta(args, settings, runs) | {
        "domains": per_domain,
        "by_domain": {d: r["chosen_threshold"] for d, r in per_domain.items()},
    }


def _meta(
    args: argparse.Namespace, settings: Settings, runs: Mapping[str, tuple[list[ItemRecord], list[str]]]
) -> dict[str, Any]:
    return {
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "data": str(args.data),
        "datasets": args.datasets.split(","),
        "limit": args.limit,
        "seed": args.seed,
        "backend": args.backend,
        "objective": "balanced accuracy on dev, rule contradicted_or_unverified; tie: nearest the default",
        "grid": [GRID[0], GRID[-1], 0.01],
        "by_claim_type": dict(settings.thresholds.by_claim_type),
        "items": {split: len(records) for split, (records, _) in runs.items()},
        "errors": {split: errors[:20] for split, (_, errors) in runs.items()},
    }


def _write_records(path: Path, records: Iterable[ItemRecord]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"".join(orjson.dumps(r.to_dict()) + b"\n" for r in records))


def _table(result: Mapping[str, Any]) -> str:
    """One line per domain, split and operating point: balanced accuracy, F1 and the share flagged."""
    lines = [f"{'domain':<14} {'split':<5} {'point':<36} {'thr':>5} {'BA':>6} {'F1':>6} {'flag':>6} {'n':>5}"]
    for domain, r in result["domains"].items():
        for split in ("dev", "test"):
            for point, s in r.get(split, {}).items():
                name, _, _rule = point.partition(":")
                thr = "-" if point == "contradicted_only" else f"{r[f'{name}_threshold']:.2f}"
                lines.append(
                    f"{domain:<14} {split:<5} {point:<36} {thr:>5} {_f(s['balanced_accuracy'])} "
                    f"{_f(s['f1'])} {_f(s['flagged_share'])} {s['n']:>5}"
                )
    return "\n".join(lines)


def _f(value: float | None) -> str:
    return "     -" if value is None else f"{value:>6.3f}"


if __name__ == "__main__":
    sys.exit(main())

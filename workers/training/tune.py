"""Choose the trained verifier's support threshold and agreement rule on FaithBench dev.

FaithBench may choose thresholds but never train (its licence). Every claim of every dev summary is
read once (tier-1 similarity, the rule checks, the model's best support probability); each setting of
the grid is then scored without rerunning anything, as `woodpecker eval` would score it: a summary is
hallucinated when any claim is not VERIFIED. The chosen setting is then scored on the test half and on
the dev halves of the other benchmarks, and everything goes into one JSON file.

Usage::

    python -m workers.training.tune --data ../shared/data --out bench/results/verifier/tuning.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
from tqdm import tqdm

from workers.eval.datasets import EvalItem, Split, load_dataset, select
from workers.messages import Judgement
from workers.pipeline import Pipeline

__all__ = ["ClaimRead", "main", "read_claims", "score"]

_MODES = ("model", "both", "either")
_GRID = tuple(round(x, 3) for x in np.arange(0.05, 0.951, 0.025))


@dataclass(frozen=True, slots=True)
class ClaimRead:
    """What each setting needs of one claim."""

    similarity: float
    threshold: float
    rule: Judgement
    rule_fix: bool
    p_support: float


def read_claims(
    items: Sequence[EvalItem], *, pipeline: Pipeline, progress: bool = True
) -> list[list[ClaimRead]]:
    """Per item, its claims' readings (an item without claims has none)."""
    from workers.backends.trained import TrainedChecker

    checker = pipeline.checker
    if not isinstance(checker, TrainedChecker):
        raise SystemExit("tune: the trained verifier is not loaded (no weights shipped?)")
    out: list[list[ClaimRead]] = []
    for item in tqdm(items, desc="tune", unit="answer", file=sys.stderr, disable=not progress):
        tasks = pipeline.prepare(item.answer).tasks
        judged = checker.judge_with_rules([(t.claim, t.candidates) for t in tasks])
        out.append(
            [
                ClaimRead(t.similarity, t.threshold, r.label, bool(r.fixes), j.extra.get("p_support", 0.0))
                for t, (j, r) in zip(tasks, judged, strict=True)
            ]
        )
    return out


def _verified(c: ClaimRead, support: float, mode: str) -> bool:
    if c.rule is Judgement.CONTRADICT and c.rule_fix:
        return False
    model = c.p_support >= support
    rule = c.rule is Judgement.SUPPORT
    agreed = {"model": model, "both": model and rule, "either": model or rule}[mode]
    return agreed and c.similarity >= c.threshold


def score(reads: Sequence[Sequence[ClaimRead]], gold: Sequence[bool], *, support: float, mode: str) -> float:
    """Balanced accuracy of "hallucinated" (any claim not VERIFIED) against `gold`."""
    pred = np.array([any(not _verified(c, support, mode) for c in claims) for claims in reads])
    truth = np.array(gold)
    tpr = (pred & truth).sum() / max(1, truth.sum())
    tnr = (~pred & ~truth).sum() / max(1, (~truth).sum())
    return round(float((tpr + tnr) / 2), 4)


def _settings_grid() -> Iterator[tuple[float, str]]:
    for mode in _MODES:
        for support in _GRID:
            yield support, mode


def _labelled(name: str, data: Path, split: Split, kind: str) -> list[EvalItem]:
    items = select(load_dataset(name, data), split=split)
    return [it for it in items if it.kind == kind and it.hallucinated is not None]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m workers.training.tune")
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--out", type=Path, default=Path("bench/results/verifier/tuning.json"))
    parser.add_argument("--write", action="store_true", help="store the choice in the shipped meta.json")
    parser.add_argument(
        "--no-checks",
        action="store_true",
        help="only choose; leave the scoring elsewhere to `woodpecker eval`",
    )
    args = parser.parse_args(argv)
    pipeline = _pipeline()
    dev = _labelled("faithbench", args.data / "faithbench", "dev", "response")
    reads = read_claims(dev, pipeline=pipeline)
    gold = [bool(it.hallucinated) for it in dev]
    grid = {f"{mode}@{s}": score(reads, gold, support=s, mode=mode) for s, mode in _settings_grid()}
    best = max(grid, key=lambda k: grid[k])
    mode, support = best.split("@")[0], float(best.split("@")[1])
    result: dict[str, Any] = {
        "chosen": {"mode": mode, "support_threshold": support},
        "faithbench_dev": grid[best],
    }
    for name, folder, split, kind in () if args.no_checks else _CHECKS:
        items = _labelled(name, args.data / folder, split, kind)
        got = read_claims(items, pipeline=pipeline)
        result[f"{name}_{split}_{kind}"] = score(
            got, [bool(i.hallucinated) for i in items], support=support, mode=mode
        )
    result["grid"] = grid
    if args.write:
        _store(mode, support)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "grid"}, indent=2))
    return 0


def _store(mode: str, support: float) -> None:
    """The chosen setting into the shipped weights' meta.json, which the verifier reads at load."""
    from workers.backends.crossenc import Meta, shipped_dir

    path = shipped_dir() / "meta.json"
    meta = Meta.read(path)
    Meta(**{**asdict(meta), "support_threshold": support, "support_rule": mode}).write(path)


# Scored with the setting chosen on FaithBench dev.
_CHECKS: tuple[tuple[str, str, Split, str], ...] = (
    ("faithbench", "faithbench", "test", "response"),
    ("halueval-qa", "halueval-qa", "dev", "response"),
    ("factcheck-gpt", "factcheck-gpt", "dev", "claim"),
)


def _pipeline() -> Pipeline:
    """The production pipeline's extraction and retrieval, and the trained verifier uncached."""
    from workers.backends.checker import OfflineChecker
    from workers.backends.embedder import load_embedder
    from workers.backends.trained import load_offline_verifier
    from workers.eval.command import eval_settings

    settings = eval_settings("local")
    checker = load_offline_verifier(settings.models.offline_verifier, rules=OfflineChecker())
    return Pipeline(settings=settings, embedder=load_embedder(settings.models.embedder), checker=checker)


if __name__ == "__main__":
    sys.exit(main())

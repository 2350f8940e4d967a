"""`make bench`: the three public evaluations on the dev split, then every registered throughput benchmark.

Writes `<out>/<dataset>.json` and `.html` per evaluation, `<out>/<module>.json` per throughput
benchmark and `<out>/summary.json`, and prints one summary table. A dataset folder that is missing
is skipped with a note, so the command also runs without `../shared/data`.

Throughput benchmarks register by adding their module name to `BENCH_MODULES`; each module exposes
`run(out_dir: Path) -> dict`. A module that does not exist (yet) is skipped with a note.

Usage::

    python -m lab.eval.bench --data ../shared/data --out bench/results --limit 100
"""

from __future__ import annotations

import argparse
import functools
import importlib
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lab.eval.command import build_eval_pipeline, eval_settings, evaluate
from lab.eval.datasets import DatasetError
from lab.eval.report import write_html, write_json
from lab.eval.runner import Processor
from lab.eval.speed_bench import current_commit
from workers.errors import ConfigError

__all__ = ["BENCH_MODULES", "EVAL_DATASETS", "main", "run_throughput", "summary_table"]

EVAL_DATASETS = ("faithbench", "factcheck-gpt", "halueval-qa")
# Throughput benchmarks of the other modules; add yours here.
BENCH_MODULES: list[str] = [
    "lab.stream_bench",  # answers/s through the stream vs in process, p50/p95 per answer
    "lab.llm_bench",  # LLM round trips: batched vs naive, 200 ms per call
    "lab.cache_bench",  # answers/s, cold vs warm caches, documents repeating
    "lab.trained_bench",  # trained verifier pairs/s at 128 tokens: fp32, int8, fp16 weights
    "lab.server_bench",  # woodpecker serve vs in process at 1, 4, 16 clients, p50/p95
    "lab.llm_escalation_bench",  # escalate never/uncertain/always: quality and tokens
    "lab.eval.speed_bench",  # answers/s and p50/p95: current vs previous release vs machine limit
]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m lab.eval.bench", description=__doc__.split("\n")[0])
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/data"), help="folder holding the datasets"
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results"), help="where the results go")
    parser.add_argument("--limit", type=int, default=100, help="at most N items of each kind per dataset")
    parser.add_argument("--split", choices=("dev", "test", "all", "train", "valid", "heldout"), default="dev")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--datasets", default=",".join(EVAL_DATASETS), help="comma-separated names")
    parser.add_argument("--no-throughput", action="store_true", help="skip the throughput benchmarks")
    parser.add_argument("--backend", choices=("local", "openai"), default="local", help="model backend")
    return parser


def main(argv: Sequence[str] | None = None, *, pipeline: Processor | None = None) -> int:
    args = _parser().parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    try:
        names = [name for name in args.datasets.split(",") if name.strip()]
        evaluations = {name: _evaluate(name, args, pipeline=pipeline) for name in names}
    except ConfigError as exc:  # e.g. --backend openai without an endpoint
        print(f"bench: {exc}", file=sys.stderr)
        return 2
    throughput = {} if args.no_throughput else run_throughput(args.out)
    commit = current_commit()
    summary = {
        "commit": commit, "evaluations": evaluations, "throughput": throughput, "split": args.split,
        "limit": args.limit,
    }  # fmt: skip
    write_json(summary, args.out / "summary.json")
    table = summary_table(evaluations, throughput)
    # The tables are generated here, with the commit they were measured on; docs point to them.
    heading = f"# make bench at {commit} (split {args.split}, limit {args.limit})\n\n"
    (args.out / "summary.md").write_text(heading + "```\n" + table + "\n```\n", encoding="utf-8")
    print(f"measured at {commit}\n{table}")
    return 0


def _evaluate(name: str, args: argparse.Namespace, *, pipeline: Processor | None) -> dict[str, Any]:
    folder = args.data / name
    if not folder.is_dir():
        return {"skipped": f"no folder {folder}"}
    try:
        report = evaluate(
            dataset=name, data=folder, split=args.split, limit=args.limit, seed=args.seed,
            backend=args.backend, pipeline=pipeline or _shared_pipeline(args.backend), progress=True,
        )  # fmt: skip
    except DatasetError as exc:
        return {"skipped": str(exc)}
    write_json(report, args.out / f"{name}.json")
    write_html(report, args.out / f"{name}.html")
    return _headline(report)


@functools.cache
def _shared_pipeline(backend: str = "local") -> Processor:
    """One production pipeline for all datasets, so the embedder loads once."""
    return build_eval_pipeline(eval_settings(backend))


def _headline(report: dict[str, Any]) -> dict[str, Any]:
    metrics = report["metrics"]
    systems = {"woodpecker": metrics["response"], "woodpecker_strict": metrics["response_strict"]}
    systems |= {name: b["response"] for name, b in report["baselines"].items()}
    keep = ("precision", "recall", "f1", "balanced_accuracy", "n")
    return {
        "n": report["n"],
        "response": {name: {k: r[k] for k in keep} for name, r in systems.items()},
        "span_f1": metrics.get("span", {}).get("f1"),
        "claim": {k: metrics["claim"][k] for k in ("accuracy", "false_f1")} if "claim" in metrics else None,
        "stance_accuracy": metrics.get("stance", {}).get("accuracy"),
        "correction": {k: metrics["correction"][k] for k in ("claim_accuracy_before", "claim_accuracy_after",
                                                             "correction_rate", "preservation")},
        "cost": {k: metrics["cost"][k] for k in ("p50_ms", "p95_ms", "answers_per_s")},
        "lexical_threshold": report["baselines"]["lexical_coverage"].get("threshold"),
    }  # fmt: skip


def run_throughput(out_dir: Path, modules: Sequence[str] | None = None) -> dict[str, Any]:
    """Each registered module's `run(out_dir)`, its result written to `<out_dir>/<module>.json`."""
    results: dict[str, Any] = {}
    for name in BENCH_MODULES if modules is None else modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or not name.startswith(exc.name):
                raise
            results[name] = {"skipped": "module not present yet"}
            continue
        result = dict(module.run(out_dir))
        write_json(result, out_dir / f"{name}.json")
        results[name] = result
    return results


def summary_table(evaluations: dict[str, Any], throughput: dict[str, Any]) -> str:
    """A plain-text table: one row per dataset and system, then the correction, cost and throughput lines."""
    lines = [f"{'dataset':<14} {'system':<28} {'n':>5} {'P':>6} {'R':>6} {'F1':>6} {'BA':>6}"]
    for dataset, result in evaluations.items():
        if "skipped" in result:
            lines.append(f"{dataset:<14} skipped: {result['skipped']}")
            continue
        for system, r in result["response"].items():
            cells = " ".join(f"{_cell(r[k]):>6}" for k in ("precision", "recall", "f1", "balanced_accuracy"))
            lines.append(f"{dataset:<14} {system:<28} {r['n']:>5} {cells}")
    lines.append("")
    for dataset, result in evaluations.items():
        if "skipped" not in result:
            claim = {f"claim_{k}": v for k, v in (result["claim"] or {}).items()}
            extras = {**result["correction"], **result["cost"], "span_f1": result["span_f1"], **claim}
            extras["stance_accuracy"] = result["stance_accuracy"]
            shown = "  ".join(f"{k}={_cell(v)}" for k, v in extras.items() if v is not None)
            lines.append(f"{dataset:<14} {shown}")
    for name, result in throughput.items():
        shown = "  ".join(
            f"{k}={_cell(v)}" for k, v in _flatten(result).items() if k.endswith(_HEADLINE_KEYS)
        )
        lines.append(f"{name:<24} {shown}")
    return "\n".join(lines)


# The throughput figures worth a place in the table; the full results are in the JSON files.
_HEADLINE_KEYS = ("per_s", "p50_ms", "p95_ms", "ratio", "skipped", "note")


def _flatten(result: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Nested results as dotted keys, scalars only."""
    flat: dict[str, Any] = {}
    for key, value in result.items():
        if isinstance(value, dict):
            flat |= _flatten(value, f"{prefix}{key}.")
        elif _scalar(value):
            flat[f"{prefix}{key}"] = value
    return flat


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    return "-" if value is None else str(value)


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


if __name__ == "__main__":
    sys.exit(main())

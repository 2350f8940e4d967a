"""`woodpecker eval`: run a labelled dataset through the pipeline and write the report.

Routing is disabled for evaluation, so every item is checked; the report's `settings` says so.
`--backend openai` sets every model stage (extraction, decomposition, verification, correction) to the
LLM backend; it needs an endpoint: `OPENAI_BASE_URL` (any OpenAI-compatible server), the stage's API
key variable (`OPENAI_API_KEY`, for api.openai.com) or a `base_url` in the settings.

Usage::

    woodpecker eval --dataset halueval-qa --data ../shared/data/halueval-qa --limit 50 \\
        --out report.json --html report.html

    report = evaluate(dataset="jsonl", data=Path("labelled.jsonl"), pipeline=fake)   # from Python
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lab.eval.adapters import load_dataset
from lab.eval.datasets import DATASETS, DatasetError, Split, select
from lab.eval.report import build_report, write_html, write_json
from lab.eval.runner import Processor, run_items
from workers.errors import ConfigError
from workers.settings import BackendKind, Settings, StageModel

__all__ = ["build_eval_pipeline", "eval_settings", "evaluate", "register", "run", "summary"]

_ROUTING_NOTE = "routing disabled for evaluation: every item goes through all five stages"
_STAGES = ("extraction", "decomposition", "verification", "correction")


def register(subparsers: Any) -> None:
    """Add the `eval` subcommand to the `woodpecker` parser."""
    parser = subparsers.add_parser(
        "eval",
        help="measure woodpecker and baselines on a labelled dataset",
        description="Run a labelled dataset through woodpecker and write a JSON report (and an HTML page).",
    )
    parser.add_argument("--dataset", required=True, choices=DATASETS, help="the format of --data")
    parser.add_argument(
        "--data",
        required=True,
        type=Path,
        metavar="PATH",
        help="the dataset's folder (jsonl: file or folder)",
    )
    parser.add_argument(
        "--limit", type=int, default=None, metavar="N", help="at most N items of each kind (seeded sample)"
    )
    parser.add_argument("--backend", choices=("local", "openai"), default="local", help="model backend")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="seed of the --limit sample")
    parser.add_argument(
        "--split",
        choices=("dev", "test", "all", "train", "valid", "heldout"),
        default="all",
        help="which part of the data (train / valid / heldout: the 60/20/20 protocol)",
    )
    parser.add_argument(
        "--out", required=True, type=Path, metavar="report.json", help="where to write report.json"
    )
    parser.add_argument(
        "--html", type=Path, default=None, metavar="report.html", help="also write a self-contained HTML page"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The `eval` subcommand: 0 on success, 2 when the data or the options cannot work."""
    if args.limit is not None and args.limit < 1:
        print("woodpecker eval: --limit must be at least 1", file=sys.stderr)
        return 2
    try:
        report = evaluate(
            dataset=args.dataset, data=args.data, split=args.split, limit=args.limit,
            seed=args.seed, backend=args.backend, progress=True,
        )  # fmt: skip
    except (DatasetError, ConfigError) as exc:
        print(f"woodpecker eval: {exc}", file=sys.stderr)
        return 2
    write_json(report, args.out)
    if args.html is not None:
        write_html(report, args.html)
    print(json.dumps(summary(report, out=args.out)))
    return 0


def eval_settings(
    backend: str = "local", *, settings: Settings | None = None, environ: Mapping[str, str] | None = None
) -> Settings:
    """The user's settings (`Settings.load()` by default) with routing off and every model stage on
    `backend`; ConfigError when the openai backend has no endpoint to call."""
    base = settings or Settings.load()
    base = base.model_copy(update={"routing": base.routing.model_copy(update={"enabled": False})})
    if backend not in ("local", "openai"):
        raise ConfigError(f"unknown backend {backend!r}; use local or openai")
    kind: BackendKind = "openai" if backend == "openai" else "local"
    # Every stage, so the report's `backend` says what ran whatever the settings file chose.
    models = base.models.model_copy(update={s: _on(getattr(base.models, s), kind) for s in _STAGES})
    if kind == "openai":
        _require_endpoint([getattr(models, s) for s in _STAGES], os.environ if environ is None else environ)
    return base.model_copy(update={"models": models})


def _on(stage: StageModel, backend: BackendKind) -> StageModel:
    return stage.model_copy(update={"backend": backend})


def _require_endpoint(stages: list[StageModel], environ: Mapping[str, str]) -> None:
    """Each stage needs a base URL (its own or OPENAI_BASE_URL) or an API key for api.openai.com."""
    if environ.get("OPENAI_BASE_URL"):
        return
    lacking = sorted({s.api_key_env for s in stages if not s.base_url and not environ.get(s.api_key_env)})
    if lacking:
        raise ConfigError(
            "--backend openai needs an endpoint: set OPENAI_BASE_URL (an OpenAI-compatible server), "
            f"or {' / '.join(lacking)} for api.openai.com, or models.<stage>.base_url in the settings"
        )


def evaluate(
    *,
    dataset: str,
    data: Path,
    split: Split = "all",
    limit: int | None = None,
    seed: int = 0,
    backend: str = "local",
    pipeline: Processor | None = None,
    progress: bool = False,
    settings: Settings | None = None,
) -> dict[str, Any]:
    """Load, sample, run and score; `pipeline` defaults to the production one built from the settings
    (`settings`, else `Settings.load()`, with routing off and the stages on `backend`)."""
    settings = eval_settings(backend, settings=settings)
    items = load_dataset(dataset, data)
    chosen = select(items, split=split, limit=limit, seed=seed)
    run = run_items(chosen, pipeline or build_eval_pipeline(settings), progress=progress)
    meta: dict[str, Any] = {
        "split": split,
        "limit": limit,
        "seed": seed,
        "data": str(data),
        "backend": backend,
    }
    meta |= {
        "items_available": len(items),
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "settings": {
            "routing_enabled": False,
            "note": _ROUTING_NOTE,
            "values": settings.model_dump(mode="json"),
        },
    }
    return build_report(
        run,
        dataset=dataset,
        # The baselines' thresholds are fitted where nothing is scored: the train part (60/20/20
        # protocol) or, for the older halves, the dev half.
        dev_items=select(items, split="train" if split in ("train", "valid", "heldout") else "dev"),
        threshold_for=lambda answer: settings.threshold_for(domain=answer.domain),
        meta=meta,
    )


def build_eval_pipeline(settings: Settings) -> Processor:
    # Imported here so `woodpecker --help` does not load the stages and their models.
    from workers.pipeline import build_pipeline

    return build_pipeline(settings)


def summary(report: dict[str, Any], *, out: Path) -> dict[str, Any]:
    """The one-line JSON the command prints: where the report went and its headline numbers."""
    response = report["metrics"]["response"]
    return {
        "dataset": report["dataset"],
        "n": report["n"],
        "out": str(out),
        "f1": response["f1"],
        "balanced_accuracy": response["balanced_accuracy"],
        "correction_rate": report["metrics"]["correction"]["correction_rate"],
        "errors": report["counts"]["errors"],
    }

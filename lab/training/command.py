"""`woodpecker train-verifier` (and `make train-verifier`): rebuild the trained verifier from scratch.

Usage::

    woodpecker train-verifier --data ../shared/data --report bench/results/verifier
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from lab.training.data import TRAINABLE
from workers.backends.shipped import shipped_dir  # not crossenc: `woodpecker --help` imports no torch
from workers.errors import WoodpeckerError

__all__ = ["main", "register"]


def register(subparsers: Any) -> None:
    """Add the `train-verifier` subcommand to the `woodpecker` parser."""
    parser = subparsers.add_parser(
        "train-verifier",
        help="train the offline claim-vs-evidence verifier on the CPU",
        description="Build the training pairs, fine-tune MiniLM, calibrate, and write weights and a report.",
    )
    _arguments(parser)
    parser.set_defaults(func=_run)


def _arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=Path("../shared/data"), help="the benchmarks' folder")
    parser.add_argument("--out", type=Path, default=shipped_dir(), help="where the weights go")
    parser.add_argument("--report", type=Path, default=Path("bench/results/verifier"), help="report folder")
    parser.add_argument("--epochs", type=float, default=2.0)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-minutes", type=float, default=170.0, help="training time budget")
    parser.add_argument("--max-tokens", type=int, default=128)
    parser.add_argument("--layers", type=int, default=6, help="MiniLM layers kept (6 = all)")
    parser.add_argument("--limit", type=int, default=None, help="at most N training pairs (smoke runs)")
    parser.add_argument("--synthetic", type=int, default=2, help="contradiction variants per sentence")
    parser.add_argument(
        "--datasets", default=",".join(TRAINABLE), help="benchmarks to train on (licences allowing it only)"
    )
    parser.add_argument(
        "--nli", type=Path, default=Path("../shared/nli-data"), help="NLI sets folder ('' for none)"
    )
    parser.add_argument("--nli-scale", type=float, default=1.0, help="share of each NLI set's cap to take")
    parser.add_argument("--init", type=Path, default=None, help="continue from these trained weights")
    parser.add_argument(
        "--checkpoint", type=Path, default=Path("bench/results/verifier/checkpoint.pt"),
        help="written every few minutes; a run that finds one resumes from it",
    )  # fmt: skip
    parser.add_argument("--device", default="cpu", help="cpu, or cuda where a GPU is there (never needed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")


def _run(args: argparse.Namespace) -> int:
    from lab.training.data import build_sets
    from lab.training.report import summarise, write_report
    from lab.training.train import TrainConfig, train

    started = time.perf_counter()
    try:
        train_pairs, valid_pairs = build_sets(
            args.data,
            seed=args.seed,
            datasets=args.datasets.split(","),
            synthetic_per_sentence=args.synthetic,
            nli=args.nli if str(args.nli) not in ("", ".") else None,
            nli_scale=args.nli_scale,
        )
    except (WoodpeckerError, OSError) as exc:
        print(f"train-verifier: {exc}", file=sys.stderr)
        return 2
    train_pairs = train_pairs[: args.limit] if args.limit else train_pairs
    print(f"train-verifier: {len(train_pairs)} training and {len(valid_pairs)} validation pairs built in "
          f"{time.perf_counter() - started:.0f} s", file=sys.stderr)  # fmt: skip
    config = TrainConfig(
        epochs=args.epochs,
        batch_size=args.batch_size,
        max_minutes=args.max_minutes,
        max_tokens=args.max_tokens,
        layers=args.layers,
        seed=args.seed,
        threads=args.threads,
        progress=not args.quiet,
        init=args.init,
        checkpoint=args.checkpoint,
        device=args.device,
    )
    result = train(train_pairs, valid_pairs, config=config, out=args.out)
    data = {
        "train": summarise(train_pairs),
        "valid": summarise(valid_pairs),
        "build_seconds": round(time.perf_counter() - started - result.seconds, 1),
    }
    path = write_report(result, data, out=args.report)
    m = result.metrics
    print(
        f"train-verifier: weights in {args.out}, report in {path}; validation accuracy {m['accuracy']}, "
        f"supported-vs-not balanced accuracy {m['support_balanced_accuracy']}"
    )
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.training.command")
    _arguments(parser)
    return _run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

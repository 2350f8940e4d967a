"""The `woodpecker` command.

Usage::

    woodpecker correct --in answers.jsonl --out corrected.jsonl --rejects rejects.jsonl
    woodpecker worker --agents extraction,verification
    woodpecker eval --dataset halueval-qa --data ../shared/data/halueval-qa --out report.json

Each subcommand lives with the code it drives and adds itself through a `register(subparsers)`
function; this module only assembles them. Machine output is JSON; humans get progress on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["build_parser", "main"]

# Modules that add subcommands; a missing optional one is skipped so the rest still works.
_COMMAND_MODULES = (
    "workers.batch",
    "workers.agents.commands",
    "workers.eval.command",
    "workers.review",
    "workers.training.command",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="woodpecker", description="Catch and correct hallucinations in RAG answers."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in _COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name != name:
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())

"""The `woodpecker` command.

Usage::

    woodpecker correct --in answers.jsonl --out corrected.jsonl --rejects rejects.jsonl
    woodpecker worker --agents extraction,verification
    woodpecker eval --dataset halueval-qa --data ../shared/data/halueval-qa --out report.json

Each subcommand lives with the code it drives and adds itself through a `register(subparsers)`
function; this module only assembles them. Machine output is JSON; humans get progress on stderr.
Failures end in one line on stderr and an exit code shared by every command (`workers/exits.py`).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from importlib.metadata import PackageNotFoundError, version

from workers.exits import EXIT_CODES_HELP, ExitCode, explain

__all__ = ["ExitCode", "build_parser", "main", "package_version"]

# Modules that add subcommands; a missing optional one is skipped so the rest still works.
_COMMAND_MODULES = (
    "workers.batch",
    "workers.agents.commands",
    "lab.eval.command",
    "workers.review_command",
    "workers.server.command",
    "lab.training.command",
)


def package_version() -> str:
    try:
        return version("woodpecker")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="woodpecker",
        description="Catch and correct hallucinations in RAG answers.",
        epilog=EXIT_CODES_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"woodpecker {package_version()}")
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
    except (Exception, KeyboardInterrupt) as exc:
        if os.environ.get("WOODPECKER_DEBUG") and not isinstance(exc, KeyboardInterrupt):
            raise
        failed, line = explain(exc)
        print(line, file=sys.stderr)
        return int(failed)
    return code


if __name__ == "__main__":
    sys.exit(main())

"""`make run` without a broker: correct the example answers in process and show every change.

Usage::

    python -m lab.demo [examples/answers.jsonl]
"""

from __future__ import annotations

import sys
from pathlib import Path

from workers.batch import BatchCounts, correct_lines
from workers.messages import DeadLetter
from workers.render import render
from workers.settings import Settings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "answers.jsonl"


def main(argv: list[str] | None = None) -> int:
    path = Path((argv or sys.argv[1:] or [str(EXAMPLES)])[0])
    settings = Settings.load()
    from workers.pipeline import build_pipeline

    pipeline = build_pipeline(settings)
    counts = BatchCounts()
    color = sys.stdout.isatty()
    with path.open("rb") as lines:
        for result in correct_lines(lines, pipeline=pipeline, settings=settings, counts=counts):
            text = (
                f"rejected line {result.line}: {result.reason}"
                if isinstance(result, DeadLetter)
                else render(result, color=color)
            )
            print(text + "\n", flush=True)
    print(f"{counts.corrected} answers corrected, {counts.rejected} rejected")
    return 0


if __name__ == "__main__":
    sys.exit(main())

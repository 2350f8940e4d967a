"""`woodpecker correct`: JSONL answers in, JSONL corrected answers out, in one process.

Usage::

    woodpecker correct --in answers.jsonl --out corrected.jsonl --rejects rejects.jsonl
    cat answers.jsonl | woodpecker correct --in - --out - > corrected.jsonl

One output line per valid input line, in order. Invalid lines (bad JSON or UTF-8, schema violation,
over a size limit) go to `--rejects` as deadletter.v1 records with their line number and reason, and
are counted on stderr; bad input never produces a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from typing import IO, Any, Protocol

from workers.decisions import log_decisions
from workers.errors import InvalidMessage
from workers.messages import Answer, Corrected, DeadLetter
from workers.settings import Settings
from workers.telemetry import answer_span, record_result, setup_telemetry
from workers.validate import dead_letter, parse_answer

__all__ = ["DEFAULT_WORKERS", "BatchCounts", "correct_lines", "register"]

# Answers in flight: one answer's Python work overlaps another's model time; more only queue on 2 cores.
DEFAULT_WORKERS = 2


class _Processor(Protocol):
    def process(self, answer: Answer) -> Corrected: ...


@dataclass
class BatchCounts:
    read: int = 0
    corrected: int = 0
    rejected: int = 0


def correct_lines(
    lines: Iterable[bytes],
    *,
    pipeline: _Processor,
    settings: Settings,
    counts: BatchCounts | None = None,
    workers: int = 1,
) -> Iterator[Corrected | DeadLetter]:
    """One result per non-blank line, in input order: the corrected answer, or a dead-letter record.

    With `workers` > 1 that many answers are worked on at once (threads), so their model calls share
    forward passes (`workers.backends.microbatch`) while one answer's Python work overlaps another's
    model time. The output is the same as with one worker, but for the semantic cache: an answer in
    flight beside its near-duplicate is corrected afresh rather than reusing the other's correction.

    Example::

        list(correct_lines([b'{"id": "a1", ...}'], pipeline=pipeline, settings=settings, workers=3))
    """
    counts = counts if counts is not None else BatchCounts()
    numbered = ((n, raw.rstrip(b"\r\n")) for n, raw in enumerate(lines, start=1))
    work = ((n, line) for n, line in numbered if line.strip())
    run = partial(_one, pipeline=pipeline, settings=settings)
    for result in _ordered_map(run, work, workers=workers, counts=counts):
        if isinstance(result, DeadLetter):
            counts.rejected += 1
        else:
            counts.corrected += 1
        yield result


def _ordered_map(
    run: Callable[[bytes, int], Corrected | DeadLetter],
    work: Iterator[tuple[int, bytes]],
    *,
    workers: int,
    counts: BatchCounts,
) -> Iterator[Corrected | DeadLetter]:
    """`run` over the lines on `workers` threads, results in input order, at most 2 x workers in
    flight so a long input is never read whole."""
    if workers <= 1:
        for number, line in work:
            counts.read += 1
            yield run(line, number)
        return
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="correct") as pool:
        pending: deque[Future[Corrected | DeadLetter]] = deque()
        for number, line in work:
            counts.read += 1
            pending.append(pool.submit(run, line, number))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def _one(line: bytes, number: int, *, pipeline: _Processor, settings: Settings) -> Corrected | DeadLetter:
    limits = settings.limits
    try:
        answer = parse_answer(line, limits=limits)
    except InvalidMessage as exc:
        return dead_letter(line, reason=exc.reason, kind=exc.kind, stage="parse", line=number)
    with answer_span(answer.id):  # one trace per answer; its id goes into the decision log
        try:
            corrected = pipeline.process(answer)
        except Exception as exc:  # one bad answer must not stop the batch; it is recorded, not lost
            reason = f"{type(exc).__name__}: {exc}"
            return dead_letter(line, reason=reason, kind="processing_error", stage="pipeline", line=number)
        record_result(corrected)  # metrics and the decision log (workers/telemetry.py, workers/decisions.py)
        log_decisions(corrected, settings=settings)
        return corrected


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "correct",
        help="correct a JSONL file of answer.v1 records in process",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--in", dest="inp", required=True, help="input JSONL file, or - for stdin")
    parser.add_argument("--out", required=True, help="output JSONL file, or - for stdout")
    parser.add_argument("--rejects", help="where invalid lines go, as deadletter.v1 JSONL")
    parser.add_argument(
        "--config", help="a settings TOML file (default: WOODPECKER_CONFIG or built-in defaults)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=DEFAULT_WORKERS,
        help=f"answers worked on at once; their model calls share forward passes (default {DEFAULT_WORKERS})",
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    settings = Settings.load(config_file=args.config)
    setup_telemetry(settings, service_name="woodpecker-correct")
    from workers.pipeline import build_pipeline

    counts = BatchCounts()
    with contextlib.ExitStack() as stack:
        # The files first: a missing input is reported before the models load.
        inp = _open(stack, args.inp, "rb", sys.stdin.buffer)
        out = _open(stack, args.out, "wb", sys.stdout.buffer)
        rejects = _open(stack, args.rejects, "wb", None) if args.rejects else None
        pipeline = build_pipeline(settings)
        close = getattr(pipeline, "close", None)  # releases LLM clients and Redis at the end
        if close is not None:
            stack.callback(close)
        results = correct_lines(
            _progress(inp), pipeline=pipeline, settings=settings, counts=counts, workers=max(1, args.workers)
        )
        for result in results:
            target = rejects if isinstance(result, DeadLetter) else out
            if target is not None:
                target.write(result.to_json() + b"\n")
    print(f"corrected {counts.corrected}, rejected {counts.rejected} of {counts.read} lines", file=sys.stderr)
    return 0


def _open(stack: contextlib.ExitStack, path: str, mode: str, std: IO[bytes] | None) -> IO[bytes]:
    if path == "-" and std is not None:
        return std
    return stack.enter_context(open(path, mode))


def _progress(stream: IO[bytes]) -> Iterable[bytes]:
    if not sys.stderr.isatty():
        return stream
    from tqdm import tqdm

    return tqdm(stream, unit=" answers", file=sys.stderr)  # type: ignore[no-any-return]

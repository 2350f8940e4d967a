"""`make bench-speed`: this code against the previous release and the machine's limit, in one run.

A fixed, seeded sample of FaithBench answers (the `train` split, never `heldout`) goes through
`build_pipeline` three ways, one subprocess after another on the same interpreter, so the figures
share the machine's load of the moment and their ratios mean something on a busy machine:

- current: this checkout, `--workers` answers at once (as `woodpecker correct --workers` does);
- previous: a `git worktree` of the previous release (`--previous`, default 6e5ad06) in a temp folder,
  one answer at a time as its `woodpecker correct` did;
- limit: the models alone on the sample's own texts: MiniLM sentences/s on every distinct document
  sentence, clause, claim and query, and verifier pairs/s on every (claim, window) pair it reads,
  turned into seconds of model time per answer.

Each run starts its models on a warm-up answer outside the sample (its start-up); latency is per
answer (in a pool it includes waiting for the model), answers/s is the sample over the wall time after
start-up. The three take turns for `--rounds` rounds and each keeps its best round, since other work
on the machine only ever slows a run down. Also measured: start-up time and
resident memory of a worker per agent kind. Results go to `<out>/speed.json` and `speed.md`.

Usage::

    python -m lab.eval.speed_bench --data ../shared/data --out bench/results --answers 40
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lab.eval.adapters import load_dataset
from lab.eval.datasets import select
from workers.messages import Answer, Document

__all__ = ["PREVIOUS", "main", "run", "sample", "sample_answers", "summarise"]

PREVIOUS = "6e5ad06"
ROOT = Path(__file__).resolve().parents[2]
_DRIVERS = Path(__file__).with_name("speed_drivers.py")
_KINDS = ("correction", "extraction", "verification")


def sample_answers(
    data: Path, *, n: int, split: str = "train", seed: int = 0, documents: int = 1
) -> list[bytes]:
    """`sample(...)` as answer.v1 JSON lines, for the drivers' sample file."""
    return [a.to_json() for a in sample(data, n=n, split=split, seed=seed, documents=documents)]


def sample(data: Path, *, n: int, split: str = "train", seed: int = 0, documents: int = 1) -> list[Answer]:
    """`n` FaithBench answers of `split`, the same ones on every run.

    With `documents` > 1 each answer also carries the sources of `documents - 1` other items of the
    split, as a retriever returns several documents of which one is relevant: FaithBench's own sources
    are short (~100 words), and the workload issue 15 was filed on had ~500 words per answer.
    """
    chosen = select(load_dataset("faithbench", data / "faithbench"), split=split)  # type: ignore[arg-type]
    responses = [it for it in chosen if it.kind == "response"]
    rng = random.Random(seed)
    rng.shuffle(responses)
    unique = {d.text: d for it in responses for d in it.answer.documents}
    sources = sorted(unique.values(), key=lambda d: d.id)
    return [_with_others(it.answer, sources, rng, documents) for it in responses[:n]]


def _with_others(answer: Answer, sources: Sequence[Document], rng: random.Random, documents: int) -> Answer:
    own = {d.text for d in answer.documents}
    others = [d for d in sources if d.text not in own]
    extra = rng.sample(others, k=min(len(others), max(0, documents - 1)))
    docs = [*answer.documents, *(d.model_copy(update={"id": f"other-{i}"}) for i, d in enumerate(extra))]
    return answer.model_copy(update={"documents": tuple(docs)})


def _driver(root: Path, mode: str, *args: str, timeout_s: float = 1800) -> dict[str, Any]:
    """Runs a driver of `speed_drivers.py` with `root` as its working directory (and so its `workers`)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        cmd = [sys.executable, str(_DRIVERS), mode, str(out), *args]
        done = subprocess.run(cmd, cwd=root, capture_output=True, text=True, timeout=timeout_s)
        if done.returncode != 0:
            raise RuntimeError(f"{mode} in {root} failed: {done.stderr[-2000:]}")
        result: dict[str, Any] = json.loads(out.read_text())
        return result


@contextmanager
def previous_checkout(commit: str) -> Iterator[Path]:
    """A detached `git worktree` of `commit` in a temp folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="woodpecker-previous-") as tmp:
        path = Path(tmp) / "tree"
        git = ["git", "-C", str(ROOT), "worktree"]
        subprocess.run([*git, "add", "--detach", "-q", str(path), commit], check=True, capture_output=True)
        try:
            yield path
        finally:
            subprocess.run([*git, "remove", "--force", str(path)], check=False, capture_output=True)


def summarise(current: dict[str, Any], previous: dict[str, Any], limit: dict[str, Any]) -> dict[str, Any]:
    """The ratios the issue asks for: throughput against the previous release and against the limit."""
    limit_s = float(limit["model_s_per_answer"])
    return {
        "speedup_vs_previous": round(current["answers_per_s"] / previous["answers_per_s"], 2),
        "share_of_limit": round(limit_s * current["answers_per_s"], 2),
        "previous_share_of_limit": round(limit_s * previous["answers_per_s"], 2),
        "p50_ratio": round(previous["p50_s"] / current["p50_s"], 2),
    }


def measure(
    answers: Sequence[bytes],
    *,
    previous: str = PREVIOUS,
    workers: int = 2,
    previous_workers: int = 1,
    rounds: int = 2,
    kinds: bool = True,
) -> dict[str, Any]:
    """Current, previous and limit on `answers`, `rounds` times in turn, each figure the best of its
    rounds (a shared machine only ever slows a run down); then the per-agent footprint."""
    with tempfile.TemporaryDirectory() as tmp, previous_checkout(previous) as tree:
        sample = Path(tmp) / "answers.jsonl"
        sample.write_bytes(b"".join(a + b"\n" for a in answers))
        rows = [_round(sample, tree, workers=(workers, previous_workers)) for _ in range(max(1, rounds))]
    current, before, limit = (_best([r[i] for r in rows]) for i in range(3))
    agents = {kind: _driver(ROOT, "agent", kind) for kind in _KINDS} if kinds else {}
    return {
        "commit": _commit(),
        "previous_commit": previous,
        "answers": len(answers),
        "document_words": _document_words(answers),
        "current": current,
        "previous": before,
        "limit": limit,
        "ratios": summarise(current, before, limit),
        "agents": agents,
        "rounds": rows,
    }


def _document_words(answers: Sequence[bytes]) -> float:
    """Mean words of document text per answer: the size of the workload."""
    words = [sum(len(d["text"].split()) for d in json.loads(a)["documents"]) for a in answers]
    return round(sum(words) / max(1, len(words)), 1)


def _round(sample: Path, tree: Path, *, workers: tuple[int, int]) -> tuple[dict[str, Any], ...]:
    current = _driver(ROOT, "throughput", str(sample), str(workers[0]))
    before = _driver(tree, "throughput", str(sample), str(workers[1]))
    return current, before, _driver(ROOT, "limit", str(sample))


def _best(runs: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The fastest of the rounds: most answers/s, or least model time for the limit."""
    if "model_s_per_answer" in runs[0]:
        return min(runs, key=lambda r: float(r["model_s_per_answer"]))
    return max(runs, key=lambda r: float(r["answers_per_s"]))


def current_commit() -> str:
    """The checkout's short commit: every table `make bench` writes names the code it measured."""
    return _commit()


def _commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


def markdown(result: dict[str, Any]) -> str:
    """The side-by-side table of `speed.md`."""
    cur, prev, lim, r = result["current"], result["previous"], result["limit"], result["ratios"]
    rows = [
        "| run | answers/s | s/answer | p50 s | p95 s | start-up s | peak RSS MB |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        _row(f"current {result['commit']} ({cur['workers']} workers)", cur),
        _row(f"previous {result['previous_commit']} ({prev.get('workers', 1)} workers)", prev),
        f"| machine limit (models only) | {1 / lim['model_s_per_answer']:.2f} | "
        f"{lim['model_s_per_answer']:.3f} | | | | |",
    ]
    notes = [
        f"\n{result['answers']} FaithBench {result.get('split', 'train')} answers, "
        f"{result.get('document_words', 0):.0f} words of documents each. "
        f"Limit: {lim['sentences_per_s']:.0f} sentences/s "
        f"({lim['texts_per_answer']:.1f} texts/answer), {lim['pairs_per_s']:.1f} verifier pairs/s "
        f"({lim['pairs_per_answer']:.1f} pairs/answer).",
        f"Speed-up vs previous: {r['speedup_vs_previous']}x; share of the machine's limit: "
        f"{r['share_of_limit']:.0%} (previous {r['previous_share_of_limit']:.0%}).",
    ]
    agents = [f"- {k}: start-up {v['startup_s']:.1f} s, RSS {v['rss_mb']:.0f} MB, models {v['loaded']}"
              for k, v in result.get("agents", {}).items()]  # fmt: skip
    return "\n".join(
        rows + notes + (["\nPer agent kind (a worker running one agent):", *agents] if agents else [])
    )


def _row(name: str, r: dict[str, Any]) -> str:
    return (
        f"| {name} | {r['answers_per_s']:.2f} | {1 / r['answers_per_s']:.3f} | {r['p50_s']:.3f} | "
        f"{r['p95_s']:.3f} | {r['startup_s']:.1f} | {r['rss_mb']:.0f} |"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m lab.eval.speed_bench", description=__doc__.split("\n")[0]
    )
    parser.add_argument(
        "--data", type=Path, default=Path("../shared/data"), help="folder holding faithbench/"
    )
    parser.add_argument("--out", type=Path, default=Path("bench/results"), help="where speed.json goes")
    parser.add_argument("--answers", type=int, default=40, help="answers in the sample")
    parser.add_argument("--split", choices=("train", "valid"), default="train")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--documents", type=int, default=5, help="documents per answer: its own and others (sample_answers)"
    )
    parser.add_argument("--workers", type=int, default=2, help="answers at once in the current run")
    parser.add_argument("--previous", default=PREVIOUS, help="the commit to compare with")
    parser.add_argument(
        "--previous-workers",
        type=int,
        default=1,
        help="answers at once in the previous run (a commit that has --workers)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="runs of each, the best one kept")
    parser.add_argument("--no-agents", action="store_true", help="skip the per-agent footprint")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    answers = sample_answers(
        args.data, n=args.answers, split=args.split, seed=args.seed, documents=args.documents
    )
    result = measure(
        answers,
        previous=args.previous,
        workers=args.workers,
        previous_workers=args.previous_workers,
        rounds=args.rounds,
        kinds=not args.no_agents,
    )
    result["split"] = args.split
    result["documents"] = args.documents
    write(result, args.out)
    print(markdown(result))
    return 0


def write(result: dict[str, Any], out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    (out / "speed.json").write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (out / "speed.md").write_text(markdown(result) + "\n", encoding="utf-8")


def run(out_dir: Path) -> dict[str, Any]:
    """The `make bench` entry (`lab.eval.bench.BENCH_MODULES`): 30 answers, no per-agent footprint."""
    data = Path("../shared/data")
    if not (data / "faithbench").is_dir():
        return {"skipped": f"no folder {data / 'faithbench'}"}
    answers = sample_answers(data, n=30, documents=5)  # ~465 words each, the size issue 15 measured
    result = measure(answers, kinds=False)
    write(result, out_dir)
    print(markdown(result))
    return {"ratios": result["ratios"], "commit": result["commit"]}


if __name__ == "__main__":
    sys.exit(main())

"""Stream vs batch CLI: answers per second with the same pipeline code, and end-to-end latency.

Usage::

    python -m lab.stream_bench --out bench/results --answers 200
    python -m lab.stream_bench --data ../shared/data --answers 60 --documents 5   # FaithBench answers
    python -m lab.stream_bench --rounds 5                                         # five pairs, alternated
    result = run(Path("bench/results"))      # also writes bench/results/stream.json

Three kinds of run on the same answers, one after another on this machine:

- batch: what `woodpecker correct --workers 2` does (`workers.batch.correct_lines`), after a warm-up;
- in-process: the same pipeline, one answer after another;
- stream: a real broker (embedded noida-db, or KAFKA_BOOTSTRAP) and one worker of each agent kind
  (`--verification` replicas). Two stream runs: a burst (all answers published at once: throughput,
  and latency including queueing) and a paced run (one answer at a time: the latency a lone answer
  sees). Latency is output record time minus input record time, both stamped by Kafka clients here.

Issue 15 asks the stream with one worker of each kind to keep within 10% of the batch CLI's throughput:
`stream_to_batch_ratio` >= 0.9. It is the median over `--rounds` (default 3) of a batch run and a stream
run taken back to back, alternating; `rounds` lists each pair.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster
from lab.eval.speed_bench import sample as faithbench_sample
from workers.agents.client import publish_lines, tail_records
from workers.agents.topics import Topics, ensure_topics
from workers.messages import Answer, Document
from workers.settings import Settings

__all__ = ["broker_pid", "percentile", "run", "synthetic_answers"]

_COMPANIES = (
    "Northwind",
    "Contoso",
    "Fabrikam",
    "Tailspin",
    "Litware",
    "Adatum",
    "Proseware",
    "Lucerne",
    "Wingtip",
    "Margie",
    "Coho",
    "Alpine",
    "Humongous",
    "Trey",
    "Woodgrove",
    "Relecloud",
    "Fourth Coffee",
    "Blue Yonder",
    "Wide World",
    "Graphic Design",
)
_SUFFIXES = (
    "Traders",
    "Holdings",
    "Group",
    "Systems",
    "Labs",
    "Partners",
    "Works",
    "Foods",
    "Energy",
    "Media",
)
_CITIES = (
    "Amsterdam",
    "Rotterdam",
    "Lisbon",
    "Porto",
    "Vienna",
    "Graz",
    "Lyon",
    "Nantes",
    "Turin",
    "Bologna",
    "Seville",
    "Malaga",
    "Krakow",
    "Gdansk",
    "Aarhus",
    "Bergen",
    "Tampere",
    "Ghent",
    "Basel",
    "Leeds",
)


def synthetic_answers(n: int, *, prefix: str = "syn", tenant: str | None = None) -> list[Answer]:
    """`n` short, distinct answers with one document each; a quarter each: correct, wrong figure,
    wrong city, and a claim the document does not mention."""
    return [_synthetic(i, prefix=prefix, tenant=tenant) for i in range(n)]


def _synthetic(i: int, *, prefix: str, tenant: str | None) -> Answer:
    company = f"{_COMPANIES[i % 20]} {_SUFFIXES[(i // 20) % 10]}"
    city, other = _CITIES[i % 20], _CITIES[(i + 7) % 20]
    year, revenue, staff = 2010 + i % 14, round(1.1 + (i * 37 % 83) / 10, 1), 1000 + 17 * i
    doc = Document(
        id=f"d{i}",
        text=f"{company} is headquartered in {city}. In fiscal {year} the company reported revenue of "
        f"${revenue} billion. It employs {staff} people.",
    )
    facts = [
        f"{company} is headquartered in {city}.",
        f"In fiscal {year} it reported revenue of ${revenue} billion.",
    ]
    variant = i % 4
    if variant == 1:
        facts[1] = f"In fiscal {year} it reported revenue of ${round(revenue + 0.6, 1)} billion."
    elif variant == 2:
        facts[0] = f"{company} is headquartered in {other}."
    elif variant == 3:
        facts.append(f"{company} also owns a football club in {other}.")
    return Answer(
        id=f"{prefix}-{i:05d}", query=f"How did {company} do in {year}?", answer=" ".join(facts),
        documents=(doc,), tenant=tenant, stakes="medium",
    )  # fmt: skip


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), linear between ranks; 0.0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = (len(ordered) - 1) * q / 100.0
    low = int(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def _summary(latencies_ms: Sequence[float], *, count: int, seconds: float) -> dict[str, float]:
    return {
        "answers": count,
        "seconds": round(seconds, 3),
        "answers_per_s": round(count / seconds, 2) if seconds > 0 else 0.0,
        "p50_ms": round(percentile(latencies_ms, 50), 1),
        "p95_ms": round(percentile(latencies_ms, 95), 1),
    }


def batch(settings: Settings, answers: Sequence[Answer], *, workers: int = 2) -> dict[str, Any]:
    """`woodpecker correct --workers N` on the answers, after a warm-up answer (the stream's workers
    have loaded their models before the burst, so neither side pays start-up)."""
    from workers.batch import correct_lines
    from workers.pipeline import build_pipeline

    pipeline = build_pipeline(settings)
    lines = [a.to_json() for a in answers]
    with _torch_threads(1):
        pipeline.process(_synthetic(10_001, prefix="warmup", tenant=None))
        before = cpu_seconds({"batch": os.getpid()})
        started = time.perf_counter()
        done = list(correct_lines(lines, pipeline=pipeline, settings=settings, workers=workers))
        elapsed = time.perf_counter() - started
        busy = busy_cores(before, cpu_seconds({"batch": os.getpid()}), seconds=elapsed)
    if len(done) != len(answers):
        raise RuntimeError(f"batch gave {len(done)} results for {len(answers)} answers")
    # correct_lines keeps no per-answer clock: latency is not reported for this side.
    return {"answers": len(answers), "seconds": round(elapsed, 3),
            "answers_per_s": round(len(answers) / elapsed, 2), "workers": workers,
            "busy_cores": busy}  # fmt: skip


def in_process(settings: Settings, answers: Sequence[Answer]) -> dict[str, float]:
    """The same pipeline, one answer after another, with the workers' one torch thread per process."""
    from workers.pipeline import build_pipeline

    pipeline = build_pipeline(settings)
    with _torch_threads(1):
        pipeline.process(_synthetic(10_000, prefix="warmup", tenant=None))
        latencies: list[float] = []
        started = time.perf_counter()
        for answer in answers:
            t0 = time.perf_counter()
            pipeline.process(answer)
            latencies.append((time.perf_counter() - t0) * 1000)
        elapsed = time.perf_counter() - started
    return _summary(latencies, count=len(answers), seconds=elapsed)


@contextlib.contextmanager
def _torch_threads(count: int) -> Iterator[None]:
    # The workers run with OMP_NUM_THREADS=1 (cluster.py); the comparison must not give either side more.
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(count)
    try:
        yield
    finally:
        torch.set_num_threads(before)


async def _stream_run(
    settings: Settings, bootstrap: str, answers: Sequence[Answer], *, pace_s: float
) -> dict[str, float]:
    topics = Topics.from_settings(settings.kafka)
    lines = [a.to_json() for a in answers]
    started = time.perf_counter()
    publisher = asyncio.ensure_future(_paced(settings, bootstrap, topics.answers, lines, pace_s=pace_s))
    wanted = {a.id for a in answers}
    latencies: list[float] = []
    outputs = tail_records(
        settings.kafka,
        bootstrap=bootstrap,
        topic=topics.corrected,
        also=(topics.review,),  # answers held for review are delivered there instead
        from_beginning=True,
        idle_timeout_s=120.0,
    )
    async with contextlib.aclosing(outputs):
        async for record in outputs:
            if record.key in wanted:
                wanted.discard(record.key)
                latencies.append(float(record.latency_ms or 0))
                if not wanted:
                    break
    elapsed = time.perf_counter() - started
    await publisher
    if wanted:
        raise TimeoutError(f"{len(wanted)} answers never came out of the stream")
    return _summary(latencies, count=len(answers), seconds=elapsed)


async def _paced(
    settings: Settings, bootstrap: str, topic: str, lines: Sequence[bytes], *, pace_s: float
) -> None:
    if pace_s <= 0:
        # A burst: one producer sends them all. A producer per record (connect, metadata, close) cost
        # the bench and the broker CPU the workers then lacked, and trickled the burst in.
        await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic, lines=lines)
        return
    for line in lines:
        await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic, lines=[line])
        await asyncio.sleep(pace_s)


def stream(
    settings: Settings, bootstrap: str, answers: Sequence[Answer], *, paced: int = 20, verification: int = 1
) -> dict[str, Any]:
    """Both stream runs on one fresh set of topics and workers."""
    prefix = f"bench-{uuid.uuid4().hex[:8]}."
    env = {"WOODPECKER_SAMPLER__RATE": "1.0", "WOODPECKER_KAFKA__TOPIC_PREFIX": prefix}
    run_settings = Settings.load(
        sampler={"rate": 1.0}, kafka={**settings.kafka.model_dump(), "topic_prefix": prefix}
    )
    asyncio.run(ensure_topics(run_settings.kafka, bootstrap=bootstrap))
    with LocalCluster(bootstrap=bootstrap, env=env) as cluster:
        cluster.start("extraction")
        cluster.start("verification", replicas=verification)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=120)
        pids = {w.name: w.process.pid for w in cluster.workers} | {"bench (publisher, reader)": os.getpid()}
        broker = broker_pid(bootstrap)
        if broker is not None:
            pids["broker"] = broker
        before = cpu_seconds(pids)
        burst = asyncio.run(_stream_run(run_settings, bootstrap, answers, pace_s=0))
        busy = busy_cores(before, cpu_seconds(pids), seconds=burst["seconds"])
        lone = synthetic_answers(paced, prefix="paced")
        single = asyncio.run(_stream_run(run_settings, bootstrap, lone, pace_s=0.25)) if paced else None
    kinds = {"extraction": 1, "verification": verification, "correction": 1}
    return {"burst": burst, "busy_cores_in_burst": busy, "paced": single, "workers": kinds}


def cpu_seconds(pids: dict[str, int]) -> dict[str, float]:
    """CPU seconds (user + system) each process has used, and the whole machine's busy seconds, from
    /proc (Linux); empty elsewhere. Which worker keeps a core busy shows what bounds the stream."""
    tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    out: dict[str, float] = {}
    for name, pid in pids.items():
        with contextlib.suppress(OSError, ValueError, IndexError):  # gone, or no /proc
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            out[name] = (int(fields[11]) + int(fields[12])) / tick  # utime, stime
    with contextlib.suppress(OSError, ValueError, IndexError):
        cpu = [int(v) for v in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        out["machine"] = (sum(cpu) - cpu[3] - cpu[4]) / tick  # all but idle and iowait
    return out


def broker_pid(bootstrap: str) -> int | None:
    """The PID of the embedded broker listening on `bootstrap`'s port (its command line names it), or
    None: a remote cluster, or no /proc."""
    port = bootstrap.rsplit(":", 1)[-1]
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):
            argv = (proc / "cmdline").read_bytes().split(b"\0")
            if b"--kafka-port" in argv and argv[argv.index(b"--kafka-port") + 1 :][:1] == [port.encode()]:
                return int(proc.name)
    return None


def busy_cores(before: dict[str, float], after: dict[str, float], *, seconds: float) -> dict[str, float]:
    """Cores each process kept busy over `seconds` (1.0: one core all the time); "machine": all of them."""
    return {k: round((after[k] - before[k]) / seconds, 2) for k in before if k in after and seconds > 0}


def run(
    out_dir: Path,
    *,
    answers: int = 200,
    settings: Settings | None = None,
    sample: Sequence[Answer] | None = None,
    verification: int = 1,
    workers: int = 2,
    rounds: int = 3,
) -> dict[str, Any]:
    """Measure, write `out_dir/stream.json`, return the same dict. `sample` replaces the synthetic
    answers (their ids are made fresh, so no run reads another's cached results). With `rounds` > 1 the
    batch CLI and the stream alternate, each round's ratio taken from its own pair of runs, and the
    headline ratio is their median: this machine's speed drifts by 10-25% within minutes, so a pair run
    side by side is the figure to trust, not one run against another taken minutes apart."""
    settings = settings or Settings.load()
    tag = uuid.uuid4().hex[:6]
    chosen = _fresh_ids(sample, tag) if sample else synthetic_answers(answers, prefix=f"bench-{tag}")
    local = in_process(settings, chosen)
    pairs: list[tuple[dict[str, Any], dict[str, Any]]] = []
    for n in range(max(1, rounds)):
        cli = batch(settings, chosen, workers=workers)
        # Fresh workers each round, so no round reads the caches another filled; and a fresh embedded
        # broker: sharing one, its CPU grew with the earlier rounds' groups and data (0.11, 0.22, 0.30
        # cores over three rounds) and the stream slowed with it.
        paced = 20 if n == 0 else 0  # the lone-answer latency is measured once
        with kafka_bootstrap() as bootstrap:
            streamed = stream(settings, bootstrap, chosen, verification=verification, paced=paced)
        pairs.append((cli, streamed))
    result = _result(sample is not None, local, pairs)
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "stream.json").write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return result


def _result(
    sampled: bool, local: dict[str, Any], pairs: Sequence[tuple[dict[str, Any], dict[str, Any]]]
) -> dict[str, Any]:
    """The first round in full (as a single round always was), every round's pair, and the median ratio."""
    cli, streamed = pairs[0]
    ratios = [_ratio(s["burst"], c) for c, s in pairs]
    rounds = [_round(c, s, r) for (c, s), r in zip(pairs, ratios, strict=True)]
    return {
        "answers": "sample" if sampled else "synthetic",
        "batch": cli,
        "in_process": local,
        "stream": streamed,
        "rounds": rounds,
        "stream_to_batch_ratio": round(statistics.median(ratios), 3),
        "stream_to_in_process_ratio": _ratio(streamed["burst"], local),
    }


def _round(cli: dict[str, Any], streamed: dict[str, Any], ratio: float) -> dict[str, Any]:
    return {
        "batch_answers_per_s": cli["answers_per_s"],
        "stream_answers_per_s": streamed["burst"]["answers_per_s"],
        "ratio": ratio,
        "batch_busy_cores": cli.get("busy_cores", {}),
        "busy_cores_in_burst": streamed["busy_cores_in_burst"],
    }


def _ratio(a: dict[str, Any], b: dict[str, Any]) -> float:
    return round(a["answers_per_s"] / b["answers_per_s"], 3) if b["answers_per_s"] else 0.0


def _fresh_ids(sample: Sequence[Answer], tag: str) -> list[Answer]:
    return [a.model_copy(update={"id": f"bench-{tag}-{i:05d}"}) for i, a in enumerate(sample)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.stream_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--answers", type=int, default=200)
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="folder holding faithbench/: its train answers instead of synthetic ones",
    )
    parser.add_argument("--documents", type=int, default=1, help="documents per FaithBench answer")
    parser.add_argument("--verification", type=int, default=1, help="verification workers")
    parser.add_argument("--workers", type=int, default=2, help="the batch CLI's --workers")
    parser.add_argument("--rounds", type=int, default=3, help="batch and stream runs, alternated")
    args = parser.parse_args(argv)
    sample = faithbench_sample(args.data, n=args.answers, documents=args.documents) if args.data else None
    result = run(args.out, answers=args.answers, sample=sample, verification=args.verification,
                 workers=args.workers, rounds=args.rounds)  # fmt: skip
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())

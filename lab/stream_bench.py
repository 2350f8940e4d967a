"""Stream vs in-process: answers per second with the same pipeline code, and end-to-end latency.

Usage::

    python -m lab.stream_bench --out bench/results --answers 200
    result = run(Path("bench/results"))      # also writes bench/results/stream.json

The stream side is a real broker (embedded noida-db, or KAFKA_BOOTSTRAP), one extraction, two
verification and one correction worker. Two runs: a burst (all answers published at once: throughput,
and latency including queueing) and a paced run (one answer at a time: the latency a lone answer sees).
Latency is output record time minus input record time, both stamped by Kafka clients on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
import time
import uuid
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import orjson

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster
from workers.agents.client import publish_lines, tail_records
from workers.agents.topics import Topics, ensure_topics
from workers.messages import Answer, Document
from workers.settings import Settings

__all__ = ["percentile", "run", "synthetic_answers"]

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
    for line in lines:
        await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic, lines=[line])
        await asyncio.sleep(pace_s)


def stream(
    settings: Settings, bootstrap: str, answers: Sequence[Answer], *, paced: int = 20
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
        cluster.start("verification", replicas=2)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=120)
        burst = asyncio.run(_stream_run(run_settings, bootstrap, answers, pace_s=0))
        lone = synthetic_answers(paced, prefix="paced")
        single = asyncio.run(_stream_run(run_settings, bootstrap, lone, pace_s=0.25))
    return {"burst": burst, "paced": single, "workers": {"extraction": 1, "verification": 2, "correction": 1}}


def run(out_dir: Path, *, answers: int = 200, settings: Settings | None = None) -> dict[str, Any]:
    """Measure, write `out_dir/stream.json`, return the same dict."""
    settings = settings or Settings.load()
    batch = synthetic_answers(answers, prefix=f"bench-{uuid.uuid4().hex[:6]}")
    local = in_process(settings, batch)
    with kafka_bootstrap() as bootstrap:
        streamed = stream(settings, bootstrap, batch)
    ratio = streamed["burst"]["answers_per_s"] / local["answers_per_s"] if local["answers_per_s"] else 0.0
    result = {"in_process": local, "stream": streamed, "stream_to_in_process_ratio": round(ratio, 3)}
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "stream.json").write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return result


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.stream_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--answers", type=int, default=200)
    args = parser.parse_args(argv)
    result = run(args.out, answers=args.answers)
    print(orjson.dumps(result, option=orjson.OPT_INDENT_2).decode())
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The HTTP service vs the in-process pipeline: answers/s and p50/p95 latency at 1, 4 and 16 clients.

Usage::

    python -m lab.server_bench --out bench/results --per-level 12
    result = run(Path("bench/results"))      # also writes bench/results/serve.json (`make bench` does)

One run, the same answers on both sides: for each client count a fresh slice of distinct synthetic
answers (so neither side is served from its caches) goes through (a) the production pipeline in this
process, called by that many threads, and (b) `woodpecker serve` started as a subprocess on a free
port, called by that many concurrent HTTP clients. Both sides run torch with one thread per worker
thread, as the stream workers do. The figure that matters is `ratio` at 4 clients (service answers/s
over in-process answers/s); the service should keep at least 0.9 of it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import orjson

from lab.stream_bench import percentile, synthetic_answers
from workers.messages import Answer
from workers.settings import Settings

__all__ = ["LEVELS", "run"]

LEVELS = (1, 4, 16)


def _summary(latencies_ms: Sequence[float], *, seconds: float) -> dict[str, float]:
    return {
        "answers": len(latencies_ms),
        "seconds": round(seconds, 3),
        "answers_per_s": round(len(latencies_ms) / seconds, 2) if seconds > 0 else 0.0,
        "p50_ms": round(percentile(latencies_ms, 50), 1),
        "p95_ms": round(percentile(latencies_ms, 95), 1),
    }


def in_process(pipeline: Any, answers: Sequence[Answer], *, clients: int) -> dict[str, float]:
    """`clients` threads calling `pipeline.process` on `answers`, each taking the next one."""
    latencies: list[float] = []

    def one(answer: Answer) -> None:
        t0 = time.perf_counter()
        pipeline.process(answer)
        latencies.append((time.perf_counter() - t0) * 1000)

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(one, answers))
    return _summary(latencies, seconds=time.perf_counter() - started)


async def over_http(url: str, answers: Sequence[Answer], *, clients: int) -> dict[str, float]:
    """`clients` concurrent HTTP clients posting `answers` to `url`, each taking the next one."""
    queue: asyncio.Queue[Answer] = asyncio.Queue()
    for answer in answers:
        queue.put_nowait(answer)
    latencies: list[float] = []
    failures = 0

    async def client(http: httpx.AsyncClient) -> None:
        nonlocal failures
        while not queue.empty():
            answer = queue.get_nowait()
            t0 = time.perf_counter()
            response = await http.post(
                url, content=answer.to_json(), headers={"content-type": "application/json"}
            )
            latencies.append((time.perf_counter() - t0) * 1000)
            failures += response.status_code != 200

    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    started = time.perf_counter()
    async with httpx.AsyncClient(timeout=600, limits=limits) as http:
        await asyncio.gather(*(client(http) for _ in range(clients)))
    result = _summary(latencies, seconds=time.perf_counter() - started)
    if failures:
        result["failed"] = failures
    return result


@contextlib.contextmanager
def served(settings_env: dict[str, str], *, port: int) -> Iterator[str]:
    """`woodpecker serve` in a subprocess on `port`, until the block ends (then SIGTERM, drained)."""
    env = os.environ | settings_env | {"OMP_NUM_THREADS": "1", "OTEL_SDK_DISABLED": "true"}
    command = [sys.executable, "-m", "workers.cli", "serve", "--port", str(port), "--log-level", "warning"]
    process = subprocess.Popen(command, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 600
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"woodpecker serve exited with {process.returncode}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(f"{url}/readyz", timeout=5).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError("woodpecker serve did not become ready")
            time.sleep(0.5)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()


def run(out_dir: Path, *, per_level: int = 12, settings: Settings | None = None) -> dict[str, Any]:
    """Measure, write `out_dir/serve.json`, return the same dict."""
    from lab.stream_bench import _torch_threads
    from workers.pipeline import build_pipeline

    settings = settings or Settings.load()
    # No API keys, and room for every client: refusals would measure the gate, not the service.
    env = {"WOODPECKER_SERVER__API_KEYS": "{}", "WOODPECKER_SERVER__MAX_QUEUE": str(max(LEVELS) * 2)}
    answers = synthetic_answers(per_level * len(LEVELS) + 4, prefix=f"serve-bench-{os.getpid()}")
    warm, slices = (
        answers[:4],
        [answers[4 + i * per_level : 4 + (i + 1) * per_level] for i in range(len(LEVELS))],
    )
    levels: dict[str, Any] = {}
    with build_pipeline(settings) as pipeline, _torch_threads(1), served(env, port=_free_port()) as url:
        in_process(pipeline, warm[:2], clients=1)
        asyncio.run(over_http(f"{url}/v1/correct", warm[2:], clients=1))
        for clients, batch in zip(LEVELS, slices, strict=True):
            local = in_process(pipeline, batch, clients=clients)
            remote = asyncio.run(over_http(f"{url}/v1/correct", batch, clients=clients))
            ratio = remote["answers_per_s"] / local["answers_per_s"] if local["answers_per_s"] else 0.0
            levels[str(clients)] = {"in_process": local, "service": remote, "ratio": round(ratio, 3)}
    result = {
        "per_level": per_level,
        "server_max_concurrency": settings.server.max_concurrency,
        "cpus": os.cpu_count(),
        "levels": levels,
        "service_to_in_process_at_4_clients_ratio": levels["4"]["ratio"],
        "target_ratio_at_4_clients": 0.9,
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "serve.json").write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return result


def table(result: dict[str, Any]) -> str:
    lines = [f"{'clients':>7} {'side':<11} {'answers/s':>9} {'p50 ms':>8} {'p95 ms':>8} {'ratio':>6}"]
    for clients, level in result["levels"].items():
        for side in ("in_process", "service"):
            r = level[side]
            ratio = f"{level['ratio']:>6.2f}" if side == "service" else ""
            rate, p50, p95 = r["answers_per_s"], r["p50_ms"], r["p95_ms"]
            lines.append(f"{clients:>7} {side:<11} {rate:>9.2f} {p50:>8.1f} {p95:>8.1f} {ratio}")
    return "\n".join(lines)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.server_bench", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--per-level", type=int, default=12, help="answers per client count and side")
    args = parser.parse_args(argv)
    result = run(args.out, per_level=args.per_level)
    print(table(result))
    ratio = result["service_to_in_process_at_4_clients_ratio"]
    print(f"service / in-process throughput at 4 clients: {ratio:.2f} (target >= 0.90)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

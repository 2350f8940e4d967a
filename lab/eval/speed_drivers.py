"""The subprocesses of `speed_bench`, run as a script with a checkout as working directory.

The checkout may be an older release, so the throughput driver uses only what 6e5ad06 already had:
`Settings`, `build_pipeline`, `Pipeline.process`, `Answer`. Results go to the JSON file named first.

Usage::

    cd <checkout> && python <this file> throughput out.json answers.jsonl 3
    python speed_drivers.py limit out.json answers.jsonl
    python speed_drivers.py agent out.json verification
"""

from __future__ import annotations

import os
import sys
import time

T0 = time.perf_counter()
# The checkout's `workers`, not this file's folder (whose datasets.py would shadow a package).
sys.path[:1] = [os.getcwd()]

import json  # noqa: E402
import resource  # noqa: E402
import statistics  # noqa: E402
from collections.abc import Callable  # noqa: E402
from concurrent.futures import ThreadPoolExecutor  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

_WARM = {
    "id": "speed-bench-warm-up",
    "query": "How did the company do?",
    "answer": "Revenue rose 12% in 2023. The CEO, Ann Lee, left in May.",
    "documents": [
        {"id": "w", "text": "Revenue rose 12% in 2023 as costs fell. Ann Lee, the CEO, left in June."}
    ],
}


def _settings() -> Any:
    from workers.settings import Settings

    base = Settings.load()
    # As `woodpecker eval` does: every answer goes through all five stages.
    return base.model_copy(update={"routing": base.routing.model_copy(update={"enabled": False})})


def _answers(path: str) -> list[Any]:
    from workers.messages import Answer

    return [Answer.model_validate_json(line) for line in Path(path).read_bytes().splitlines() if line.strip()]


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def throughput(path: str, workers: str) -> dict[str, Any]:
    """Start-up (to the end of a warm-up answer), then the sample: latency per answer and answers/s."""
    from workers.messages import Answer
    from workers.pipeline import build_pipeline

    answers = _answers(path)
    pipeline = build_pipeline(_settings())
    pipeline.process(Answer.model_validate(_WARM))  # loads the models, lazy or not
    startup = time.perf_counter() - T0
    latency = [0.0] * len(answers)

    def one(i: int) -> None:
        t = time.perf_counter()
        pipeline.process(answers[i])
        latency[i] = time.perf_counter() - t

    n = max(1, int(workers))
    t = time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        list(pool.map(one, range(len(answers))))
    wall = time.perf_counter() - t
    return _figures(latency, wall=wall, startup=startup, workers=n)


def _figures(latency: list[float], *, wall: float, startup: float, workers: int) -> dict[str, Any]:
    cuts = statistics.quantiles(latency, n=100, method="inclusive") if len(latency) > 1 else latency * 99
    return {
        "answers_per_s": round(len(latency) / wall, 3),
        "wall_s": round(wall, 2),
        "p50_s": round(statistics.median(latency), 3),
        "p95_s": round(cuts[94], 3),
        "startup_s": round(startup, 2),
        "rss_mb": round(_rss_mb(), 1),
        "workers": workers,
    }


def limit(path: str) -> dict[str, Any]:
    """The models alone on the texts and pairs this sample needs, each distinct text once."""
    from workers.backends.embedder import load_embedder
    from workers.backends.trained import read_pairs
    from workers.pipeline import build_pipeline
    from workers.stages.retrieve import _runs, clause_probes

    settings = _settings()
    answers = _answers(path)
    pipeline = build_pipeline(settings)
    texts: dict[str, None] = {}
    groups: list[list[tuple[str, str]]] = []
    cap = settings.models.offline_verifier.max_windows
    for answer in answers:
        texts.update(
            dict.fromkeys(_runs(answer.documents, max_sentences=3)[1] + clause_probes(answer.documents))
        )
        for task in pipeline.prepare(answer).tasks:
            probe = task.claim.standalone or task.claim.text
            texts.update(dict.fromkeys([probe, *(q.text for q in task.queries)]))
            groups.append(read_pairs(task.claim, task.candidates[:cap]))
    embedder = load_embedder(settings.models.embedder)
    embedder.encode(["warm up the embedder"])
    t = time.perf_counter()
    embedder.encode(list(texts))
    embed_s = time.perf_counter() - t
    pairs, verify_s = _verifier_time(settings, groups)
    return _limit_figures(len(answers), len(texts), embed_s, pairs, verify_s)


def _verifier_time(settings: Any, groups: list[list[tuple[str, str]]]) -> tuple[int, float]:
    """Every pair through the network on the configured runtime, sorted by length in batches (the fastest
    it goes)."""
    from workers.backends.checker import OfflineChecker
    from workers.backends.shipped import verifier_dir
    from workers.backends.trained import TrainedChecker, load_trained

    vs = settings.models.offline_verifier
    net, meta, _ = load_trained(verifier_dir(vs), runtime=vs.runtime)
    checker = TrainedChecker(net=net, meta=meta, rules=OfflineChecker(), settings=vs)
    pairs = [p for g in groups for p in g]
    checker.probabilities(pairs[:4])
    t = time.perf_counter()
    checker.probabilities(pairs)
    return len(pairs), time.perf_counter() - t


def _limit_figures(n: int, texts: int, embed_s: float, pairs: int, verify_s: float) -> dict[str, Any]:
    """Rates of one stream of model calls, times the streams the cores hold side by side (cores over
    torch threads per call: the ideal of every core busy with a model call)."""
    import torch

    streams = max(1, (os.cpu_count() or 1) // max(1, torch.get_num_threads()))
    per_s, pair_s = streams * texts / embed_s, streams * pairs / verify_s
    return {
        "streams": streams,
        "torch_threads": torch.get_num_threads(),
        "sentences_per_s": round(per_s, 1),
        "pairs_per_s": round(pair_s, 1),
        "texts_per_answer": round(texts / n, 2),
        "pairs_per_answer": round(pairs / n, 2),
        "model_s_per_answer": round(texts / n / per_s + pairs / n / pair_s, 4),
    }


def agent(kind: str) -> dict[str, Any]:
    """What a worker running one agent kind loads: start-up to its first message done, and memory."""
    from workers.messages import Answer
    from workers.pipeline import build_pipeline

    pipeline = build_pipeline(_settings())
    answer = Answer.model_validate(_WARM)
    if kind == "extraction":
        pipeline.prepare(answer)
    elif kind == "verification":
        pipeline.verify([_task(answer)])
    else:  # what the correction agent gets: a plan and its verdicts, then `finish`
        from workers.messages import Plan, Route, RouteInfo

        task = _task(answer)
        plan = Plan(
            answer=answer, route=RouteInfo(route=Route.FULL, complexity=0.5, stakes=0.5), tasks=(task,)
        )
        pipeline.finish(plan, [pipeline.unanswered([task], reason="benchmark", fallback=None)])
    loaded = sorted(m for m in ("torch", "sentence_transformers") if m in sys.modules)
    return {"startup_s": round(time.perf_counter() - T0, 2), "rss_mb": round(_rss_mb(), 1), "loaded": loaded}


def _task(answer: Any) -> Any:
    """A claim task as the extraction agent sends it, built here so the embedder stays unloaded."""
    from workers.messages import Claim, ClaimTask, Evidence

    text, doc = "Revenue rose 12% in 2023.", answer.documents[0]
    window = Evidence(doc_id=doc.id, start=0, end=len(doc.text), text=doc.text, score=1.0)
    claim = Claim(id="c0", text=text, start=0, end=len(text))
    return ClaimTask(claim=claim, candidates=(window,), similarity=0.9, threshold=0.5)


def main() -> None:
    mode, out, *args = sys.argv[1:]
    drivers: dict[str, Callable[..., dict[str, Any]]] = {
        "throughput": throughput,
        "limit": limit,
        "agent": agent,
    }
    result = drivers[mode](*args)
    Path(out).write_text(json.dumps(result), encoding="utf-8")


if __name__ == "__main__":
    main()

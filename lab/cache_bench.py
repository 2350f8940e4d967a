"""Cache benchmark: answers/s with cold and with warm caches, on answers whose documents repeat.

Phases, one run, one process, the same answers count in each:

- `no_cache`: the backends without any cache (the baseline);
- `cold`: caches empty at the start (documents repeating across answers already hit within the phase);
- `warm`: new answers on the same documents, caches filled by `cold` (embedding and verdict hits);
- `repeat`: the `cold` answers again under new ids (semantic hits).

`warm_over_cold` is the ratio the issue asks for. Redis is used when `settings.cache.redis_url` is set
(entries get a 10-minute TTL under a fresh prefix), the in-process LRU otherwise.

Usage::

    report = run(Path("bench/results"))     # what `make bench` calls; the runner writes the JSON
    report["warm_over_cold"], report["phases"]["warm"]["hit_ratio"]

    python -m lab.cache_bench --answers 24 --out bench/results
"""

from __future__ import annotations

import argparse
import random
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from workers.backends.cache import KINDS, Cache, CacheStats, RedisCache, open_cache
from workers.messages import Answer, Document
from workers.pipeline import Pipeline
from workers.protocols import Embedder, VerdictComponent
from workers.semantic import cached_backends
from workers.settings import Settings

__all__ = ["make_workload", "run"]

_BENCH_TTL_S = 600


@dataclass(frozen=True, slots=True)
class _Company:
    name: str
    city: str
    countries: int
    revenue: float
    year: int
    employees: int
    founded: int
    ceo: str

    def document(self) -> Document:
        text = (
            f"{self.name} is headquartered in {self.city} and operates in {self.countries} countries. "
            f"In fiscal {self.year} the company reported revenue of ${self.revenue} billion. "
            f"It employs {self.employees} people worldwide. {self.name} was founded in {self.founded}. "
            f"Operating costs fell as logistics improved. The chief executive is {self.ceo}."
        )
        return Document(id=self.name.lower().replace(" ", "-"), text=text)

    def sentences(self, rng: random.Random) -> list[str]:
        """Claims about the company, some with a wrong value, in a random order."""
        wrong = rng.random() < 0.4
        facts = [
            f"{self.name} is headquartered in {rng.choice(_CITIES) if wrong else self.city}.",
            f"{self.name} operates in {self.countries + (3 if wrong else 0)} countries.",
            f"In fiscal {self.year} {self.name} reported revenue of ${self.revenue} billion.",
            f"{self.name} employs {self.employees} people.",
            f"{self.name} was founded in {self.founded - (2 if wrong else 0)}.",
            f"The chief executive of {self.name} is {self.ceo}.",
        ]
        return rng.sample(facts, k=rng.randint(2, 3))


_CITIES = ["Amsterdam", "Lyon", "Osaka", "Denver", "Porto", "Leeds", "Graz", "Turku"]
_NAMES = ["Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware", "Adatum"]
_CEOS = ["Ana Ruiz", "Tom Berg", "Mei Chen", "Raj Patel", "Eva Lind", "Sam Okafor"]


def _companies() -> list[_Company]:
    rng = random.Random(7)
    return [
        _Company(f"{n} Group", _CITIES[i], rng.randint(5, 40), round(rng.uniform(1, 9), 1), 2023,
                 rng.randint(2, 90) * 100, rng.randint(1950, 2005), _CEOS[i])
        for i, n in enumerate(_NAMES)
    ]  # fmt: skip


def make_workload(n: int, *, seed: int) -> list[Answer]:
    """`n` answers over six documents (alone or with a distractor), so document sets repeat."""
    rng, companies = random.Random(seed), _companies()
    answers = []
    for i in range(n):
        main, other = rng.sample(companies, k=2)
        docs = (main.document(), other.document()) if rng.random() < 0.5 else (main.document(),)
        text = " ".join(main.sentences(rng))
        answers.append(Answer(id=f"s{seed}-{i}", query=f"Tell me about {main.name}.", answer=text,
                              documents=docs, stakes="medium"))  # fmt: skip
    return answers


def run(
    out_dir: Path,
    *,
    settings: Settings | None = None,
    embedder: Embedder | None = None,
    checker: VerdictComponent | None = None,
    answers: int = 24,
) -> dict[str, Any]:
    """Runs the four phases; `out_dir` is where the bench runner writes the returned report."""
    settings = _bench_settings(settings or Settings.load())
    embedder, checker = _backends(settings, embedder, checker)
    embedder.encode(["warm up the model before any clock starts"])
    first, fresh = make_workload(answers, seed=1), make_workload(answers, seed=2)
    cache = open_cache(settings.cache, prefix=f"wpbench:{uuid.uuid4().hex[:8]}:")
    try:
        phases = _phases(settings, embedder, checker, cache, first=first, fresh=fresh)
    finally:
        cache.close()
    rate = {name: p["answers_per_s"] for name, p in phases.items()}
    return {
        "answers_per_phase": answers,
        "documents": len(_companies()),
        "backend": "redis" if isinstance(cache, RedisCache) else "lru",
        "phases": phases,
        "warm_over_cold": _ratio(rate["warm"], rate["cold"]),
        "repeat_over_cold": _ratio(rate["repeat"], rate["cold"]),
        "cold_over_no_cache": _ratio(rate["cold"], rate["no_cache"]),
    }


def _phases(
    settings: Settings,
    embedder: Embedder,
    checker: VerdictComponent,
    cache: Cache,
    *,
    first: list[Answer],
    fresh: list[Answer],
) -> dict[str, dict[str, Any]]:
    bare = Pipeline(settings=settings, embedder=embedder, checker=checker)
    cached = cached_backends(settings, embedder=embedder, checker=checker, cache=cache)
    pipeline = Pipeline(
        settings=settings, embedder=cached.embedder, checker=cached.checker, semantic=cached.semantic
    )
    again = [a.model_copy(update={"id": a.id + "-again"}) for a in first]
    return {
        "no_cache": _timed(bare, first, cache.stats),
        "cold": _timed(pipeline, first, cache.stats),
        "warm": _timed(pipeline, fresh, cache.stats),
        "repeat": _timed(pipeline, again, cache.stats),
    }


def _timed(pipeline: Pipeline, answers: Sequence[Answer], stats: CacheStats) -> dict[str, Any]:
    before = {k: stats.counts(k) for k in KINDS}
    t0 = time.perf_counter()
    routes = [pipeline.process(a).route.value for a in answers]
    seconds = time.perf_counter() - t0
    ratio = {}
    for kind in KINDS:
        hits, misses = (now - was for now, was in zip(stats.counts(kind), before[kind], strict=True))
        ratio[kind] = _ratio(hits, hits + misses)
    routes_seen = {r: routes.count(r) for r in sorted(set(routes))}
    return {"seconds": round(seconds, 4), "answers_per_s": _ratio(len(answers), seconds),
            "hit_ratio": ratio, "routes": routes_seen}  # fmt: skip


def _ratio(a: float, b: float) -> float:
    return round(a / b, 4) if b > 0 else 0.0


def _bench_settings(settings: Settings) -> Settings:
    """Short TTLs: a benchmark should not leave a week of entries in a shared Redis."""
    ttl = {"embedding_ttl_s": _BENCH_TTL_S, "verdict_ttl_s": _BENCH_TTL_S, "semantic_ttl_s": _BENCH_TTL_S}
    return settings.model_copy(update={"cache": settings.cache.model_copy(update=ttl)})


def _backends(
    settings: Settings, embedder: Embedder | None, checker: VerdictComponent | None
) -> tuple[Embedder, VerdictComponent]:
    if embedder is None:
        from workers.backends.embedder import load_embedder

        embedder = load_embedder(settings.models.embedder)
    if checker is None:
        from workers.backends.checker import OfflineChecker

        checker = OfflineChecker()
    return embedder, checker


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.cache_bench", description=__doc__)
    parser.add_argument("--answers", type=int, default=24, help="answers per phase")
    parser.add_argument("--out", type=Path, default=Path("bench/results"), help="folder for the JSON")
    args = parser.parse_args(argv)
    report = run(args.out, answers=args.answers)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "cache_bench.json").write_bytes(orjson.dumps(report, option=orjson.OPT_INDENT_2))
    print(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

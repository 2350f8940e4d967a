"""Benchmark: LLM latency added per answer, woodpecker's batched design beside a naive sequential one.

Both designs run in the same process against the same scripted OpenAI-compatible server
(`llm_fake`), which adds `delay_s` to every call. woodpecker: one extraction+decomposition call,
then all claims verified in one wave of concurrent chunked calls. Naive: one extraction call, then
per claim one decomposition call and one verification call, one after another. Retrieval is left
out on both sides (it is local and the same for both); each claim gets its one supporting window.

Usage::

    result = run(Path("bench/results"))                    # 200 ms per call, 1, 5 and 20 claims
    result = run(tmp_path, delay_s=0.02, sizes=(1, 5))     # fast, for tests
    python -m lab.llm_bench --out bench/results
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from lab.llm_fake import FakeLLMServer
from workers.backends.llm import LLMClient
from workers.backends.llm_checker import LLMChecker
from workers.backends.llm_extractor import Item, LLMExtractor, OfflineExtractor
from workers.backends.prompts import SYSTEM_DECOMPOSE, SYSTEM_VERIFY, DecompositionOut, VerificationOut
from workers.messages import Answer, Claim, Document, Evidence, Judgement
from workers.protocols import CheckResult
from workers.settings import LLMSettings, StageModel

__all__ = ["main", "run"]

_STAGE = StageModel(backend="openai", model="bench-model", timeout_s=30.0)


class _Unused:
    """The fallback checker; the scripted server never fails here."""

    name = "unused"

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        return [CheckResult(Judgement.INSUFFICIENT, "fallback") for _ in items]


def run(
    out_dir: Path, *, delay_s: float = 0.2, sizes: Sequence[int] = (1, 5, 20), batch_size: int = 10
) -> dict[str, Any]:
    """Per claim count: wall time, requests and sequential round trips of both designs."""
    with FakeLLMServer(delay_s=delay_s) as server:
        client = LLMClient(base_url=server.url, api_key="bench", policy=LLMSettings(max_concurrency=16))
        try:
            _row(server, client, 1, batch_size=batch_size)  # warm-up: imports, first connection
            rows = [_row(server, client, n, batch_size=batch_size) for n in sizes]
        finally:
            client.close()
    result: dict[str, Any] = {"delay_ms": round(delay_s * 1000), "rows": rows}
    for r in rows:
        n = r["claims"]
        result[f"added_ms_{n}"] = r["woodpecker"]["ms"]
        result[f"naive_ms_{n}"] = r["naive"]["ms"]
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / "llm_latency.json").write_bytes(orjson.dumps(result, option=orjson.OPT_INDENT_2))
    return result


def _row(server: FakeLLMServer, client: LLMClient, n: int, *, batch_size: int) -> dict[str, Any]:
    answer, windows = _answer(n)
    ours = _measure(server, lambda: _batched(client, answer, windows, batch_size=batch_size))
    naive = _measure(server, lambda: _naive(client, answer, windows))
    return {
        "claims": n,
        "woodpecker": ours,
        "naive": naive,
        "speedup": round(naive["ms"] / ours["ms"], 2) if ours["ms"] > 0 else None,
    }


def _measure(server: FakeLLMServer, design: Callable[[], int]) -> dict[str, Any]:
    before = len(server.requests)
    t0 = time.perf_counter()
    claims = design()
    ms = (time.perf_counter() - t0) * 1000.0
    fresh = FakeLLMServer.depth(server.requests[before:])
    return {
        "ms": round(ms, 1),
        "requests": len(server.requests) - before,
        "round_trips": fresh,
        "claims": claims,
    }


def _batched(client: LLMClient, answer: Answer, windows: dict[str, Evidence], *, batch_size: int) -> int:
    extractor = LLMExtractor(client=client, stage=_STAGE, offline=OfflineExtractor())
    items = extractor.extract(answer)
    checker = LLMChecker(
        client=client, stage=_STAGE, fallback=_Unused(), batch_size=batch_size, max_parallel=8
    )
    checker.judge_many([(c, _window_for(c, windows)) for c, _ in items])
    return len(items)


def _naive(client: LLMClient, answer: Answer, windows: dict[str, Evidence]) -> int:
    extractor = LLMExtractor(client=client, stage=_STAGE, offline=OfflineExtractor(), mode="extract")
    items: list[Item] = extractor.extract(answer)
    for claim, _ in items:
        one = [{"id": claim.id, "text": claim.text}]
        payload: dict[str, Any] = {"task": "decompose_claims", "question": answer.query, "claims": one}
        client.complete(stage=_STAGE, system=SYSTEM_DECOMPOSE, payload=payload, output=DecompositionOut)
        evidence = [{"window_id": "w0", "text": w.text} for w in _window_for(claim, windows)]
        payload = {
            "task": "verify_claims",
            "claims": [{"id": "k0", "text": claim.text, "evidence": evidence}],
        }
        client.complete(stage=_STAGE, system=SYSTEM_VERIFY, payload=payload, output=VerificationOut)
    return len(items)


def _answer(n: int) -> tuple[Answer, dict[str, Evidence]]:
    facts = [f"Warehouse {i} in Rotterdam stored {200 + i} pallets in May." for i in range(n)]
    doc = Document(id="stock", text=" ".join(facts))
    windows: dict[str, Evidence] = {}
    for i, fact in enumerate(facts):
        start = doc.text.index(fact)
        windows[f"Warehouse {i} "] = Evidence(doc_id="stock", start=start, end=start + len(fact), text=fact)
    return Answer(
        id=f"bench-{n}", query="How full were the warehouses?", answer=doc.text, documents=(doc,)
    ), windows


def _window_for(claim: Claim, windows: dict[str, Evidence]) -> list[Evidence]:
    return [w for key, w in windows.items() if claim.text.startswith(key)]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.llm_bench", description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    parser.add_argument("--delay-ms", type=float, default=200.0, help="latency the server adds per call")
    args = parser.parse_args(argv)
    result = run(args.out, delay_s=args.delay_ms / 1000.0)
    for r in result["rows"]:
        ours, naive = r["woodpecker"], r["naive"]
        print(
            f"{r['claims']:>3} claims: woodpecker {ours['ms']:>8.1f} ms ({ours['round_trips']} round trips, "
            f"{ours['requests']} calls)  naive {naive['ms']:>8.1f} ms ({naive['round_trips']} round trips)  "
            f"x{r['speedup']}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

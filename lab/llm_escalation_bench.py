"""Benchmark: what the escalation tier buys. never / uncertain / always, side by side, on the dev data.

The LLM verifier is a scripted oracle (`llm_fake`) that answers every claim with its GOLD label
(SUPPORT when the gold says supported, CONTRADICT when not, NEUTRAL without gold) and quotes the
window sentence that shares the most words with the claim; woodpecker's own checks still decide
whether it accepts that verdict. So the figures bound what a perfect LLM verifier adds on top of the
offline one (the trained cross-encoder with its rule checks), and what it costs in claims sent, calls
and tokens, when it sees every claim, only the uncertain ones, or none.

Quality is per claim with a gold label: predicted supported = VERIFIED; accuracy and balanced
accuracy against the gold, on the dev split of each dataset folder found under the data folder
(`WOODPECKER_BENCH_DATA`, else `../shared/data`); a missing folder is skipped with a note.

Usage::

    python -m lab.llm_escalation_bench --data ../shared/data --limit 20
    run(Path("bench/results"))          # from `make bench`
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import orjson

from lab.eval.adapters import load_dataset
from lab.eval.datasets import DatasetError, EvalItem, select
from lab.eval.metrics import binary_scores, confusion
from lab.eval.runner import Processor
from lab.llm_fake import FakeLLMServer, Scripted
from workers.messages import Corrected, Verdict
from workers.settings import Settings

__all__ = ["GoldOracle", "compare", "main", "run"]

MODES = ("never", "uncertain", "always")
DATASETS = ("factcheck-gpt", "faithbench", "halueval-qa")
_WORD = re.compile(r"[a-z]{4,}")
_SENTENCE = re.compile(r"[^.!?]+[.!?]?")


class GoldOracle:
    """A `Responder` for `FakeLLMServer`: verify_claims answered with the current item's gold labels."""

    def __init__(self) -> None:
        self.item: EvalItem | None = None

    def __call__(self, body: dict[str, Any]) -> Scripted:
        data = orjson.loads(body["messages"][-1]["content"])
        claims = data.get("claims", []) if data.get("task") == "verify_claims" else []
        verdicts = [self._verdict(c) for c in claims]
        return Scripted(content=orjson.dumps({"verdicts": verdicts}).decode())

    def _verdict(self, claim: dict[str, Any]) -> dict[str, Any]:
        gold = self._gold(claim["text"])
        label = "NEUTRAL" if gold is None else ("SUPPORT" if gold else "CONTRADICT")
        window, quote = _best_sentence(claim["text"], claim.get("evidence", []))
        return {
            "claim_id": claim["id"], "label": label, "window_id": window,
            "evidence_quote": quote if label != "NEUTRAL" else "", "reason": "gold label", "fixes": [],
        }  # fmt: skip

    def _gold(self, text: str) -> bool | None:
        if self.item is None:
            return None
        answer = self.item.answer.answer
        at = answer.find(text)
        return None if at < 0 else self.item.claim_gold(at, at + len(text))


def _best_sentence(claim: str, windows: Sequence[dict[str, str]]) -> tuple[str, str]:
    words = set(_WORD.findall(claim.lower()))
    best = (0, "", "")
    for w in windows:
        for s in _SENTENCE.findall(w.get("text", "")):
            score = len(words & set(_WORD.findall(s.lower())))
            if score > best[0]:
                best = (score, w["window_id"], s.strip())
    return best[1], best[2]


def _settings(url: str, escalate: str) -> Settings:
    verification = {"backend": "openai", "base_url": url, "model": "gold-oracle", "timeout_s": 30}
    return Settings.load(
        routing={"enabled": False},
        models={"verification": verification, "llm": {"max_retries": 0}},
        verification={"escalate": escalate},
    )


def _score(rows: Sequence[tuple[EvalItem, Corrected]], wall_s: float) -> dict[str, Any]:
    gold: list[bool] = []
    pred: list[bool] = []
    for item, out in rows:
        for c in out.claims:
            g = item.claim_gold(c.start, c.end)
            if g is not None:
                gold.append(not g)  # positive = unsupported, as in the eval reports
                pred.append(c.verdict is not Verdict.VERIFIED)
    scores = binary_scores(confusion(gold=gold, pred=pred))
    stats = [out.stats for _, out in rows]
    return {
        "answers": len(rows),
        "claims_scored": len(gold),
        "accuracy": scores.get("accuracy"),
        "balanced_accuracy": scores.get("balanced_accuracy"),
        "f1_unsupported": scores.get("f1"),
        "claims": sum(len(out.claims) for _, out in rows),
        "claims_escalated": sum(s.escalated for s in stats),
        "llm_calls": sum(s.llm_calls for s in stats),
        "tokens_in": sum(s.tokens_in for s in stats),
        "tokens_out": sum(s.tokens_out for s in stats),
        "fallbacks": sum(1 for s in stats if s.fallback),
        "wall_s": round(wall_s, 2),
    }


def _items(data: Path, limit: int) -> tuple[list[EvalItem], dict[str, Any]]:
    items: list[EvalItem] = []
    notes: dict[str, Any] = {}
    for name in DATASETS:
        folder = data / name
        if not folder.is_dir():
            notes[name] = f"skipped: no folder {folder}"
            continue
        try:
            chosen = select(load_dataset(name, folder), split="dev", limit=limit, seed=0)
        except DatasetError as exc:
            notes[name] = f"skipped: {exc}"
            continue
        items += chosen
        notes[name] = len(chosen)
    return items, notes


def compare(items: Sequence[EvalItem], make_pipeline: Callable[[Settings], Processor]) -> dict[str, Any]:
    """The three settings on the same items, the oracle answering with each item's gold labels."""
    oracle = GoldOracle()
    modes: dict[str, Any] = {}
    with FakeLLMServer(responder=oracle) as server:
        for mode in MODES:
            pipeline = make_pipeline(_settings(server.url, mode))
            rows: list[tuple[EvalItem, Corrected]] = []
            started = time.perf_counter()
            for item in items:
                oracle.item = item
                rows.append((item, pipeline.process(item.answer)))
            modes[mode] = _score(rows, time.perf_counter() - started)
    return modes


def run(out_dir: Path, *, data: Path | None = None, limit: int = 20) -> dict[str, Any]:
    """never / uncertain / always on the same dev items; `out_dir` is unused (the caller writes)."""
    from workers.pipeline import build_pipeline

    folder = data or Path(os.environ.get("WOODPECKER_BENCH_DATA", "../shared/data"))
    items, notes = _items(folder, limit)
    result: dict[str, Any] = {"data": str(folder), "datasets": notes, "oracle": "gold labels"}
    if not items:
        return result | {"skipped": "no dataset found"}
    return result | {"modes": compare(items, build_pipeline)}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.llm_escalation_bench")
    parser.add_argument("--data", type=Path, default=Path("../shared/data"))
    parser.add_argument("--limit", type=int, default=20, help="dev items of each kind per dataset")
    parser.add_argument("--out", type=Path, default=None, help="write the JSON result here")
    args = parser.parse_args(argv)
    result = run(args.out or Path("."), data=args.data, limit=args.limit)
    text = orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
    if args.out:
        args.out.write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Verifier benchmark: claim-evidence pairs per second at 128 tokens, int8 and fp32 side by side.

The issue's target is 50 pairs/s on 2 cores at 128 tokens. Pairs are cut or padded to exactly
`tokens` tokens so the figure does not depend on how long the sample texts are; the rule checks'
claims/s are measured in the same run for scale.

Usage::

    report = run(Path("bench/results"))     # what `make bench` calls; the runner writes the JSON
    report["int8"]["pairs_per_s"], report["int8_over_fp32"]

    python -m lab.trained_bench --pairs 256 --out bench/results
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

import torch

from workers.backends.checker import OfflineChecker
from workers.backends.crossenc import CrossEncoder, for_runtime, load_shipped, quantized, shipped_dir
from workers.messages import Claim, Evidence

__all__ = ["run"]

_CLAIM = "The company reported revenue of $4.1 billion in fiscal 2023, up 12% from the year before."
_EVIDENCE = (
    "In fiscal 2023 the company reported revenue of $4.1 billion, an increase of 12% on 2022, "
    "driven by its cloud division, which grew 31% and now employs 4,200 people in 14 countries. "
)


def _inputs(net: CrossEncoder, n: int, tokens: int) -> dict[str, torch.Tensor]:
    batch = net.tokenizer(
        [_CLAIM] * n, [_EVIDENCE * 8] * n, truncation="longest_first", max_length=tokens,
        padding="max_length", return_tensors="pt",
    )  # fmt: skip
    return {k: batch[k] for k in ("input_ids", "attention_mask", "token_type_ids")}


def _pairs_per_s(net: CrossEncoder, *, pairs: int, tokens: int, batch: int) -> float:
    inputs = _inputs(net, batch, tokens)
    with torch.inference_mode():
        net(**inputs)  # warm-up
        started = time.perf_counter()
        for _ in range(max(1, pairs // batch)):
            net(**inputs)
        return max(1, pairs // batch) * batch / (time.perf_counter() - started)


def _rules_per_s(claims: int) -> float:
    checker = OfflineChecker()
    window = Evidence(doc_id="d", start=0, end=len(_EVIDENCE), text=_EVIDENCE)
    items = [(Claim(id=str(i), text=_CLAIM, start=0, end=len(_CLAIM)), [window]) for i in range(claims)]
    started = time.perf_counter()
    checker.judge_many(items)
    return claims / (time.perf_counter() - started)


def run(out_dir: Path, *, pairs: int = 256, tokens: int = 128, batch: int = 32) -> dict[str, Any]:
    """The three runtimes measured one after the other in this process."""
    net, meta = load_shipped(shipped_dir())
    fp32 = _pairs_per_s(net, pairs=pairs, tokens=tokens, batch=batch)
    int8 = _pairs_per_s(quantized(net), pairs=pairs, tokens=tokens, batch=batch)  # a quantised copy
    fp16 = _pairs_per_s(for_runtime(net, "fp16"), pairs=pairs, tokens=tokens, batch=batch)  # in place
    return {
        "tokens": tokens,
        "threads": torch.get_num_threads(),
        "fp32": {"pairs_per_s": round(fp32, 1)},
        "int8": {"pairs_per_s": round(int8, 1)},
        "fp16": {"pairs_per_s": round(fp16, 1)},
        "int8_over_fp32": round(int8 / fp32, 2),
        "fp16_over_fp32": round(fp16 / fp32, 2),
        "rules_claims_per_s": round(_rules_per_s(pairs), 1),
        "target_pairs_per_s": 50,
        "layers": meta.layers,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.trained_bench")
    parser.add_argument("--pairs", type=int, default=256)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--out", type=Path, default=Path("bench/results"))
    args = parser.parse_args(argv)
    report = run(args.out, pairs=args.pairs, tokens=args.tokens)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "trained_bench.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

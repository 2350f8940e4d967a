"""Verifier benchmark: claim-evidence pairs per second at 128 tokens, fp32, int8 and fp16 side by side.

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
import copy
import json
import time
from pathlib import Path
from typing import Any

import torch

from workers.backends.checker import OfflineChecker
from workers.backends.cpu import effective_runtime
from workers.backends.crossenc import CrossEncoder, load_shipped, quantized, shipped_dir
from workers.backends.fp16 import half_weights
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


def run(
    out_dir: Path, *, pairs: int = 256, tokens: int = 128, batch: int = 32, rounds: int = 3
) -> dict[str, Any]:
    """The three runtimes side by side, in turn for `rounds` rounds, each keeping its best; and the one
    the default (`runtime = "fp16"`) runs on this CPU (`backends.cpu`: fp16 weights only with AVX-512)."""
    net, meta = load_shipped(shipped_dir())
    # fp16 weights whatever this CPU would choose, on a copy, so the comparison is always made.
    fp16 = copy.deepcopy(net)
    half_weights(fp16)  # in place
    nets = {"fp32": net, "int8": quantized(net), "fp16": fp16}
    best = dict.fromkeys(nets, 0.0)
    for _ in range(rounds):
        for name, model in nets.items():
            best[name] = max(best[name], _pairs_per_s(model, pairs=pairs, tokens=tokens, batch=batch))
    default = effective_runtime("fp16")
    return {
        "tokens": tokens,
        "threads": torch.get_num_threads(),
        "rounds": rounds,
        **{name: {"pairs_per_s": round(v, 1)} for name, v in best.items()},
        "int8_over_fp32": round(best["int8"] / best["fp32"], 2),
        "fp16_over_fp32": round(best["fp16"] / best["fp32"], 2),
        "default": {"runtime": default, "pairs_per_s": round(best[default], 1)},
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

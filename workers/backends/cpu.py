"""Whether fp16 weights pay on this CPU, read without torch (a correction worker never imports it).

fbgemm's packed fp16 GEMM (`backends.fp16`) streams half the weight bytes. On the AVX-512 EPYC of the
earlier sessions that made the verifier 1.7-2x and the embedder 1.8x as fast as fp32; on an EPYC with
AVX2 and no AVX-512 it does not: the verifier ran at 0.86-0.90x fp32 and the embedder at 0.97x, side
by side (2026-12-04, `python -m lab.trained_bench`; docs/SPEED.md). The numbers are fp32's either way
(within 1e-6 for the verifier, 1e-4 for the embedder), so the choice is speed only; the names cached
verdicts and vectors are keyed by say which ran.

`WOODPECKER_FP16=on` or `off` overrides the choice (a machine measured otherwise); where
`/proc/cpuinfo` cannot be read (not Linux), fp16 is kept, as before.

Usage::

    fp16_pays()                  # True with AVX-512
    effective_runtime("fp16")    # "fp32" where fp16 weights do not pay
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

__all__ = ["effective_runtime", "fp16_pays"]

_CPUINFO = Path("/proc/cpuinfo")


def fp16_pays() -> bool:
    """Whether the fp16-weight runtime is the faster one here (the environment's override, else AVX-512)."""
    wanted = os.environ.get("WOODPECKER_FP16", "").strip().lower()
    if wanted in ("on", "off"):
        return wanted == "on"
    return _has_avx512(_CPUINFO)


def effective_runtime(runtime: str) -> str:
    """The runtime that runs for the one asked for: "fp16" becomes "fp32" where fp16 does not pay."""
    return "fp32" if runtime == "fp16" and not fp16_pays() else runtime


@functools.cache
def _has_avx512(cpuinfo: Path) -> bool:
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True  # no /proc: keep fp16, what ran before this check
    flags = next((line for line in text.splitlines() if line.startswith("flags")), "")
    return "avx512f" in flags.split()

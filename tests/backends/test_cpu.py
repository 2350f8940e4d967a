"""fp16 weights only where they are the faster runtime (`workers.backends.cpu`), read without torch."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from workers.backends import cpu
from workers.backends.cpu import effective_runtime, fp16_pays


def _cpuinfo(tmp_path: Path, flags: str, *, name: str = "cpuinfo") -> Path:
    path = tmp_path / name
    path.write_text(f"processor\t: 0\nmodel name\t: AMD EPYC\nflags\t\t: {flags}\n\nprocessor\t: 1\n")
    return path


def test_fp16_is_chosen_with_avx512_and_fp32_without(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WOODPECKER_FP16", raising=False)
    monkeypatch.setattr(cpu, "_CPUINFO", _cpuinfo(tmp_path, "fpu sse2 avx avx2 fma f16c avx512f avx512bw"))
    assert fp16_pays() and effective_runtime("fp16") == "fp16"
    monkeypatch.setattr(cpu, "_CPUINFO", _cpuinfo(tmp_path, "fpu sse2 avx avx2 fma f16c", name="avx2"))
    assert not fp16_pays() and effective_runtime("fp16") == "fp32"
    # The other runtimes are what they say; only the foundation flag counts as AVX-512.
    assert effective_runtime("int8") == "int8" and effective_runtime("fp32") == "fp32"
    monkeypatch.setattr(cpu, "_CPUINFO", _cpuinfo(tmp_path, "avx2 avx512vl", name="partial"))
    assert not fp16_pays()


def test_the_environment_overrides_the_cpu_and_no_proc_keeps_fp16(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cpu, "_CPUINFO", _cpuinfo(tmp_path, "avx2"))
    monkeypatch.setenv("WOODPECKER_FP16", "on")
    assert fp16_pays()
    monkeypatch.setenv("WOODPECKER_FP16", "OFF")
    assert not fp16_pays()
    monkeypatch.setenv("WOODPECKER_FP16", "auto")
    assert not fp16_pays()
    monkeypatch.setattr(cpu, "_CPUINFO", tmp_path / "missing")
    assert fp16_pays()  # not Linux: as before this check


def test_the_choice_imports_no_torch() -> None:
    code = "import sys; from workers.backends import cpu; cpu.fp16_pays(); print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"

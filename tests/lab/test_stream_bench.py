"""The stream bench's CPU accounting (lab/stream_bench.py): which process kept a core busy."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from lab.stream_bench import busy_cores, cpu_seconds

pytestmark = pytest.mark.skipif(not Path("/proc/stat").exists(), reason="reads /proc (Linux)")


def test_a_busy_loop_shows_as_cpu_seconds_of_this_process_and_of_the_machine() -> None:
    before = cpu_seconds({"me": os.getpid()})
    started = time.perf_counter()
    while time.perf_counter() - started < 0.3:
        pass
    after = cpu_seconds({"me": os.getpid()})
    assert set(before) == {"me", "machine"}
    assert after["me"] - before["me"] >= 0.15
    assert after["machine"] - before["machine"] >= after["me"] - before["me"] - 0.05


def test_busy_cores_divides_by_the_run_and_skips_what_one_side_lacks() -> None:
    cores = busy_cores({"a": 1.0, "gone": 2.0, "machine": 10.0}, {"a": 3.0, "machine": 13.0}, seconds=2.0)
    assert cores == {"a": 1.0, "machine": 1.5}
    assert busy_cores({"a": 1.0}, {"a": 2.0}, seconds=0.0) == {}
    # A process that is gone is left out (a pid past pid_max), the rest still counted.
    assert set(cpu_seconds({"gone": 2**22 + 7, "me": os.getpid()})) == {"me", "machine"}

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


def test_the_broker_is_found_by_the_port_on_its_command_line() -> None:
    import subprocess
    import sys

    from lab.stream_bench import broker_pid

    # A stand-in with the embedded broker's argv shape: `... --kafka-port PORT`.
    script = "import time; time.sleep(30)"
    proc = subprocess.Popen([sys.executable, "-c", script, "--kafka-port", "47123"])
    try:
        # Until the child has exec'd, its /proc cmdline is still the parent's (seen on a loaded machine).
        deadline = time.monotonic() + 20.0
        while broker_pid("127.0.0.1:47123") is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert broker_pid("127.0.0.1:47123") == proc.pid
        assert broker_pid("127.0.0.1:47124") is None
    finally:
        proc.kill()
        proc.wait()


def test_the_headline_ratio_is_the_median_of_pairs_run_side_by_side() -> None:
    from lab.stream_bench import _result

    def pair(batch: float, stream: float) -> tuple[dict[str, object], dict[str, object]]:
        return {"answers_per_s": batch}, {"burst": {"answers_per_s": stream}, "busy_cores_in_burst": {}}

    # The second round ran on a slow minute for the stream: its pair says 0.5, the median ignores it.
    result = _result(True, {"answers_per_s": 3.0}, [pair(6.0, 5.7), pair(6.0, 3.0), pair(5.0, 4.6)])
    assert [r["ratio"] for r in result["rounds"]] == [0.95, 0.5, 0.92]
    assert result["stream_to_batch_ratio"] == 0.92
    assert result["batch"] == {"answers_per_s": 6.0}  # the first round in full, as one round gives
    assert result["stream_to_in_process_ratio"] == 1.9

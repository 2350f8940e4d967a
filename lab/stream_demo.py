"""`make run`: a real broker, the three agents as separate processes, the examples in, diffs out.

Usage::

    python -m lab.stream_demo [examples/answers.jsonl]
    KAFKA_BOOTSTRAP=kafka:9092 python -m lab.stream_demo      # an existing cluster instead

Starts the embedded noida-db broker (unless KAFKA_BOOTSTRAP is set), one extraction, two verification
and one correction worker with the sampler at 100%, publishes the file with `woodpecker publish`,
shows each corrected answer as it arrives with `woodpecker tail`, lists anything dead-lettered, stops
the workers (SIGTERM), and ends with the review console (`woodpecker review serve`, over a private
Redis unless WOODPECKER_REDIS_URL is set) serving the answers held for review: its address and a
one-time demo credential are printed, and it runs until Ctrl-C (on a terminal; otherwise for
WOODPECKER_DEMO_HOLD_S seconds, default none), then the broker stops. Topics get a fresh prefix per
run, so repeated runs against one cluster never mix.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path

import orjson

from lab.broker import kafka_bootstrap
from lab.cluster import LocalCluster
from workers.errors import InvalidMessage
from workers.settings import Settings
from workers.validate import parse_answer

__all__ = ["main"]

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "answers.jsonl"


def _say(text: str) -> None:
    print(f"\n== {text}", file=sys.stderr, flush=True)


def _valid_count(path: Path) -> int:
    """How many lines will come out corrected (the rest go to the dead-letter topic)."""
    limits = Settings.load().limits
    count = 0
    for line in path.read_bytes().splitlines():
        if not line.strip():
            continue
        try:
            parse_answer(line, limits=limits)
        except InvalidMessage:
            continue
        count += 1
    return count


def _woodpecker(args: Sequence[str], *, env: Mapping[str, str], timeout_s: float) -> int:
    command = [sys.executable, "-m", "workers.cli", *args]
    return subprocess.run(command, env=dict(env), timeout=timeout_s, check=False).returncode


def main(argv: Sequence[str] | None = None) -> int:
    path = Path((list(argv) if argv is not None else sys.argv[1:] or [str(EXAMPLES)])[0])
    expected = _valid_count(path)
    prefix = f"demo-{uuid.uuid4().hex[:8]}."
    env = {"WOODPECKER_SAMPLER__RATE": "1.0", "WOODPECKER_KAFKA__TOPIC_PREFIX": prefix}
    _say("starting the broker" if not os.environ.get("KAFKA_BOOTSTRAP") else "using KAFKA_BOOTSTRAP")
    with kafka_bootstrap() as bootstrap, LocalCluster(bootstrap=bootstrap, env=env) as cluster:
        _say(f"broker at {bootstrap}; starting workers: extraction x1, verification x2, correction x1")
        started = time.monotonic()
        cluster.start("extraction")
        cluster.start("verification", replicas=2)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=180)
        _say(f"workers ready after {time.monotonic() - started:.1f} s; publishing {path}")
        child_env = cluster.child_env()
        _woodpecker(["publish", str(path)], env=child_env, timeout_s=120)
        _say(f"corrected answers as they arrive ({expected} expected, less those held for review)")
        code = _woodpecker(
            # No --limit: the answers held for review never reach this topic; stop when it goes quiet.
            ["tail", "--from-beginning", "--timeout=30"],
            env=child_env,
            timeout_s=300,
        )
        _say("answers held for review (`woodpecker review approve` publishes them)")
        _woodpecker(
            ["tail", "--topic=review", "--from-beginning", "--timeout=2"], env=child_env, timeout_s=60
        )
        _say("dead-lettered input, if any")
        _woodpecker(
            ["tail", "--topic=deadletter", "--from-beginning", "--timeout=2"], env=child_env, timeout_s=60
        )
        cluster.stop()  # the console needs only the broker (and Redis)
        _review_console(child_env, tenants=_tenants(path))
        _say("stopping the broker")
    return code


def _tenants(path: Path) -> list[str]:
    """The tenants of the demo's answers (each gets the demo reviewer)."""
    tenants: set[str] = set()
    for line in path.read_bytes().splitlines():
        with contextlib.suppress(orjson.JSONDecodeError, AttributeError):
            tenants.add(str(orjson.loads(line).get("tenant") or ""))
    return sorted(tenants)


def _review_console(env: Mapping[str, str], *, tenants: list[str]) -> None:
    """Serve the review console over the demo's review items until Ctrl-C (or WOODPECKER_DEMO_HOLD_S)."""
    from lab.console_demo import DEMO_REVIEWER, demo_console

    hold = os.environ.get("WOODPECKER_DEMO_HOLD_S")
    with demo_console(env=env, tenants=tenants) as (url, password):
        names = ", ".join(t or "(none)" for t in tenants)
        _say(
            f"review console: {url}\n   sign in as reviewer {DEMO_REVIEWER!r}, password {password!r}, "
            f"tenant one of: {names}\n   (keys: j/k move, a approve, e edit, r reject)"
        )
        try:
            if hold is not None:
                time.sleep(float(hold))
            elif sys.stdin.isatty():
                print("   press Ctrl-C to stop the console and the broker", file=sys.stderr, flush=True)
                while True:
                    time.sleep(3600)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    sys.exit(main())

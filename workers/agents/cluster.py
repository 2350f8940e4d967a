"""Worker processes on this machine, for `make run`, the benchmark and the integration tests.

Usage::

    with LocalCluster(bootstrap=bootstrap, env={"WOODPECKER_SAMPLER__RATE": "1.0"}) as cluster:
        cluster.start("extraction")
        cluster.start("verification", replicas=2)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=60)
        ...                                      # publish, consume
    # every worker got SIGTERM (SIGKILL if it lingered), in reverse start order

Each worker is `python -m workers.cli worker --agents NAME` with its own log and status file in the
cluster's scratch directory; they share one app id (consumer group), unique per cluster unless given.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

__all__ = ["LocalCluster", "WorkerProcess"]


@dataclass
class WorkerProcess:
    name: str
    agents: str
    process: subprocess.Popen[bytes]
    status_file: Path
    log_file: Path
    signalled: bool = False

    def status(self) -> dict[str, Any] | None:
        """The worker's last status file (assignment, counters), or None before its first write."""
        try:
            data: dict[str, Any] = orjson.loads(self.status_file.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        return data

    def assigned(self) -> dict[str, list[int]]:
        status = self.status() or {}
        return dict(status.get("assigned") or {})

    def alive(self) -> bool:
        return self.process.poll() is None

    def send_signal(self, sig: int = signal.SIGTERM) -> None:
        """Send `sig` once; a second SIGTERM late in faust's shutdown would hit the default handler."""
        if self.alive() and not self.signalled:
            self.process.send_signal(sig)
            self.signalled = True

    def stop(self, *, sig: int = signal.SIGTERM, timeout_s: float = 20.0) -> int:
        """Signal the worker by PID (unless already signalled) and wait; SIGKILL if it lingers."""
        if self.alive():
            self.send_signal(sig)
            try:
                self.process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=timeout_s)
        return int(self.process.returncode)

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


@dataclass
class LocalCluster:
    bootstrap: str
    env: Mapping[str, str] = field(default_factory=dict)
    app_id: str = field(default_factory=lambda: f"woodpecker-{uuid.uuid4().hex[:10]}")
    pipeline_factory: str | None = None
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="woodpecker-cluster-")))
    keep_workdir: bool = False
    workers: list[WorkerProcess] = field(default_factory=list)
    started: int = 0

    def child_env(self) -> dict[str, str]:
        env = {**os.environ, **self.env, "KAFKA_BOOTSTRAP": self.bootstrap, "PYTHONUNBUFFERED": "1"}
        env.setdefault("HF_HUB_OFFLINE", "1")
        # Several torch processes on few cores: one thread each avoids oversubscription (10x on 2 cores).
        env.setdefault("OMP_NUM_THREADS", "1")
        return env

    def start(self, agents: str, *, replicas: int = 1, loglevel: str = "warning") -> list[WorkerProcess]:
        return [self._start_one(agents, loglevel=loglevel) for _ in range(replicas)]

    def _start_one(self, agents: str, *, loglevel: str) -> WorkerProcess:
        self.started += 1
        name = f"{agents.replace(',', '+')}-{self.started}"
        status_file, log_file = self.workdir / f"{name}.status.json", self.workdir / f"{name}.log"
        status_file.unlink(missing_ok=True)
        args = [sys.executable, "-m", "workers.cli", "worker", "--agents", agents, "--app-id", self.app_id]
        args += ["--status-file", str(status_file), "--loglevel", loglevel]
        if self.pipeline_factory:
            args += ["--pipeline-factory", self.pipeline_factory]
        with log_file.open("ab") as log:
            process = subprocess.Popen(
                args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, env=self.child_env(),
                start_new_session=True,
            )  # fmt: skip
        worker = WorkerProcess(name, agents, process, status_file, log_file)
        self.workers.append(worker)
        return worker

    def restart(self, worker: WorkerProcess, *, loglevel: str = "warning") -> WorkerProcess:
        """A fresh process in place of `worker` (after it stopped), same agents, same group."""
        worker.stop()
        self.workers.remove(worker)
        return self._start_one(worker.agents, loglevel=loglevel)

    def wait_assigned(self, *, timeout_s: float = 90.0) -> None:
        """Until every running worker reports partitions of its agents' topics (or raise with logs)."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            dead = [w for w in self.workers if not w.alive()]
            if dead:
                raise RuntimeError(f"worker {dead[0].name} exited:\n{dead[0].log_tail()}")
            if all(_has_source_partitions(w) for w in self.workers):
                return
            time.sleep(0.25)
        waiting = [w.name for w in self.workers if not _has_source_partitions(w)]
        raise TimeoutError(f"workers without partitions after {timeout_s:.0f} s: {', '.join(waiting)}")

    def stop(self) -> dict[str, int]:
        codes = {w.name: w.stop() for w in reversed(self.workers)}
        if not self.keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        return codes

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _has_source_partitions(worker: WorkerProcess) -> bool:
    status = worker.status() or {}
    assigned = status.get("assigned") or {}
    return bool(status.get("sources")) and all(assigned.get(topic) for topic in status["sources"])

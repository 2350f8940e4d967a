"""Worker processes on this machine, for `make run`, the benchmark and the integration tests.

Usage::

    with LocalCluster(bootstrap=bootstrap, env={"WOODPECKER_SAMPLER__RATE": "1.0"}) as cluster:
        cluster.start("extraction")
        cluster.start("verification", replicas=2)
        cluster.start("correction")
        cluster.wait_assigned(timeout_s=60)
        ...                                      # publish, consume
        cluster.restart(cluster.kill(worker))    # SIGKILL, then a fresh process in its place
    # every worker got SIGTERM (SIGKILL if it lingered), in reverse start order

Each worker is `python -m workers.cli worker --agents NAME` with its own log and status file in the
cluster's scratch directory; they share one app id (consumer group), unique per cluster unless given.
A worker that died without leaving its groups (SIGKILL) is evicted from them on restart, as a real
broker's session timeout would do; the embedded noida-db broker never expires members (shutdown.py).
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from workers.agents.compat import broker_kind
from workers.agents.context import worker_name
from workers.agents.shutdown import client_id, evict_members
from workers.settings import KafkaSettings

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

    def groups(self, app_id: str) -> list[str]:
        return [f"{app_id}-{agent}" for agent in self.agents.split(",")]

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
    kafka: KafkaSettings = field(default_factory=KafkaSettings)  # connection options for evictions
    app_id: str = field(default_factory=lambda: f"woodpecker-{uuid.uuid4().hex[:10]}")
    pipeline_factory: str | None = None
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="woodpecker-cluster-")))
    keep_workdir: bool = False
    workers: list[WorkerProcess] = field(default_factory=list)
    started: int = 0

    def child_env(self) -> dict[str, str]:
        env = {**os.environ, **self.env, "KAFKA_BOOTSTRAP": self.bootstrap, "PYTHONUNBUFFERED": "1"}
        # A worker cannot tell an embedded broker from its address; this process can (compat.py).
        env.setdefault("WOODPECKER_KAFKA__BROKER", broker_kind(self.kafka, bootstrap=self.bootstrap))
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

    def kill(self, worker: WorkerProcess) -> WorkerProcess:
        """SIGKILL `worker` by PID, as a crash would, and wait for it: it leaves no group."""
        if worker.alive():
            worker.process.kill()
            worker.signalled = True
        worker.process.wait(timeout=30)
        return worker

    def restart(self, worker: WorkerProcess, *, loglevel: str = "warning") -> WorkerProcess:
        """A fresh process in place of `worker` (after it stopped), same agents, same group.

        A worker that was killed is evicted from its groups first (see `evict`).
        """
        worker.stop()
        if worker.process.returncode != 0:
            self.evict(worker)
        self.workers.remove(worker)
        return self._start_one(worker.agents, loglevel=loglevel)

    def evict(self, worker: WorkerProcess) -> list[str]:
        """Remove a dead worker's members from its groups; returns their member ids."""
        if worker.alive():
            raise RuntimeError(f"worker {worker.name} is alive; stop it before evicting it")
        name = worker_name(worker.process.pid)
        evicted: list[str] = []
        for group in worker.groups(self.app_id):
            evicted += _run(
                evict_members(
                    self.kafka, bootstrap=self.bootstrap, groups=[group], client=client_id(group, worker=name)
                )
            )
        return evicted

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
        waiting = [w for w in self.workers if not _has_source_partitions(w)]
        logs = "\n".join(f"--- {w.name}: {w.status()}\n{w.log_tail(20)}" for w in waiting)
        names = ", ".join(w.name for w in waiting)
        raise TimeoutError(f"workers without partitions after {timeout_s:.0f} s: {names}\n{logs}")

    def stop(self) -> dict[str, int]:
        codes = {w.name: w.stop() for w in reversed(self.workers)}
        if not self.keep_workdir:
            shutil.rmtree(self.workdir, ignore_errors=True)
        return codes

    def __enter__(self) -> LocalCluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _run(coro: Any) -> Any:
    """Run `coro` to completion from sync code, also when the caller is inside a running event loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result(timeout=60)


def _has_source_partitions(worker: WorkerProcess) -> bool:
    status = worker.status() or {}
    assigned = status.get("assigned") or {}
    return bool(status.get("sources")) and all(assigned.get(topic) for topic in status["sources"])

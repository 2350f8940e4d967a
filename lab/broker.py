"""A real Kafka-protocol broker for tests and `make run`: `noida-db` from PyPI, or `KAFKA_BOOTSTRAP`.

Usage::

    with kafka_bootstrap() as bootstrap:          # "127.0.0.1:PORT", or $KAFKA_BOOTSTRAP when set
        run_workers(bootstrap)

    broker = EmbeddedBroker.start()               # a fresh data dir and a free port
    broker.stop()                                 # SIGTERM by PID, SIGKILL if it lingers; data dir removed
    compat.broker_kind(settings.kafka, bootstrap=bootstrap)   # "embedded": a broker started here

The binary runs directly (`noida-db start --data-dir DIR --only kafka --kafka-port PORT`), never through
its Python wrapper, so the PID we hold is the broker's own and stopping it cannot miss a child.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import IO

from workers.agents import compat
from workers.errors import ConfigError

__all__ = ["EmbeddedBroker", "broker_binary", "free_port", "kafka_bootstrap", "wait_for_port"]

HOST = "127.0.0.1"


def broker_binary() -> Path:
    """The `noida-db` executable shipped inside the `noida_db` package."""
    spec = find_spec("noida_db")
    if spec is None or spec.origin is None:
        raise ConfigError(
            "the noida-db package is not installed (pip install noida-db), or set KAFKA_BOOTSTRAP"
        )
    path = Path(spec.origin).parent / "noida-db"
    if not path.is_file():
        raise ConfigError(f"noida-db binary not found at {path}")
    if not os.access(path, os.X_OK):
        path.chmod(0o755)
    return path


def free_port(host: str = HOST) -> int:
    """A port nothing listens on right now (the OS picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def wait_for_port(
    host: str, port: int, *, timeout_s: float, alive: subprocess.Popen[bytes] | None = None
) -> None:
    """Block until `host:port` accepts connections; fail early if `alive` exits."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if alive is not None and alive.poll() is not None:
            raise ConfigError(f"the broker exited with code {alive.returncode} before listening on {port}")
        with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
            return
        time.sleep(0.1)
    raise TimeoutError(f"nothing listens on {host}:{port} after {timeout_s:.0f} s")


@dataclass(frozen=True)
class EmbeddedBroker:
    """A running noida-db Kafka broker that this process started and owns."""

    port: int
    pid: int
    data_dir: Path
    log_path: Path
    _process: subprocess.Popen[bytes]

    @property
    def bootstrap(self) -> str:
        return f"{HOST}:{self.port}"

    @classmethod
    def start(cls, *, port: int | None = None, timeout_s: float = 30.0) -> EmbeddedBroker:
        data_dir = Path(tempfile.mkdtemp(prefix="woodpecker-kafka-"))
        chosen = port or free_port()
        log_path = data_dir / "broker.log"
        args = [str(broker_binary()), "start", "--data-dir", str(data_dir / "data")]
        args += ["--host", HOST, "--only", "kafka", "--kafka-port", str(chosen)]
        with log_path.open("wb") as log:
            process = _spawn(args, log)
        broker = cls(port=chosen, pid=process.pid, data_dir=data_dir, log_path=log_path, _process=process)
        try:
            wait_for_port(HOST, chosen, timeout_s=timeout_s, alive=process)
        except BaseException:
            broker.stop()
            raise
        compat.mark_embedded(broker.bootstrap)
        return broker

    def stop(self, *, timeout_s: float = 10.0) -> int:
        """Stop the broker by its PID and remove its data; returns its exit code."""
        compat.unmark_embedded(self.bootstrap)
        if self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(timeout=timeout_s)
        shutil.rmtree(self.data_dir, ignore_errors=True)
        return int(self._process.returncode)

    def __enter__(self) -> EmbeddedBroker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _spawn(args: list[str], log: IO[bytes]) -> subprocess.Popen[bytes]:
    # Its own session: a Ctrl-C in the terminal reaches us, and we stop the broker in order.
    return subprocess.Popen(
        args, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


@contextlib.contextmanager
def kafka_bootstrap(*, env: Mapping[str, str] | None = None) -> Iterator[str]:
    """`KAFKA_BOOTSTRAP` when it names a cluster, else an embedded broker for the duration."""
    existing = (env if env is not None else os.environ).get("KAFKA_BOOTSTRAP", "").strip()
    if existing:
        yield existing
        return
    with EmbeddedBroker.start() as broker:
        yield broker.bootstrap

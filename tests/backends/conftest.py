"""A real llama.cpp server (xllamacpp + the packaged Gemma 3 270M), started once per test session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lab.llm_local import LocalLLMServer, LocalLLMUnavailable


@pytest.fixture(scope="session")
def llama_server() -> Iterator[LocalLLMServer]:
    """Skipped only when its PyPI packages are not installed (`make test` installs them with `.[dev]`);
    a server that is installed but does not start fails the tests that use it."""
    server = LocalLLMServer(threads=2, parallel=2, ctx=8192)
    try:
        server.start()
    except LocalLLMUnavailable as exc:
        if "not installed" in str(exc):
            pytest.skip(f"real llama.cpp server unavailable: {exc}")
        raise
    try:
        yield server
    finally:
        server.stop()

"""The scripted OpenAI-compatible HTTP server the LLM tests talk to, and helpers around it.

The server itself lives in `lab.llm_fake` so `make bench` can use it too; this module
adds what tests need: clients wired to it with a recorded (not real) sleep, and reply builders.

Usage::

    with FakeLLMServer(delay_s=0.05) as server:
        client, sleeps = make_client(server, max_retries=2)
        server.script(Scripted(status=429, headers={"Retry-After": "1"}))
        client.complete(stage=stage(), system="...", payload={...}, output=Model)
        assert sleeps == [1.0] and len(server.requests) == 2
"""

from __future__ import annotations

from typing import Any

import orjson

from lab.llm_fake import FakeLLMServer, Recorded, Scripted, oracle
from workers.backends.llm import LLMClient
from workers.settings import LLMSettings, StageModel

__all__ = ["FakeLLMServer", "Recorded", "Scripted", "make_client", "oracle", "reply", "stage"]


def stage(*, model: str = "verifier-13b", timeout_s: float = 5.0, base_url: str | None = None) -> StageModel:
    return StageModel(backend="openai", model=model, base_url=base_url, timeout_s=timeout_s, max_tokens=512)


def make_client(
    server: FakeLLMServer, *, prices: dict[str, tuple[float, float]] | None = None, **policy: Any
) -> tuple[LLMClient, list[float]]:
    """A client for `server` whose backoff sleeps are recorded instead of slept; jitter fixed at 0.5."""
    sleeps: list[float] = []
    settings = LLMSettings(**({"backoff_base_s": 0.01, "backoff_max_s": 0.05} | policy))
    client = LLMClient(
        base_url=server.url,
        api_key="test-key",
        policy=settings,
        prices=prices,
        sleep=sleeps.append,
        jitter=lambda: 0.5,
    )
    return client, sleeps


def reply(obj: object, **kwargs: Any) -> Scripted:
    """A 200 reply whose assistant content is `obj` as JSON."""
    return Scripted(content=orjson.dumps(obj).decode(), **kwargs)

"""Against a REAL llama.cpp server (xllamacpp wheel + Gemma 3 270M from PyPI), through a recording proxy.

These prove the plumbing, not the model: a 270M model verifies badly, so nothing here asserts a
verdict. What must hold on a real server: every structured-output mode is accepted, an answer takes at
most 3 sequential round trips whatever its claim count (as the proxy measures it), `stats` carries the
calls and tokens the server reported, and every verdict an LLM failure touched says "offline fallback",
with the reason in `stats.fallback`. Calls are kept few and short (small `max_tokens` ceilings).
The server is started once per session (`llama_server` in conftest.py); the kill test runs last.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from pydantic import BaseModel

from lab.llm_local import MODEL_NAME, LocalLLMServer
from lab.llm_proxy import RecordingProxy
from tests.fakes import HashEmbedder, ScriptedChecker
from workers.backends.llm import LLMClient, LLMError
from workers.backends.llm_checker import LLMChecker
from workers.backends.llm_usage import usage_scope
from workers.backends.llm_wiring import build_llm_parts
from workers.messages import Answer, Claim, Document, Evidence, Judgement
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.settings import LLMSettings, Settings, StageModel

pytestmark = pytest.mark.slow

OFFLINE = CheckResult(Judgement.NEUTRAL, "offline stand-in")


@pytest.fixture
def proxy(llama_server: LocalLLMServer) -> Iterator[RecordingProxy]:
    with RecordingProxy(upstream=llama_server.url) as p:
        yield p


class Label(BaseModel):
    label: Literal["SUPPORT", "CONTRADICT", "NEUTRAL", "INSUFFICIENT"]


def _stage(*, max_tokens: int = 96, timeout_s: float = 300.0) -> StageModel:
    # Generous: a few seconds on a machine of its own, minutes on one whose cores other work has taken.
    return StageModel(
        backend="openai", model=MODEL_NAME, temperature=0.0, max_tokens=max_tokens, timeout_s=timeout_s
    )


def _client(url: str, **policy: Any) -> LLMClient:
    settings = LLMSettings(**({"max_retries": 1, "backoff_base_s": 0.05, "backoff_max_s": 0.1} | policy))
    return LLMClient(base_url=url, api_key="local", policy=settings)


@pytest.mark.parametrize("mode", ["json_schema", "json_object", "prompt"])
def test_each_structured_output_mode_is_accepted(proxy: RecordingProxy, mode: str) -> None:
    client = _client(proxy.url, structured_output=mode, max_retries=0)
    system = 'Label the claim against the evidence. Reply {"label": "SUPPORT"} or {"label": "CONTRADICT"}.'
    payload = {"claim": "Revenue was $4.2 billion.", "evidence": "Revenue was $4.2 billion in 2023."}
    try:
        reply = client.complete(stage=_stage(), system=system, payload=payload, output=Label, max_tokens=24)
    except LLMError as exc:  # JSON mode and plain prompts do not bind a 270M model to the schema
        assert mode != "json_schema", exc
        assert exc.kind == "invalid_output" and exc.usage.calls == len(proxy.requests)
    else:
        assert reply.mode == mode and reply.usage.calls == len(proxy.requests)
        assert (reply.usage.tokens_in, reply.usage.tokens_out) == proxy.tokens()
    finally:
        client.close()
    assert [r.status for r in proxy.requests] == [200] * len(proxy.requests)
    formats = [(r.body.get("response_format") or {}).get("type", "prompt") for r in proxy.requests]
    assert set(formats) == {mode}
    assert all(r.body["max_tokens"] == 24 and r.body["stop"] for r in proxy.requests)


def _settings(url: str) -> Settings:
    stage = {"backend": "openai", "base_url": url, "model": MODEL_NAME, "max_tokens": 96, "timeout_s": 300}
    # No retries: a retry is one more sequential request, and these tests count what a user would see of
    # the design, not of a machine too busy to answer in time (that falls back, marked, and still passes).
    llm = {"max_retries": 0, "verify_batch_size": 10, "max_concurrency": 2, "answer_budget_s": 900}
    models = {
        "extraction": stage,
        "decomposition": stage,
        "verification": stage,
        "correction": stage,
        "llm": llm,
    }
    # One short window per claim keeps the prompts (and the test) small.
    retrieval = {"top_k": 1, "max_window_sentences": 1}
    return Settings.load(routing={"enabled": False}, models=models, retrieval=retrieval)


def _answer(n: int) -> Answer:
    facts = [f"Depot {i} shipped {100 + i} parcels in March." for i in range(n)]
    said = [f.replace(f"{100 + i} ", f"{900 + i} ") if i == n - 1 else f for i, f in enumerate(facts)]
    return Answer(
        id=f"real-{n}",
        query="How many parcels?",
        answer=" ".join(said),
        documents=(Document(id="log", text=" ".join(facts)),),
    )


@pytest.mark.parametrize("n", [1, 5, 20])
def test_one_answer_takes_at_most_three_round_trips_with_its_spend_in_stats(
    proxy: RecordingProxy, n: int
) -> None:
    settings = _settings(proxy.url)
    # The offline stand-in says CONTRADICT without a fix, so a fallback also leads to the correction call.
    offline = ScriptedChecker(default=CheckResult(Judgement.CONTRADICT, "offline stand-in"), name="offline")
    parts = build_llm_parts(settings, offline_checker=offline, environ={})
    assert parts.checker is not None
    pipeline = Pipeline(
        settings=settings, embedder=HashEmbedder(), checker=parts.checker,
        extractor=parts.extractor, rewriter=parts.rewriter,
    )  # fmt: skip
    try:
        out = pipeline.process(_answer(n))
    finally:
        parts.close()
    assert proxy.wait_idle(timeout_s=300)
    assert proxy.round_trips() <= 3, [(r.body.get("messages"), r.status) for r in proxy.requests]
    s = out.stats
    assert s.llm_calls == len(proxy.requests) >= 1
    if "Timeout" not in (s.fallback or ""):  # a reply the client stopped waiting for is the proxy's only
        assert (s.tokens_in, s.tokens_out) == proxy.tokens() and s.tokens_in > 0
    assert s.llm_stages is not None and "extraction" in s.llm_stages
    assert sum(u.calls for u in s.llm_stages.values()) == s.llm_calls
    assert s.escalated == len(out.claims)
    # No silent fallback: a verification fallback is in stats and on each verdict it decided.
    fell_back = [c for c in out.claims if "offline fallback" in c.reason]
    assert bool(fell_back) == ("verification:" in (s.fallback or ""))
    assert out.claims, "the offline stages take over when the model's claims cannot be placed"


def _items(k: int) -> list[tuple[Claim, list[Evidence]]]:
    out = []
    for i in range(k):
        text = f"Depot {i} shipped {100 + i} parcels in March."
        claim = Claim(
            id=f"c{i}",
            text=text,
            start=0,
            end=len(text),
            sentence=0,
            sentence_start=0,
            sentence_end=len(text),
        )
        out.append((claim, [Evidence(doc_id="log", start=0, end=len(text), text=text, score=1.0)]))
    return out


def _checker(url: str, *, timeout_s: float, max_tokens: int) -> LLMChecker:
    client = _client(url, max_retries=1, tokens_per_claim=max_tokens, answer_budget_s=None)
    offline = ScriptedChecker(default=OFFLINE, name="offline")
    return LLMChecker(
        client=client, stage=_stage(max_tokens=max_tokens, timeout_s=timeout_s), fallback=offline
    )


def test_a_slow_server_past_the_timeout_falls_back_marked(llama_server: LocalLLMServer) -> None:
    checker = _checker(llama_server.url, timeout_s=0.2, max_tokens=256)
    with usage_scope() as ledger:
        results = checker.judge_many(_items(2))
    checker.client.close()
    assert [r.reason for r in results] == ["offline fallback: offline stand-in"] * 2
    assert ledger.fallbacks and "exhausted: APITimeoutError" in ledger.fallbacks[0]
    assert ledger.stages()["verification"].calls == 2  # the request and its one retry


def test_zz_server_killed_mid_call_falls_back_marked(llama_server: LocalLLMServer) -> None:
    """Last in this file, so it runs last: it kills the session's server."""
    with RecordingProxy(upstream=llama_server.url) as proxy:
        checker = _checker(proxy.url, timeout_s=120, max_tokens=512)
        box: dict[str, Any] = {}

        def judge() -> None:
            with usage_scope() as ledger:
                box["results"] = checker.judge_many(_items(2))
                box["fallbacks"] = ledger.fallbacks

        worker = threading.Thread(target=judge)
        worker.start()
        assert proxy.wait_in_flight(timeout_s=60)
        llama_server.kill()
        worker.join(timeout=120)
        checker.client.close()
    assert not worker.is_alive()
    assert [r.reason for r in box["results"]] == ["offline fallback: offline stand-in"] * 2
    assert "exhausted" in box["fallbacks"][0] and "502" in box["fallbacks"][0]

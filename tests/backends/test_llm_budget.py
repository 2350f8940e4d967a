"""Real-server behaviour on the scripted server: mode downgrade at any status, no retry on what will
not change, reasoning-model parameters, token and time budgets, and the escalation tier."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel

from tests.backends.test_llm_pipeline import answer_with, make_pipeline, run, settings_for
from tests.fakes import HashEmbedder, ScriptedChecker
from tests.llm_server import FakeLLMServer, Scripted, make_client, reply, stage
from workers.backends.llm import LLMError
from workers.backends.llm_escalate import EscalatingChecker, is_uncertain
from workers.backends.llm_wiring import build_llm_parts
from workers.messages import Judgement, Verdict
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.settings import Settings, StageModel, VerificationSettings, is_reasoning_model


class Out(BaseModel):
    label: str


VALID = {"label": "ok"}


def _call(client: Any, st: StageModel | None = None, **kwargs: Any) -> Any:
    return client.complete(stage=st or stage(), system="Reply.", payload={"task": "t"}, output=Out, **kwargs)


@pytest.fixture
def llama_cpp_python() -> Iterator[FakeLLMServer]:
    with FakeLLMServer(behaves_like="llama-cpp-python", responder=lambda body: reply(VALID)) as s:
        yield s


def test_a_500_naming_json_schema_moves_to_json_mode_at_once(llama_cpp_python: FakeLLMServer) -> None:
    client, sleeps = make_client(llama_cpp_python, max_retries=3)
    out = _call(client)
    assert out.mode == "json_object" and out.data.label == "ok"
    statuses = [r.status for r in llama_cpp_python.requests]
    assert statuses == [500, 200] and sleeps == []  # no retry spent, no backoff
    assert client.breaker.state == "closed"
    # Remembered for this endpoint and model: the next call goes straight to JSON mode ...
    _call(client)
    assert [r.body["response_format"]["type"] for r in llama_cpp_python.requests[2:]] == ["json_object"]
    assert client.learned("verifier-13b") == ("json_object", None)
    # ... while another model on the same endpoint is asked with json_schema first.
    _call(client, stage(model="other-7b"))
    assert llama_cpp_python.requests[3].body["response_format"]["type"] == "json_schema"
    client.close()


@pytest.mark.parametrize("status", [400, 404, 422])
def test_errors_that_will_not_change_are_not_retried(status: int) -> None:
    with FakeLLMServer(responder=lambda body: Scripted(status=status, content="bad request")) as server:
        client, sleeps = make_client(server, max_retries=3)
        with pytest.raises(LLMError):
            _call(client)
        client.close()
    assert len(server.requests) == 1 and sleeps == []


def test_a_500_that_is_a_validation_error_is_not_retried() -> None:
    body = {"error": {"message": "1 validation error for Request\nmessages: field required", "code": 500}}
    with FakeLLMServer(responder=lambda _: Scripted(status=500, raw=body)) as server:
        client, sleeps = make_client(server, max_retries=3)
        with pytest.raises(LLMError) as err:
            _call(client)
        client.close()
    assert err.value.kind == "rejected" and len(server.requests) == 1 and sleeps == []


def test_reasoning_models_by_name_get_their_parameters() -> None:
    assert is_reasoning_model("o3-mini") and is_reasoning_model("openai/o1") and is_reasoning_model("gpt-5")
    assert not is_reasoning_model("gpt-4o-mini") and not is_reasoning_model("ollama3")
    with FakeLLMServer(behaves_like="openai-reasoning", responder=lambda body: reply(VALID)) as server:
        client, _ = make_client(server)
        _call(client, stage(model="o4-mini"), max_tokens=100)
        client.close()
    body = server.requests[0].body
    assert [r.status for r in server.requests] == [200]
    assert body["max_completion_tokens"] == 512  # hidden reasoning counts too: the stage's ceiling
    assert "max_tokens" not in body and "temperature" not in body and "stop" not in body


def test_reasoning_parameters_are_learned_from_openai_errors() -> None:
    with FakeLLMServer(behaves_like="openai-reasoning", responder=lambda body: reply(VALID)) as server:
        client, sleeps = make_client(server, max_retries=0)
        _call(client, stage(model="house-reasoner"))
        _call(client, stage(model="house-reasoner"))
        client.close()
    assert [r.status for r in server.requests] == [400, 200, 200] and sleeps == []
    assert client.learned("house-reasoner") == ("json_schema", True)


def test_reasoning_setting_overrides_the_name() -> None:
    st = StageModel(backend="openai", model="o3", reasoning=False)
    assert not st.uses_reasoning_params()
    assert StageModel(model="my-finetune", reasoning=True).uses_reasoning_params()


def test_max_tokens_follow_the_work_with_a_ceiling_and_a_stop_sequence() -> None:
    with FakeLLMServer(delay_s=0.0) as server:
        out = run(
            settings_for(server.url, verify_batch_size=10, tokens_base=50, tokens_per_claim=100),
            answer_with(3),
        )
        assert out.stats.fallback is None
        verify = [r.body for r in server.requests if r.payload.get("task") == "verify_claims"]
        assert [b["max_tokens"] for b in verify] == [50 + 3 * 100]
        assert verify[0]["stop"] == ["\n\n\n"]
        server.requests.clear()
        run(settings_for(server.url, tokens_base=50, tokens_per_claim=5000), answer_with(3))
        verify = [r.body for r in server.requests if r.payload.get("task") == "verify_claims"]
        assert verify[0]["max_tokens"] == 2048  # the stage's ceiling


def test_when_the_answer_budget_is_spent_the_offline_verdict_stands_marked() -> None:
    # Extraction takes 0.3 s of a 0.4 s budget; verification's request times out at what is left.
    with FakeLLMServer(delay_s=0.3) as server:
        out = run(settings_for(server.url, answer_budget_s=0.4, max_retries=2), answer_with(3))
    assert out.stats.fallback is not None and "verification: budget" in out.stats.fallback
    assert len(out.claims) == 3
    assert all("offline fallback" in c.reason for c in out.claims)
    assert 1 <= out.stats.llm_calls <= 3


def _offline(by_claim: dict[str, CheckResult]) -> ScriptedChecker:
    return ScriptedChecker(by_claim, default=CheckResult(Judgement.NEUTRAL, "offline unsure"), name="offline")


SURE = CheckResult(Judgement.SUPPORT, "offline sure", extra={"p_support": 0.97, "p_contradict": 0.01})


def test_uncertain_band() -> None:
    s = VerificationSettings(confident_at=0.8, settled_below=0.05)
    assert not is_uncertain(SURE, s)
    maybe = CheckResult(Judgement.NEUTRAL, "", extra={"p_support": 0.6, "p_contradict": 0.1})
    nothing = CheckResult(Judgement.NEUTRAL, "", extra={"p_support": 0.01, "p_contradict": 0.02})
    assert is_uncertain(maybe, s) and not is_uncertain(nothing, s)
    assert is_uncertain(CheckResult(Judgement.NEUTRAL, "rules only"), s)
    assert not is_uncertain(CheckResult(Judgement.CONTRADICT, "rule fix", confidence=0.9), s)


def _escalating(url: str, escalate: str, offline: ScriptedChecker) -> tuple[Pipeline, Any]:
    settings = settings_for(url, verify_batch_size=2)
    settings = settings.model_copy(update={"verification": VerificationSettings(escalate=escalate)})  # type: ignore[arg-type]
    parts = build_llm_parts(settings, offline_checker=offline, environ={})
    checker = parts.checker or offline
    pipeline = Pipeline(
        settings=settings, embedder=HashEmbedder(), checker=checker, extractor=parts.extractor
    )
    return pipeline, parts


@pytest.mark.parametrize(("escalate", "sent"), [("never", 0), ("uncertain", 3), ("always", 5)])
def test_escalation_tier_sends_only_what_it_should(escalate: str, sent: int) -> None:
    offline = _offline({"c0": SURE, "c1": SURE})
    with FakeLLMServer() as server:
        pipeline, parts = _escalating(server.url, escalate, offline)
        out = pipeline.process(answer_with(5, wrong=4))
        parts.close()
    verify = [r for r in server.requests if r.payload.get("task") == "verify_claims"]
    assert sum(len(r.payload["claims"]) for r in verify) == out.stats.escalated == sent
    if escalate == "uncertain":
        assert len(verify) == 1  # one call per answer, whatever verify_batch_size says
        assert isinstance(parts.checker, EscalatingChecker)
        assert out.claims[0].reason.endswith("offline sure")  # decided offline, no LLM
        assert out.claims[4].verdict is Verdict.CONTRADICTED and "LLM" in out.claims[4].reason
        stages = out.stats.llm_stages or {}
        assert stages["verification"].calls == 1 and stages["verification"].tokens_in > 0
    if escalate == "never":
        assert parts.checker is None


def test_escalated_claims_keep_the_offline_verdict_when_the_llm_fails() -> None:
    offline = _offline({"c0": SURE})
    with FakeLLMServer() as server:
        server.script(Scripted(status=400, content="context length exceeded"), task="verify_claims")
        pipeline, parts = _escalating(server.url, "uncertain", offline)
        out = pipeline.process(answer_with(3))
        parts.close()
    assert out.stats.escalated == 2 and "verification: rejected" in (out.stats.fallback or "")
    assert [("offline fallback" in c.reason) for c in out.claims] == [False, True, True]
    assert all("offline unsure" in c.reason for c in out.claims[1:])


def test_settings_pick_the_tier() -> None:
    s = Settings.load(verification={"escalate": "uncertain"})
    assert s.verification.escalate == "uncertain"
    with pytest.raises(ValueError):
        Settings.load(verification={"escalate": "sometimes"})
    _ = make_pipeline  # the shared helpers stay importable for the real-server tests

"""LLMClient against the scripted HTTP server: structured output, repair, retries, breaker, limits."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

from tests.llm_server import FakeLLMServer, Scripted, make_client, reply, stage
from workers.backends.llm import LLMClient, LLMClients, LLMError, _parse_retry_after
from workers.backends.prompts import VerificationOut
from workers.errors import ConfigError
from workers.settings import ModelSettings

VALID = {"verdicts": [{"claim_id": "k0", "label": "SUPPORT", "evidence_quote": "x", "reason": "ok"}]}
PAYLOAD = {"task": "verify_claims", "claims": []}


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as s:
        yield s


def _call(client: LLMClient, *, timeout_s: float = 5.0) -> VerificationOut:
    return client.complete(
        stage=stage(timeout_s=timeout_s), system="SYS", payload=PAYLOAD, output=VerificationOut
    ).data


def test_valid_reply_parsed_with_usage_and_cost(server: FakeLLMServer) -> None:
    client, _ = make_client(server, prices={"verifier-13b": (1.0, 2.0)})
    server.script(reply(VALID, usage=(1000, 500)))
    out = client.complete(stage=stage(), system="SYS", payload=PAYLOAD, output=VerificationOut)
    client.close()
    assert out.data.verdicts[0].label == "SUPPORT"
    assert (out.usage.calls, out.usage.tokens_in, out.usage.tokens_out) == (1, 1000, 500)
    assert out.usage.cost_usd == pytest.approx(0.002)
    body = server.requests[0].body
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["name"] == "VerificationOut"
    assert body["response_format"]["json_schema"]["schema"]["additionalProperties"] is False
    assert (body["model"], body["temperature"], body["max_tokens"]) == ("verifier-13b", 0.0, 512)
    assert [m["role"] for m in body["messages"]] == ["system", "user"]
    assert server.requests[0].headers["authorization"] == "Bearer test-key"
    assert client.totals()["verifier-13b"].tokens_in == 1000


def test_json_mode_when_server_rejects_json_schema(server: FakeLLMServer) -> None:
    server.reject_json_schema = True
    server.script(reply(VALID), reply(VALID))
    client, _ = make_client(server)
    assert _call(client).verdicts
    assert _call(client).verdicts
    client.close()
    kinds = [(r.body.get("response_format") or {}).get("type") for r in server.requests]
    assert kinds == ["json_schema", "json_object", "json_object"]  # the downgrade sticks
    assert "JSON Schema" in server.requests[1].system  # the schema spelled out in JSON mode


def test_invalid_json_then_one_repair(server: FakeLLMServer) -> None:
    client, _ = make_client(server)
    server.script(Scripted(content="Sure! Here it is: {verdicts: nope"), reply(VALID))
    out = client.complete(stage=stage(), system="SYS", payload=PAYLOAD, output=VerificationOut)
    client.close()
    assert out.data.verdicts[0].claim_id == "k0"
    assert out.usage.calls == 2
    assert "previous reply was rejected" in server.requests[1].system
    assert "previous reply" not in server.requests[0].system
    assert server.requests[1].user == server.requests[0].user  # the data is resent unchanged


def test_invalid_twice_raises_with_the_usage_spent(server: FakeLLMServer) -> None:
    client, _ = make_client(server)
    bad = {"verdicts": [{"claim_id": "k0", "label": "MAYBE"}]}  # valid JSON, schema violation
    server.script(reply(bad, usage=(10, 5)), Scripted(content="[]", usage=(10, 5)))
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "invalid_output"
    assert (err.value.usage.calls, err.value.usage.tokens_in, err.value.usage.tokens_out) == (2, 20, 10)
    assert len(server.requests) == 2


def test_fenced_json_and_missing_optional_fields_are_accepted(server: FakeLLMServer) -> None:
    client, _ = make_client(server)
    server.script(Scripted(content='```json\n{"verdicts": [{"claim_id": "k0", "label": "neutral"}]}\n```'))
    v = _call(client).verdicts[0]
    client.close()
    assert (v.label, v.reason, v.evidence_quote, v.fixes) == ("NEUTRAL", "", "", [])


def test_429_with_retry_after_then_success(server: FakeLLMServer) -> None:
    client, sleeps = make_client(server)
    server.script(Scripted(status=429, content="slow down", headers={"Retry-After": "1"}), reply(VALID))
    assert _call(client).verdicts
    client.close()
    assert sleeps == [1.0]  # Retry-After wins over the (shorter) backoff
    assert [r.status for r in server.requests] == [429, 200]


def test_retry_after_beyond_the_cap_falls_back_at_once(server: FakeLLMServer) -> None:
    client, sleeps = make_client(server, max_retry_after_s=5.0)
    server.script(Scripted(status=429, headers={"Retry-After": "120"}))
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "exhausted"
    assert sleeps == []
    assert len(server.requests) == 1


def test_retry_after_forms() -> None:
    assert _parse_retry_after("2.5") == 2.5
    assert _parse_retry_after(None) is None
    assert _parse_retry_after("soon") is None
    date = time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + 30))
    assert 20.0 < (_parse_retry_after(date) or 0.0) <= 31.0


def test_timeout_then_success(server: FakeLLMServer) -> None:
    client, sleeps = make_client(server)
    server.script(reply(VALID, delay_s=1.5), reply(VALID))
    t0 = time.perf_counter()
    assert _call(client, timeout_s=0.3).verdicts
    client.close()
    assert len(sleeps) == 1
    assert time.perf_counter() - t0 < 1.4  # did not wait for the slow reply


def test_5xx_retried_with_growing_backoff_then_exhausted(server: FakeLLMServer) -> None:
    client, sleeps = make_client(server, max_retries=2, breaker_failures=10)
    server.script(*[Scripted(status=503)] * 3)
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "exhausted"
    assert "503" in err.value.reason
    assert err.value.usage.calls == 3
    assert len(sleeps) == 2 and sleeps[0] < sleeps[1]


def test_non_retryable_400_is_rejected_without_downgrade(server: FakeLLMServer) -> None:
    client, sleeps = make_client(server)
    server.script(Scripted(status=400, content="context length exceeded"))
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "rejected"
    assert (len(server.requests), sleeps) == (1, [])


def test_circuit_breaker_opens_then_half_opens(server: FakeLLMServer) -> None:
    client, _ = make_client(server, max_retries=0, breaker_failures=2, breaker_reset_s=0.2)
    server.script(Scripted(status=503), Scripted(status=503))
    for _ in range(2):
        with pytest.raises(LLMError):
            _call(client)
    with pytest.raises(LLMError) as err:
        _call(client)
    assert err.value.kind == "circuit_open"
    assert len(server.requests) == 2  # the open breaker sent nothing
    time.sleep(0.25)
    assert _call(client).verdicts is not None  # one probe, answered by the oracle
    assert client.breaker.state == "closed"
    client.close()


def test_concurrency_limit_per_endpoint() -> None:
    with FakeLLMServer(delay_s=0.1) as server:
        client, _ = make_client(server, max_concurrency=2)
        threads = [threading.Thread(target=_call, args=(client,)) for _ in range(6)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        client.close()
    spans = [(r.started, r.finished) for r in server.requests]
    peak = max(sum(1 for a, b in spans if a <= t < b) for t, _ in spans)
    assert len(spans) == 6
    assert peak <= 2


def test_clients_are_shared_per_endpoint_and_need_a_key() -> None:
    models = ModelSettings()
    clients = LLMClients(models=models, environ={"MY_KEY": "k"})
    a = clients.for_stage(stage(base_url="http://127.0.0.1:1/v1"))
    b = clients.for_stage(stage(model="other", base_url="http://127.0.0.1:1/v1"))
    assert a is b
    clients.close()
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        LLMClients(models=models, environ={}).for_stage(stage())


@pytest.mark.parametrize(
    "raw",
    [
        {"id": "x"},  # no choices, no usage
        {"id": "x", "choices": [], "usage": None},
        {"id": "x", "choices": [{"index": 0, "message": {"role": "assistant", "content": None}}]},
        {
            "id": "x",
            "choices": [{"index": 0, "message": {"role": "assistant"}}],
            "usage": {"prompt_tokens": None},
        },
    ],
)
def test_malformed_responses_are_invalid_output_not_a_crash(
    server: FakeLLMServer, raw: dict[str, object]
) -> None:
    client, _ = make_client(server)
    server.script(Scripted(raw=raw), Scripted(raw=raw))
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "invalid_output"
    assert err.value.usage.calls == 2 and err.value.usage.tokens_in == 0


def test_a_reply_cut_off_at_max_tokens_is_not_repaired(server: FakeLLMServer) -> None:
    # The budget is what the work needs; a repair would spend it again and add a round trip.
    client, _ = make_client(server)
    server.script(
        Scripted(content='{"verdicts": [{"claim_id": "k0", "lab', finish_reason="length"), reply(VALID)
    )
    with pytest.raises(LLMError) as err:
        _call(client)
    client.close()
    assert err.value.kind == "invalid_output" and "cut off at max_tokens=512" in err.value.reason
    assert len(server.requests) == 1 and err.value.usage.calls == 1

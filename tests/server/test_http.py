"""The HTTP API through a real uvicorn server on a free port, with light (fake-backend) pipelines."""

from __future__ import annotations

import logging
import signal
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import jsonschema
import orjson
import pytest

from tests.server.helpers import Blocking, Failing, Running, light_pipeline, running
from workers.resources import load_schema
from workers.server.tenants import hash_key
from workers.settings import Settings

KEYS = {"acme": "key-acme-0123456789", "globex": "key-globex-9876543210"}
DOCS = [{"id": "d1", "text": "Northwind Traders reported revenue of $4.2 billion in fiscal 2023."}]


def _settings(**server: Any) -> Settings:
    keys = {tenant: hash_key(key) for tenant, key in KEYS.items()}
    return Settings(server={"api_keys": keys, **server}, limits={"max_answer_chars": 2000})


def _answer(answer_id: str = "a1", **extra: Any) -> dict[str, Any]:
    body = {
        "id": answer_id,
        "query": "How did Northwind do in 2023?",
        "answer": "Northwind Traders reported revenue of $4.2 billion in fiscal 2023.",
        "documents": DOCS,
        "stakes": "high",
    }
    return body | extra


def _post(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.post(url, timeout=60, **kwargs)  # generous: two busy cores


def _get(url: str, **kwargs: Any) -> httpx.Response:
    return httpx.get(url, timeout=60, **kwargs)


def _auth(tenant: str = "acme") -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[tenant]}"}


@pytest.fixture(scope="module")
def srv() -> Iterator[Running]:
    settings = _settings(max_batch=3)
    with running(light_pipeline(settings), settings=settings) as server:
        yield server


def test_one_answer_in_one_corrected_v1_out_with_the_keys_tenant(srv: Running) -> None:
    r = _post(f"{srv.url}/v1/correct", json=_answer(), headers=_auth())
    assert r.status_code == 200, r.text
    body = r.json()
    jsonschema.validate(body, load_schema("corrected.v1"))
    assert body["id"] == "a1" and body["tenant"] == "acme" and body["route"] == "full"
    assert body["claims"] and all(c["verdict"] == "VERIFIED" for c in body["claims"])


@pytest.mark.parametrize(
    ("content", "status", "kind", "field"),
    [
        (b'{"id": "a1", "query": ', 400, "invalid_json", None),
        (b"\xff\xfe{}", 400, "invalid_utf8", None),
        (orjson.dumps({"id": "a1", "answer": "x"}), 422, "schema", "query"),
        (orjson.dumps(_answer(documents=[{"id": "d1"}])), 422, "schema", "documents.0.text"),
        (orjson.dumps(_answer(answer="x" * 2001)), 413, "too_large", None),
    ],
)
def test_bad_input_gets_its_status_and_a_reason(
    srv: Running, content: bytes, status: int, kind: str, field: str | None
) -> None:
    r = _post(f"{srv.url}/v1/correct", content=content, headers=_auth())
    assert r.status_code == status, r.text
    error = r.json()["error"]
    assert error["kind"] == kind and error["reason"] and error.get("field") == field
    assert "Traceback" not in r.text


def test_a_body_over_the_size_limit_is_refused_before_it_is_read() -> None:
    settings = _settings(max_body_bytes=4096)
    with running(light_pipeline(settings), settings=settings) as small:
        r = _post(f"{small.url}/v1/correct", content=b"x" * 10_000, headers=_auth())
        assert r.status_code == 413 and r.json()["error"]["kind"] == "too_large"


def test_the_tenant_comes_from_the_key(srv: Running) -> None:
    url = f"{srv.url}/v1/correct"
    assert _post(url, json=_answer()).status_code == 401
    wrong = _post(url, json=_answer(), headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
    other = _post(url, json=_answer(tenant="globex"), headers=_auth("acme"))
    assert other.status_code == 403 and other.json()["error"]["field"] == "tenant"
    same = _post(url, json=_answer(tenant="globex"), headers={"X-API-Key": KEYS["globex"]})
    assert same.status_code == 200 and same.json()["tenant"] == "globex"


def test_no_tenant_gets_another_tenants_semantic_cache_hit(srv: Running) -> None:
    url = f"{srv.url}/v1/correct"
    text = "The Hubble Space Telescope was launched in 1990 aboard the shuttle Discovery."
    docs = [{"id": "h1", "text": "Hubble was launched in April 1990 aboard the space shuttle Discovery."}]
    first = _post(url, json=_answer("s1", answer=text, documents=docs), headers=_auth("acme"))
    again = _post(url, json=_answer("s2", answer=text, documents=docs), headers=_auth("acme"))
    other = _post(url, json=_answer("s3", answer=text, documents=docs), headers=_auth("globex"))
    assert first.json()["route"] == "full"
    assert again.json()["route"] == "semantic_cache" and again.json()["tenant"] == "acme"
    # Same text, same documents, but another key: never acme's cached correction.
    assert other.json()["route"] == "full" and other.json()["tenant"] == "globex"


def test_batch_results_in_order_with_failures_as_dead_letters(srv: Running) -> None:
    items = [_answer("b1"), {"id": "b2", "answer": "no query"}, _answer("b3")]
    r = _post(f"{srv.url}/v1/correct/batch", json={"answers": items}, headers=_auth())
    assert r.status_code == 200, r.text
    results = r.json()["results"]
    assert [x["id"] for x in results] == ["b1", "b2", "b3"]
    assert [x["schema_version"] for x in results] == ["corrected.v1", "deadletter.v1", "corrected.v1"]
    jsonschema.validate(results[1], load_schema("deadletter.v1"))
    assert results[1]["kind"] == "schema" and results[1]["line"] == 2
    too_many = _post(f"{srv.url}/v1/correct/batch", json={"answers": items * 2}, headers=_auth())
    assert too_many.status_code == 413
    bad = _post(f"{srv.url}/v1/correct/batch", json=[_answer()], headers=_auth())
    assert bad.status_code == 422 and bad.json()["error"]["field"] == "answers"
    forbidden = _post(
        f"{srv.url}/v1/correct/batch", json={"answers": [_answer(tenant="globex")]}, headers=_auth()
    )
    assert forbidden.status_code == 403


def test_probes_metrics_and_the_openapi_document(srv: Running) -> None:
    assert _get(f"{srv.url}/healthz").json() == {"status": "ok"}
    ready = _get(f"{srv.url}/readyz")
    assert ready.status_code == 200
    assert ready.json()["models"] == "loaded" and ready.json()["redis"] == "not configured"
    metrics = _get(f"{srv.url}/metrics")
    assert metrics.status_code == 200 and metrics.headers["content-type"].startswith("text/plain")
    doc = _get(f"{srv.url}/openapi.json").json()
    schemas = doc["components"]["schemas"]
    assert {"answer.v1", "corrected.v1", "deadletter.v1", "corrected.v1.claim"} <= set(schemas)
    body = doc["paths"]["/v1/correct"]["post"]["requestBody"]["content"]["application/json"]
    assert body["example"] == load_schema("answer.v1")["examples"][0]
    assert {"400", "413", "422", "429", "503"} <= set(doc["paths"]["/v1/correct"]["post"]["responses"])
    assert "#/$defs/" not in orjson.dumps(doc).decode()
    assert _get(f"{srv.url}/docs").status_code == 200


def test_the_api_key_is_never_logged(srv: Running, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    _post(f"{srv.url}/v1/correct", json=_answer("log1"), headers=_auth())
    _post(f"{srv.url}/v1/correct", json=_answer("log2"), headers={"Authorization": "Bearer wrong-key-x"})
    text = "\n".join(r.getMessage() for r in caplog.records) + caplog.text
    assert KEYS["acme"] not in text and "wrong-key-x" not in text
    assert KEYS["acme"] not in repr(Settings(server={"api_keys": {"acme": hash_key(KEYS["acme"])}}))


def test_overload_is_429_with_retry_after() -> None:
    settings = _settings(max_concurrency=1, max_queue=0, retry_after_s=2)
    blocking = Blocking(light_pipeline(settings))
    with running(blocking, settings=settings) as srv:
        first: list[httpx.Response] = []
        worker = threading.Thread(
            target=lambda: first.append(_post(f"{srv.url}/v1/correct", json=_answer(), headers=_auth()))
        )
        worker.start()
        assert blocking.entered.wait(10)
        refused = _post(f"{srv.url}/v1/correct", json=_answer("a2"), headers=_auth())
        assert refused.status_code == 429 and refused.headers["retry-after"] == "2"
        assert refused.json()["error"]["kind"] == "overloaded"
        blocking.release.set()
        worker.join(10)
        assert first[0].status_code == 200


def test_a_failing_backend_is_503_and_passes_through_only_when_asked() -> None:
    settings = _settings()
    with running(Failing(), settings=settings) as srv:
        closed = _post(f"{srv.url}/v1/correct", json=_answer(), headers=_auth())
        assert closed.status_code == 503 and closed.json()["error"]["kind"] == "backend_unavailable"
        assert "corrected" not in closed.json()
        url = f"{srv.url}/v1/correct?fail_open=true"
        opened = _post(url, json=_answer(), headers=_auth())
        assert opened.status_code == 503 and opened.headers["x-woodpecker-fail-open"] == "passed-through"
        body = opened.json()
        jsonschema.validate(body, load_schema("corrected.v1"))
        assert body["corrected"] == body["original"] and body["needs_review"] is True
        assert "BackendUnavailable" in body["stats"]["fallback"]


def test_shutdown_lets_in_flight_requests_finish_and_refuses_new_ones() -> None:
    settings = _settings(max_concurrency=2)
    blocking = Blocking(light_pipeline(settings))
    with running(blocking, settings=settings) as srv:
        first: list[httpx.Response] = []
        worker = threading.Thread(
            target=lambda: first.append(_post(f"{srv.url}/v1/correct", json=_answer(), headers=_auth()))
        )
        worker.start()
        assert blocking.entered.wait(10)
        srv.server.handle_exit(signal.SIGTERM, None)  # what uvicorn calls on SIGTERM
        refused = _post(f"{srv.url}/v1/correct", json=_answer("late"), headers=_auth())
        assert refused.status_code == 503 and refused.json()["error"]["kind"] == "shutting_down"
        assert _get(f"{srv.url}/readyz").status_code == 503
        assert srv.thread.is_alive()  # still serving the one in flight
        blocking.release.set()
        worker.join(10)
        assert first[0].status_code == 200 and first[0].json()["id"] == "a1"
        srv.thread.join(10)
        assert not srv.thread.is_alive()

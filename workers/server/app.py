"""The HTTP API: `answer.v1` in, `corrected.v1` out, through the same pipeline as every other path.

Usage::

    app = create_app(pipeline=build_pipeline(settings), settings=settings)   # an ASGI app (FastAPI)
    uvicorn.run(app, port=8080)          # `woodpecker serve` does this, with a graceful shutdown

    curl -s localhost:8080/v1/correct -H "Authorization: Bearer $KEY" -d @answer.json

Routes: `POST /v1/correct`, `POST /v1/correct/batch` (`{"answers": [...]}` -> `{"results": [...]}`,
in order, an item that fails is a deadletter.v1 record), `GET /healthz`, `GET /readyz`, `GET /metrics`,
and the OpenAPI document at `/docs` (`/openapi.json`). Errors are `{"error": {status, kind, reason,
field?}}`: 400 malformed JSON or UTF-8, 401 no or unknown API key, 403 a body naming another tenant,
413 over a size limit, 422 a schema violation (naming the field), 429 overloaded (`Retry-After`),
503 shutting down or a failing backend. With `?fail_open=true` (or the header
`X-Woodpecker-Fail-Open: true`) a failing backend still answers 503, with the original answer passed
through as corrected.v1 (`stats.fallback` says why) instead of an error.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from typing import Any, Protocol

import orjson
from fastapi import FastAPI, Request, Response
from pydantic import ValidationError

from workers.decisions import log_decisions
from workers.errors import BackendError, InvalidMessage, Overloaded
from workers.messages import Answer, Corrected, DeadLetter, Route, Stats
from workers.server.openapi import install_openapi, request_body, responses
from workers.server.state import DrainMiddleware, ServeState, problem_body
from workers.server.tenants import TenantKeys
from workers.settings import Settings
from workers.telemetry import answer_span, record_dead_letter, record_result
from workers.validate import dead_letter, parse_answer

__all__ = ["HTTPProblem", "Processor", "create_app"]

log = logging.getLogger(__name__)
_JSON = "application/json"
_PARSE_STATUS = {"invalid_json": 400, "invalid_utf8": 400, "too_large": 413}


class Processor(Protocol):
    """What the service needs of a pipeline: `workers.pipeline.Pipeline` or a test double."""

    def process(self, answer: Answer) -> Corrected: ...


class HTTPProblem(Exception):
    """An error response: status, a machine-readable kind, a reason, and the offending field if any."""

    def __init__(
        self,
        status: int,
        kind: str,
        reason: str,
        *,
        field: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(reason)
        self.status, self.kind, self.reason, self.field = status, kind, reason, field
        self.headers = headers or {}

    def response(self) -> Response:
        body = problem_body(self.status, self.kind, self.reason, field=self.field)
        return Response(body, status_code=self.status, media_type=_JSON, headers=self.headers)


def create_app(
    *,
    pipeline: Processor,
    settings: Settings,
    state: ServeState | None = None,
    on_close: Callable[[], None] | None = None,
) -> FastAPI:
    """The ASGI app around `pipeline`; `on_close` runs at shutdown (e.g. `pipeline.close`)."""
    server = settings.server
    state = state or ServeState(
        max_concurrency=server.max_concurrency, max_queue=server.max_queue, retry_after_s=server.retry_after_s
    )
    service = _Service(pipeline=pipeline, settings=settings, state=state)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        state.close()
        if on_close is not None:
            on_close()

    app = FastAPI(
        title="woodpecker",
        summary="Catches and corrects hallucinations in RAG answers.",
        version=_version(),
        lifespan=lifespan,
    )
    app.state.woodpecker = state
    app.add_middleware(DrainMiddleware, state=state)
    app.add_exception_handler(HTTPProblem, _problem_handler)
    app.add_exception_handler(Overloaded, _overloaded_handler)
    _routes(app, service)
    install_openapi(app)
    return app


def _routes(app: FastAPI, service: _Service) -> None:
    @app.post(
        "/v1/correct",
        summary="Correct one answer (answer.v1 in, corrected.v1 out)",
        openapi_extra={"requestBody": request_body("answer.v1"), "responses": responses("corrected.v1")},
    )
    async def correct(request: Request) -> Response:
        return await service.correct(request)

    @app.post(
        "/v1/correct/batch",
        summary="Correct up to server.max_batch answers; results in order, failures as deadletter.v1",
        openapi_extra={"requestBody": request_body("batch"), "responses": responses("batch")},
    )
    async def correct_batch(request: Request) -> Response:
        return await service.correct_batch(request)

    @app.get("/healthz", summary="The process is alive")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.get("/readyz", summary="Models loaded and Redis reachable (or degraded to the in-process LRU)")
    async def readyz() -> Response:
        return await service.readiness()

    @app.get("/metrics", summary="Prometheus metrics", response_class=Response)
    async def metrics() -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, generate_latest

        return Response(generate_latest(REGISTRY), media_type=CONTENT_TYPE_LATEST)


async def _problem_handler(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPProblem)
    return exc.response()


async def _overloaded_handler(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Overloaded)
    problem = HTTPProblem(429, "overloaded", str(exc), headers={"Retry-After": str(exc.retry_after_s)})
    return problem.response()


class _Service:
    """The request handling behind the routes, kept apart from FastAPI's decorators."""

    def __init__(self, *, pipeline: Processor, settings: Settings, state: ServeState) -> None:
        self.pipeline = pipeline
        self.settings = settings
        self.state = state
        self.keys = TenantKeys.from_settings(settings.server)
        if not self.keys.enabled:
            log.warning("server.api_keys is empty: no API key is asked for and the body names the tenant")

    async def correct(self, request: Request) -> Response:
        tenant = self._tenant(request)
        raw = await self._body(request, limit=min(self.settings.server.max_body_bytes, self._message_limit))
        answer = _bind_tenant(self._parse(raw), tenant)
        fail_open = _wants_fail_open(request)
        async with self.state.slot():
            try:
                corrected = await self.state.run(self._process, answer)
            except Exception as exc:  # the pipeline failed: 503, passing the answer through if asked
                return _failed(answer, exc, fail_open=fail_open)
        return Response(corrected.to_json(), media_type=_JSON)

    async def correct_batch(self, request: Request) -> Response:
        tenant = self._tenant(request)
        raw = await self._body(request, limit=self.settings.server.max_body_bytes)
        items = self._batch_items(raw)
        parsed: list[Answer | DeadLetter] = []
        for number, item in enumerate(items, start=1):
            line = orjson.dumps(item)
            try:
                parsed.append(_bind_tenant(parse_answer(line, limits=self.settings.limits), tenant))
            except InvalidMessage as exc:
                parsed.append(dead_letter(line, reason=exc.reason, kind=exc.kind, stage="parse", line=number))
        fail_open = _wants_fail_open(request)
        async with self.state.slot():
            results = await self.state.run(self._process_batch, parsed, fail_open)
        body = b'{"results":[' + b",".join(r.to_json() for r in results) + b"]}"
        return Response(body, media_type=_JSON)

    async def readiness(self) -> Response:
        # Not on the pipeline's threads: a busy service must still answer its probe.
        redis = await asyncio.to_thread(_redis_status, self.pipeline)
        ready = not self.state.draining
        body = {
            "status": "ready" if ready else "draining",
            "models": "loaded",
            "redis": redis,
            "in_flight": self.state.in_flight,
            "waiting_or_working": self.state.admitted,
        }
        return Response(orjson.dumps(body), status_code=200 if ready else 503, media_type=_JSON)

    # -- steps --

    @property
    def _message_limit(self) -> int:
        return self.settings.limits.max_message_bytes

    def _tenant(self, request: Request) -> str | None:
        """The tenant of the presented API key; None when no keys are configured (development)."""
        if not self.keys.enabled:
            return None
        key = _presented_key(request)
        tenant = self.keys.tenant_for(key) if key else None
        if tenant is None:
            reason = "an API key is required" if not key else "unknown API key"
            raise HTTPProblem(401, "unauthorized", reason, headers={"WWW-Authenticate": "Bearer"})
        return tenant

    async def _body(self, request: Request, *, limit: int) -> bytes:
        declared = request.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > limit:
            raise HTTPProblem(
                413, "too_large", f"request body is {declared} bytes, over the limit of {limit}"
            )
        chunks: list[bytes] = []
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise HTTPProblem(413, "too_large", f"request body is over the limit of {limit} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    def _parse(self, raw: bytes) -> Answer:
        try:
            return parse_answer(raw, limits=self.settings.limits)
        except InvalidMessage as exc:
            raise _parse_problem(exc) from None

    def _batch_items(self, raw: bytes) -> Sequence[Any]:
        try:
            body = orjson.loads(raw)
        except orjson.JSONDecodeError as exc:
            raise HTTPProblem(400, "invalid_json", f"invalid JSON: {exc}") from None
        items = body.get("answers") if isinstance(body, dict) else None
        if not isinstance(items, list):
            raise HTTPProblem(
                422, "schema", 'the body must be {"answers": [answer.v1, ...]}', field="answers"
            )
        if len(items) > self.settings.server.max_batch:
            limit = self.settings.server.max_batch
            raise HTTPProblem(413, "too_large", f"{len(items)} answers, over the batch limit of {limit}")
        return items

    def _process(self, answer: Answer) -> Corrected:
        with answer_span(answer.id, name="woodpecker.http.answer"):
            corrected = self.pipeline.process(answer)
        record_result(corrected)
        log_decisions(corrected, settings=self.settings)
        return corrected

    def _process_batch(
        self, items: Sequence[Answer | DeadLetter], fail_open: bool
    ) -> list[Corrected | DeadLetter]:
        results: list[Corrected | DeadLetter] = []
        for number, item in enumerate(items, start=1):
            if isinstance(item, DeadLetter):
                record_dead_letter(item)
                results.append(item)
                continue
            try:
                results.append(self._process(item))
            except Exception as exc:  # one answer's failure is its own result, not the batch's
                if fail_open:
                    results.append(_passed_through(item, exc))
                    continue
                reason = f"{type(exc).__name__}: {exc}"
                dead = dead_letter(
                    item.to_json(), reason=reason, kind="processing_error", stage="pipeline", line=number
                )
                record_dead_letter(dead)
                results.append(dead)
        return results


def _presented_key(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    return request.headers.get("x-api-key") or None


def _bind_tenant(answer: Answer, tenant: str | None) -> Answer:
    """The answer as the key's tenant's: a body naming another tenant is refused."""
    if tenant is None or answer.tenant == tenant:
        return answer
    if answer.tenant is not None:
        raise HTTPProblem(
            403, "forbidden", "the body names another tenant than the API key's", field="tenant"
        )
    return answer.model_copy(update={"tenant": tenant})


def _parse_problem(exc: InvalidMessage) -> HTTPProblem:
    status = _PARSE_STATUS.get(exc.kind, 422)
    field = None
    cause = exc.__cause__
    if isinstance(cause, ValidationError) and cause.errors():
        field = ".".join(str(p) for p in cause.errors()[0]["loc"]) or None
    return HTTPProblem(status, exc.kind, exc.reason, field=field)


def _wants_fail_open(request: Request) -> bool:
    value = request.query_params.get("fail_open") or request.headers.get("x-woodpecker-fail-open") or ""
    return value.strip().lower() in {"1", "true", "yes"}


def _failed(answer: Answer, exc: Exception, *, fail_open: bool) -> Response:
    kind = "backend_unavailable" if isinstance(exc, BackendError | OSError) else "processing_error"
    log.warning("answer %s failed in the pipeline: %s", answer.id, type(exc).__name__)
    headers = {"Retry-After": "1"}
    if fail_open:
        headers["X-Woodpecker-Fail-Open"] = "passed-through"
        return Response(_passed_through(answer, exc).to_json(), 503, headers=headers, media_type=_JSON)
    reason = f"the pipeline failed ({type(exc).__name__}); fail_open=true passes the answer through"
    return HTTPProblem(503, kind, reason, headers=headers).response()


def _passed_through(answer: Answer, exc: Exception) -> Corrected:
    return Corrected(
        id=answer.id,
        tenant=answer.tenant,
        original=answer.answer,
        corrected=answer.answer,
        route=Route.FULL,
        needs_review=True,  # as the stream does: an unchecked answer is marked for review
        review_reasons=(f"pipeline failed: {type(exc).__name__}",),
        stats=Stats(fallback=f"passthrough after pipeline failure ({type(exc).__name__}), fail-open"),
    )


def _redis_status(pipeline: Processor) -> str:
    """`ok`, `degraded` (Redis down, the in-process LRU serves) or `not configured`."""
    cache = getattr(getattr(pipeline, "semantic", None), "cache", None)
    if cache is None or not hasattr(cache, "degraded"):
        return "not configured"
    cache.get_many(["readyz"])  # a round trip, so the state is fresh (a no-op while backing off)
    return "degraded" if cache.degraded else "ok"


def _version() -> str:
    from workers.cli import package_version

    return package_version()

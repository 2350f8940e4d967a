"""An `openai.OpenAI` client per endpoint with the resilience woodpecker needs around it.

Every call asks for JSON matching a JSON Schema (`response_format` json_schema, falling back to JSON
mode and then to plain instructions when the server rejects a format), validates it with pydantic and
makes ONE repair request on invalid output. Transport failures (429, 5xx, timeouts, refused
connections) are retried here with exponential backoff and jitter, honouring Retry-After; the openai
client's own retries are off (`max_retries=0`) so the policy lives in one place. A circuit breaker and
a concurrency limit guard each endpoint. Each reply carries its token usage and cost.

Usage::

    clients = LLMClients(models=settings.models)
    client = clients.for_stage(settings.models.verification)
    reply = client.complete(stage=settings.models.verification, system=SYSTEM, payload={...}, output=Model)
    reply.data, reply.usage.tokens_in, reply.usage.cost_usd
    clients.close()

Failures raise `LLMError` (a `BackendError`) with `kind` in circuit_open / exhausted / invalid_output /
rejected, and the `usage` already spent, so the caller can fall back and still account for it.
"""

from __future__ import annotations

import email.utils
import logging
import os
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, TypeVar

import openai
import orjson
from openai.types.chat import ChatCompletion
from pydantic import BaseModel

from workers.backends.llm_usage import Usage, price_of
from workers.backends.prompts import InvalidOutput, parse_output, strict_schema, system_for
from workers.errors import BackendError, ConfigError
from workers.settings import LLMSettings, ModelSettings, StageModel

__all__ = ["CircuitBreaker", "LLMClient", "LLMClients", "LLMError", "Reply"]

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)
Mode = Literal["json_schema", "json_object", "prompt"]
_LADDER: tuple[Mode, ...] = ("json_schema", "json_object", "prompt")
# Words servers use when they reject a response format (OpenAI, vLLM guided decoding, llama.cpp grammar).
_FORMAT_WORDS = ("response_format", "json_schema", "json_object", "structured", "grammar", "guided", "schema")
_NO_KEY = "sk-no-key-required"
# No JSON reply needs three newlines in a row; a small model that drifts into blank lines stops there.
_STOP = ["\n\n\n"]
# Words of a server-side validation failure: the same request will fail the same way again.
_VALIDATION_WORDS = ("validation error", "validationerror", "unprocessable")


@dataclass(frozen=True, slots=True)
class _Request:
    system: str
    mode: Mode
    reasoning: bool
    max_tokens: int
    timeout_s: float


class LLMError(BackendError):
    """A call that did not produce valid output; `usage` is what it spent anyway."""

    def __init__(self, reason: str, *, kind: str, usage: Usage | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind
        self.usage = usage or Usage()

    def plus(self, usage: Usage) -> LLMError:
        return LLMError(self.reason, kind=self.kind, usage=usage + self.usage)


@dataclass(frozen=True, slots=True)
class Reply(Generic[T]):
    data: T
    usage: Usage
    mode: str


class CircuitBreaker:
    """Closed → open after `failures` consecutive failures → half-open after `reset_s`: one probe."""

    def __init__(self, *, failures: int, reset_s: float, clock: Callable[[], float] = time.monotonic) -> None:
        self._limit, self._reset_s, self._clock = failures, reset_s, clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._probing = False

    @property
    def state(self) -> str:
        with self._lock:
            if self._opened_at is None:
                return "closed"
            return "half_open" if self._clock() - self._opened_at >= self._reset_s else "open"

    def allow(self) -> bool:
        with self._lock:
            if self._opened_at is None:
                return True
            if self._clock() - self._opened_at < self._reset_s or self._probing:
                return False
            self._probing = True
            return True

    def success(self) -> None:
        with self._lock:
            self._failures, self._opened_at, self._probing = 0, None, False

    def failure(self) -> None:
        with self._lock:
            self._failures += 1
            if self._probing or self._failures >= self._limit:
                self._opened_at, self._probing = self._clock(), False


class LLMClient:
    """One endpoint: its openai client, circuit breaker, concurrency slots and format support."""

    def __init__(
        self,
        *,
        base_url: str | None,
        api_key: str,
        policy: LLMSettings,
        prices: Mapping[str, tuple[float, float]] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        kwargs: dict[str, Any] = {"base_url": base_url} if base_url else {}
        self._openai = openai.OpenAI(api_key=api_key, max_retries=0, **kwargs)
        self.base_url = str(self._openai.base_url)
        self.policy = policy
        self.prices = dict(prices or {})
        self.breaker = CircuitBreaker(failures=policy.breaker_failures, reset_s=policy.breaker_reset_s)
        self._slots = threading.BoundedSemaphore(policy.max_concurrency)
        self._sleep, self._jitter = sleep, jitter
        self._lock = threading.Lock()
        # Learned per model on this endpoint: the response format and the parameter style that work.
        self._modes: dict[str, Mode] = {}
        self._reasoning_params: dict[str, bool] = {}
        self._totals: dict[str, Usage] = {}

    def complete(
        self,
        *,
        stage: StageModel,
        system: str,
        payload: Mapping[str, Any],
        output: type[T],
        max_tokens: int | None = None,
        deadline: float | None = None,
    ) -> Reply[T]:
        """One logical round trip: the request (with retries) and at most one repair request.

        `max_tokens`: what this request's work needs (capped by the stage's ceiling); `deadline`: a
        `time.monotonic()` instant past which nothing more is sent (kind "budget").
        """
        # A reasoning model's completion tokens include its hidden reasoning: only the ceiling fits.
        derived = bool(max_tokens) and not self._reasoning(stage)
        budget = min(stage.max_tokens, max_tokens or 0) if derived else stage.max_tokens
        spent, note = Usage(), ""
        for _ in range(2):
            try:
                completion, usage, mode = self._send(
                    stage, system, payload, output, note=note, max_tokens=budget, deadline=deadline
                )
            except LLMError as exc:
                raise exc.plus(spent) from exc
            spent += usage
            if _cut_off(completion):
                # The budget is what the work needs: a model that ran past it is rambling, and asking
                # again would spend as much once more and add a sequential round trip.
                raise LLMError(
                    f"the reply was cut off at max_tokens={budget}", kind="invalid_output", usage=spent
                )
            try:
                return Reply(_parse(completion, output), spent, mode)
            except InvalidOutput as exc:
                note = str(exc)
                log.info("invalid %s output from %s: %s", output.__name__, stage.model, note)
        raise LLMError(f"invalid output after one repair: {note}", kind="invalid_output", usage=spent)

    def totals(self) -> dict[str, Usage]:
        """Usage since start, by model: the process-wide figures for metrics."""
        with self._lock:
            return dict(self._totals)

    def close(self) -> None:
        self._openai.close()

    # ---- one request, with retries ---------------------------------------------------------------

    def _send(
        self,
        stage: StageModel,
        system: str,
        payload: Mapping[str, Any],
        output: type[T],
        *,
        note: str,
        max_tokens: int,
        deadline: float | None,
    ) -> tuple[ChatCompletion, Usage, Mode]:
        spent, attempt = Usage(), 0
        while True:
            left = _left(deadline)
            if left is not None and left <= 0:
                raise LLMError("the answer's LLM time budget is spent", kind="budget", usage=spent)
            if not self.breaker.allow():
                raise LLMError(f"circuit open for {self.base_url}", kind="circuit_open", usage=spent)
            mode, reasoning = self._mode(stage.model), self._reasoning(stage)
            spent += Usage(calls=1)
            request = _Request(
                system=system_for(system, output, mode=mode, note=note),
                mode=mode,
                reasoning=reasoning,
                max_tokens=max_tokens,
                timeout_s=stage.timeout_s if left is None else min(stage.timeout_s, left),
            )
            try:
                completion = self._post(stage, request, payload, output)
            except openai.APIStatusError as exc:
                if self._adapt(stage, request, exc):
                    # The endpoint answered; it wants another format or parameters. No retry spent.
                    self.breaker.success()
                    continue
                if not _retryable(exc):
                    if _endpoint_fault(exc):
                        self.breaker.failure()
                        raise LLMError(_give_up(exc, attempt), kind="exhausted", usage=spent) from exc
                    self.breaker.success()  # it answered; the request itself will not do
                    raise LLMError(f"request rejected: {_short(exc)}", kind="rejected", usage=spent) from exc
                attempt = self._wait_or_raise(exc, attempt, deadline, spent)
                continue
            except openai.APIError as exc:  # refused connection, reset, timeout
                attempt = self._wait_or_raise(exc, attempt, deadline, spent)
                continue
            self.breaker.success()
            usage = self._usage(stage.model, completion)
            return completion, spent + usage, mode

    def _wait_or_raise(self, exc: openai.APIError, attempt: int, deadline: float | None, spent: Usage) -> int:
        """Sleep before the next attempt and return its number, or raise when there is none."""
        wait = self._retry_wait(exc, attempt)
        if wait is None:
            raise LLMError(_give_up(exc, attempt), kind="exhausted", usage=spent) from exc
        left = _left(deadline)
        if left is not None and wait >= left:
            raise LLMError(
                f"the answer's LLM time budget ends before the next retry ({_give_up(exc, attempt)})",
                kind="budget",
                usage=spent,
            ) from exc
        self._sleep(wait)
        return attempt + 1

    def _post(
        self, stage: StageModel, request: _Request, payload: Mapping[str, Any], output: type[T]
    ) -> ChatCompletion:
        # Untrusted text (answers, documents) travels only as JSON data in the user message.
        user = orjson.dumps(payload).decode()
        extra: dict[str, Any] = {}
        if request.mode != "prompt":
            extra["response_format"] = _response_format(request.mode, output)
        if request.reasoning:
            # Reasoning models reject max_tokens, any temperature but the default, and stop sequences.
            extra["max_completion_tokens"] = request.max_tokens
        else:
            extra |= {"max_tokens": request.max_tokens, "temperature": stage.temperature, "stop": _STOP}
        with self._slots:
            completion: ChatCompletion = self._openai.chat.completions.create(
                model=stage.model,
                messages=[{"role": "system", "content": request.system}, {"role": "user", "content": user}],
                timeout=request.timeout_s,
                **extra,
            )
        return completion

    def _retry_wait(self, exc: openai.APIError, attempt: int) -> float | None:
        """Seconds to wait before retrying, or None to give up (not retryable, exhausted or too long)."""
        if not _retryable(exc):
            if _endpoint_fault(exc):
                self.breaker.failure()
            return None
        self.breaker.failure()
        if attempt >= self.policy.max_retries:
            return None
        p = self.policy
        backoff = min(p.backoff_max_s, p.backoff_base_s * 2.0**attempt)
        wait = backoff / 2 + self._jitter() * backoff / 2  # equal jitter: spread, but never zero
        hinted = _retry_after(exc)
        if hinted is not None and hinted > p.max_retry_after_s:
            return None
        return max(wait, hinted or 0.0)

    def _usage(self, model: str, completion: ChatCompletion) -> Usage:
        u = getattr(completion, "usage", None)
        tin = max(0, int(getattr(u, "prompt_tokens", 0) or 0))
        tout = max(0, int(getattr(u, "completion_tokens", 0) or 0))
        usage = Usage(0, tin, tout, price_of(model, tin, tout, self.prices))
        with self._lock:
            self._totals[model] = self._totals.get(model, Usage()) + usage + Usage(calls=1)
        return usage

    # ---- response formats --------------------------------------------------------------------------

    def _mode(self, model: str) -> Mode:
        with self._lock:
            wanted = self.policy.structured_output
            first: Mode = "json_schema" if wanted == "auto" else wanted
            return self._modes.get(model, first)

    def _reasoning(self, stage: StageModel) -> bool:
        with self._lock:
            return self._reasoning_params.get(stage.model, stage.uses_reasoning_params())

    def learned(self, model: str) -> tuple[Mode, bool | None]:
        """What this endpoint taught about `model`: its response format, and reasoning parameters
        (None when not learned)."""
        mode = self._mode(model)
        with self._lock:
            return mode, self._reasoning_params.get(model)

    def _adapt(self, stage: StageModel, request: _Request, exc: openai.APIStatusError) -> bool:
        """Learn from an error that names what the server will not take; True when the request
        should go again at once, changed (another format, or the other parameter style)."""
        text = _error_text(exc)
        if not request.reasoning and _wants_reasoning_params(text):
            log.warning("%s wants reasoning-model parameters for %s; switching", self.base_url, stage.model)
            with self._lock:
                self._reasoning_params[stage.model] = True
            return True
        if request.mode != "prompt" and any(word in text for word in _FORMAT_WORDS):
            # Any status: llama-cpp-python answers an unsupported json_schema with a 500.
            nxt = _LADDER[_LADDER.index(request.mode) + 1]
            log.warning(
                "%s rejected response_format %s for %s (HTTP %s); using %s",
                self.base_url, request.mode, stage.model, exc.status_code, nxt,
            )  # fmt: skip
            with self._lock:
                self._modes[stage.model] = nxt
            return True
        return False


class LLMClients:
    """One `LLMClient` per endpoint (base URL + API-key variable), shared by the stages that use it."""

    def __init__(
        self, *, models: ModelSettings, environ: Mapping[str, str] | None = None, **client_options: Any
    ) -> None:
        self._models = models
        self._env = os.environ if environ is None else environ
        self._options = client_options
        self._clients: dict[tuple[str | None, str], LLMClient] = {}
        self._lock = threading.Lock()

    def for_stage(self, stage: StageModel) -> LLMClient:
        key = (stage.base_url, stage.api_key_env)
        with self._lock:
            if key not in self._clients:
                self._clients[key] = LLMClient(
                    base_url=stage.base_url,
                    api_key=self._api_key(stage),
                    policy=self._models.llm,
                    prices=self._models.prices,
                    **self._options,
                )
            return self._clients[key]

    def totals(self) -> dict[str, Usage]:
        out: dict[str, Usage] = {}
        for client in list(self._clients.values()):
            for model, usage in client.totals().items():
                out[model] = out.get(model, Usage()) + usage
        return out

    def close(self) -> None:
        for client in self._clients.values():
            client.close()

    def _api_key(self, stage: StageModel) -> str:
        key = self._env.get(stage.api_key_env)
        if key:
            return key
        # Local servers (vLLM, llama.cpp, Ollama) ignore the key, but the client insists on one.
        if stage.base_url or self._env.get("OPENAI_BASE_URL"):
            return _NO_KEY
        raise ConfigError(f"no API key: set {stage.api_key_env}, or a base_url for a local server")


# ---- helpers -------------------------------------------------------------------------------------


def _response_format(mode: Mode, output: type[BaseModel]) -> dict[str, Any]:
    if mode == "json_object":
        return {"type": "json_object"}
    return {
        "type": "json_schema",
        "json_schema": {"name": output.__name__, "schema": strict_schema(output), "strict": True},
    }


def _cut_off(completion: ChatCompletion) -> bool:
    choices = getattr(completion, "choices", None) or []
    return bool(choices) and getattr(choices[0], "finish_reason", None) == "length"


def _parse(completion: ChatCompletion, output: type[T]) -> T:
    """The reply's content as `output`; fields a server left out read as empty, never a KeyError."""
    choices = getattr(completion, "choices", None) or []
    if not choices:
        raise InvalidOutput("the response has no choices")
    if getattr(choices[0], "finish_reason", None) == "length":
        raise InvalidOutput("the reply was cut off at max_tokens; reply more briefly")
    message = getattr(choices[0], "message", None)
    return parse_output(getattr(message, "content", None) or "", output)


def _retryable(exc: openai.APIError) -> bool:
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    status = getattr(exc, "status_code", None)
    if not isinstance(status, int):
        return False
    if status >= 500:
        # A 5xx that is really a validation failure (llama-cpp-python reports those as 500) stays one.
        return not any(word in _error_text(exc) for word in _VALIDATION_WORDS)
    return status in (408, 409, 429)


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else deadline - time.monotonic()


def _error_text(exc: openai.APIError) -> str:
    return f"{exc.message} {exc.body}".lower()


def _wants_reasoning_params(text: str) -> bool:
    """OpenAI's reasoning-model errors: "Unsupported parameter: 'max_tokens' ... Use
    'max_completion_tokens' instead", "Unsupported value: 'temperature' does not support 0.0 ...",
    "Unsupported parameter: 'stop' is not supported with this model"."""
    if "max_completion_tokens" in text:
        return True
    unsupported = "unsupported" in text or "not supported" in text or "does not support" in text
    return unsupported and ("'temperature'" in text or "'stop'" in text)


def _endpoint_fault(exc: openai.APIError) -> bool:
    """A wrong key or URL: not worth retrying, but worth opening the breaker over."""
    return getattr(exc, "status_code", None) in (401, 403, 404)


def _retry_after(exc: openai.APIError) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        return None
    ms = headers.get("retry-after-ms")
    if ms is not None:
        try:
            return max(0.0, float(ms) / 1000.0)
        except ValueError:
            pass
    return _parse_retry_after(headers.get("retry-after"))


def _parse_retry_after(value: str | None) -> float | None:
    """Delta-seconds or an HTTP date; None when absent or unreadable."""
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = when.timestamp() - time.time()
    return max(0.0, seconds) if seconds == seconds else None


def _short(exc: openai.APIError) -> str:
    return str(exc.message)[:200]


def _give_up(exc: openai.APIError, attempt: int) -> str:
    kind = type(exc).__name__
    status = getattr(exc, "status_code", None)
    what = f"{kind} {status}" if status else kind
    return f"{what} after {attempt + 1} attempt(s): {_short(exc)}"

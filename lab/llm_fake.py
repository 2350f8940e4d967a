"""A scripted OpenAI-compatible chat-completions server on 127.0.0.1, for tests and the benchmark.

A real HTTP server (http.server in a thread) speaking `POST /v1/chat/completions`, so the real
`openai` client talks to it over HTTP. Each request is answered by the next scripted reply for its
task (or any task), else by `responder` (default `oracle`: a tiny rule-based model good enough to run
woodpecker's prompts end to end). Every request is recorded with its start and end times.

Usage::

    with FakeLLMServer(delay_s=0.05) as server:
        server.script(Scripted(status=429, headers={"Retry-After": "1"}), task="verify_claims")
        client = openai.OpenAI(base_url=server.url, api_key="x", max_retries=0)
        ...
        server.requests[0].payload["task"], server.round_trips()
"""

from __future__ import annotations

import re
import threading
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

import orjson

__all__ = [
    "LLAMA_CPP_PYTHON_500",
    "Behaviour",
    "FakeLLMServer",
    "Recorded",
    "Responder",
    "Scripted",
    "oracle",
]


@dataclass(frozen=True)
class Scripted:
    """One reply: assistant `content` with status 200, or an error `status` with `headers`."""

    content: str | None = None
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)
    delay_s: float = 0.0
    usage: tuple[int, int] | None = None
    finish_reason: str = "stop"
    raw: Mapping[str, Any] | None = None  # the whole response body, for malformed responses


@dataclass(frozen=True)
class Recorded:
    body: dict[str, Any]
    headers: dict[str, str]
    started: float
    finished: float
    status: int

    @property
    def system(self) -> str:
        return str(self.body["messages"][0]["content"])

    @property
    def user(self) -> str:
        return str(self.body["messages"][-1]["content"])

    @property
    def payload(self) -> dict[str, Any]:
        """The user message's JSON data ({} when it is not JSON)."""
        try:
            data = orjson.loads(self.user)
        except orjson.JSONDecodeError:
            return {}
        return data if isinstance(data, dict) else {}


Responder = Callable[[dict[str, Any]], Scripted]


# How a server family refuses what it does not take, as each documents or was seen to do.
Behaviour = Literal["openai", "llama-cpp-python", "openai-reasoning"]
# llama-cpp-python 0.3.x (`python -m llama_cpp.server`): json_schema is refused with HTTP 500.
LLAMA_CPP_PYTHON_500 = (
    "1 validation error for CreateChatCompletionRequest\nresponse_format.type\n  Input should be 'text' or "
    "'json_object' [type=literal_error, input_value='json_schema', input_type=str]"
)


class FakeLLMServer:
    """`behaves_like`: "openai" (takes everything), "llama-cpp-python" (HTTP 500 naming response_format
    and json_schema for a json_schema request) or "openai-reasoning" (HTTP 400 for max_tokens, a
    temperature other than 1 and stop sequences, with OpenAI's messages, params and codes)."""

    def __init__(
        self,
        *,
        responder: Responder | None = None,
        delay_s: float = 0.0,
        reject_json_schema: bool = False,
        behaves_like: Behaviour = "openai",
    ) -> None:
        self.responder = responder or oracle
        self.delay_s = delay_s
        self.reject_json_schema = reject_json_schema
        self.behaves_like = behaves_like
        self.requests: list[Recorded] = []
        self._queues: dict[str | None, deque[Scripted]] = {}
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    def script(self, *replies: Scripted, task: str | None = None) -> None:
        """Queue replies for the next requests of `task` (None: of any task), served before the responder."""
        with self._lock:
            self._queues.setdefault(task, deque()).extend(replies)

    def round_trips(self) -> int:
        """Sequential round trips among all requests so far (see `depth`)."""
        return self.depth(self.requests)

    @staticmethod
    def depth(requests: Sequence[Recorded]) -> int:
        """The longest chain of requests each sent after the previous one returned: concurrent
        requests count once, requests one after another count each."""
        depth, last_end = 0, float("-inf")
        for r in sorted(requests, key=lambda r: r.finished):
            if r.started >= last_end:
                depth, last_end = depth + 1, r.finished
        return depth

    def start(self) -> FakeLLMServer:
        # A short poll interval: shutdown() waits up to one interval.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-llm", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _next(self, body: dict[str, Any]) -> Scripted:
        refusal = _refusal(self.behaves_like, body)
        if refusal is not None:
            return refusal
        if self.reject_json_schema and (body.get("response_format") or {}).get("type") == "json_schema":
            return Scripted(status=400, content="response_format json_schema is not supported")
        task = _task(body)
        with self._lock:
            for key in (task, None):
                queue = self._queues.get(key)
                if queue:
                    return queue.popleft()
        return self.responder(body)

    def _record(self, rec: Recorded) -> None:
        with self._lock:
            self.requests.append(rec)


def _handler_for(server: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            started = time.perf_counter()
            body = orjson.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))))
            if not self.path.endswith("/chat/completions"):
                self._send(404, _error("not found"), {})
                return
            reply = server._next(body)
            time.sleep(server.delay_s + reply.delay_s)
            status = reply.status
            out = _completion(body, reply) if status == 200 else _error(reply.content or "scripted error")
            out = dict(reply.raw) if reply.raw is not None else out
            headers = {k.lower(): v for k, v in self.headers.items()}
            # Recorded before the reply goes out, so a client that has its reply sees its request.
            server._record(Recorded(body, headers, started, time.perf_counter(), status))
            self._send(status, out, reply.headers)

        def _send(self, status: int, out: dict[str, Any], headers: Mapping[str, str]) -> bool:
            data = orjson.dumps(out)
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                return False  # the client timed out and hung up
            return True

        def log_message(self, format: str, *args: Any) -> None:  # quiet
            return

    return Handler


def _task(body: Mapping[str, Any]) -> str | None:
    try:
        data = orjson.loads(body["messages"][-1]["content"])
    except (KeyError, IndexError, TypeError, orjson.JSONDecodeError):
        return None
    return data.get("task") if isinstance(data, dict) else None


def _error(message: str) -> dict[str, Any]:
    return {"error": {"message": message, "type": "invalid_request_error", "code": None}}


def _refusal(behaves_like: Behaviour, body: Mapping[str, Any]) -> Scripted | None:
    if behaves_like == "llama-cpp-python":
        if (body.get("response_format") or {}).get("type") == "json_schema":
            error = {
                "message": LLAMA_CPP_PYTHON_500,
                "type": "internal_server_error",
                "param": None,
                "code": None,
            }
            return Scripted(status=500, raw={"error": error})
        return None
    if behaves_like != "openai-reasoning":
        return None
    # OpenAI's documented errors for reasoning models (o-series, gpt-5).
    if "max_tokens" in body:
        message = (
            "Unsupported parameter: 'max_tokens' is not supported with this model. "
            "Use 'max_completion_tokens' instead."
        )
        param, code = "max_tokens", "unsupported_parameter"
    elif "temperature" in body and body["temperature"] != 1:
        message = (
            f"Unsupported value: 'temperature' does not support {body['temperature']} with this model. "
            "Only the default (1) value is supported."
        )
        param, code = "temperature", "unsupported_value"
    elif "stop" in body:
        message = "Unsupported parameter: 'stop' is not supported with this model."
        param, code = "stop", "unsupported_parameter"
    else:
        return None
    error = {"message": message, "type": "invalid_request_error", "param": param, "code": code}
    return Scripted(status=400, raw={"error": error})


def _completion(body: Mapping[str, Any], reply: Scripted) -> dict[str, Any]:
    content = reply.content or ""
    prompt = sum(len(str(m.get("content", ""))) for m in body.get("messages", []))
    tin, tout = reply.usage or (max(1, prompt // 4), max(1, len(content) // 4))
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", "fake"),
        "choices": [
            {
                "index": 0,
                "finish_reason": reply.finish_reason,
                "message": {"role": "assistant", "content": content},
            }
        ],
        "usage": {"prompt_tokens": tin, "completion_tokens": tout, "total_tokens": tin + tout},
    }


# ---- the oracle: a rule-based stand-in for a model ----------------------------------------------

# Up to a . ! or ? that ends the text or precedes a space: "$4.2 billion" stays whole.
_SENTENCE = re.compile(r"(?:[^.!?]|[.!?](?!\s|$))+[.!?]?")
_NUM = re.compile(r"\d[\d,]*(?:\.\d+)?")
_WORDS = re.compile(r"[a-z]{4,}")


def oracle(body: dict[str, Any]) -> Scripted:
    """Answers each woodpecker task by simple rules: sentences are claims, shared numbers decide."""
    data = orjson.loads(body["messages"][-1]["content"])
    task = data.get("task")
    handlers: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
        "extract_claims": _extract,
        "decompose_claims": _decompose,
        "verify_claims": _verify,
        "rewrite_claims": _rewrite,
    }
    if task not in handlers:
        return Scripted(content="{}")
    return Scripted(content=orjson.dumps(handlers[task](data)).decode())


def _queries(text: str, question: str) -> list[dict[str, str]]:
    return [
        {"kind": "direct", "text": text},
        {"kind": "context", "text": question or text},
        {"kind": "contradiction", "text": " ".join(_NUM.sub("", text).split()) + " (other value)"},
    ]


def _sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE.findall(text) if s.strip()]


def _extract(data: dict[str, Any]) -> dict[str, Any]:
    claims = [s.rstrip(".!?") for s in _sentences(data.get("answer", ""))]
    question = data.get("question", "")
    return {
        "claims": [{"text": c, "claim_type": "general", "queries": _queries(c, question)} for c in claims]
    }


def _decompose(data: dict[str, Any]) -> dict[str, Any]:
    q = data.get("question", "")
    return {
        "claims": [{"claim_id": c["id"], "queries": _queries(c["text"], q)} for c in data.get("claims", [])]
    }


def _verify(data: dict[str, Any]) -> dict[str, Any]:
    return {"verdicts": [_judge(c) for c in data.get("claims", [])]}


def _judge(claim: dict[str, Any]) -> dict[str, Any]:
    text = claim["text"]
    words, nums = set(_WORDS.findall(text.lower())), set(_NUM.findall(text))
    best: tuple[int, str, str] = (0, "", "")
    for w in claim.get("evidence", []):
        for s in _sentences(w["text"]):
            score = len(words & set(_WORDS.findall(s.lower())))
            if score > best[0]:
                best = (score, w["window_id"], s)
    score, window, quote = best
    verdict = {"claim_id": claim["id"], "window_id": window, "evidence_quote": quote, "fixes": []}
    if score == 0:
        return verdict | {"label": "INSUFFICIENT", "evidence_quote": "", "reason": "no evidence about it"}
    q_nums = set(_NUM.findall(quote))
    if nums <= q_nums:
        return verdict | {"label": "SUPPORT", "reason": "the evidence states it"}
    wrong, right = sorted(nums - q_nums), sorted(q_nums - nums)
    if not right:
        return verdict | {"label": "NEUTRAL", "reason": "the evidence gives no figure"}
    fixes = [{"wrong": wrong[0], "right": right[0]}]
    return verdict | {"label": "CONTRADICT", "reason": "the evidence gives another figure", "fixes": fixes}


def _rewrite(data: dict[str, Any]) -> dict[str, Any]:
    out = []
    for c in data.get("claims", []):
        evidence = {n for e in c.get("evidence", []) for n in _NUM.findall(e)}
        claimed = set(_NUM.findall(c["text"]))
        wrong, right = sorted(claimed - evidence), sorted(evidence - claimed)
        text = re.sub(rf"\b{re.escape(wrong[0])}\b", right[0], c["text"], count=1) if wrong and right else ""
        out.append({"claim_id": c["id"], "text": text})
    return {"rewrites": out}

"""`make run-llm`: the demo answers with EVERY stage on a real local llama.cpp server.

Starts the packaged llama.cpp server (`llm_local`: xllamacpp + Gemma 3 270M, CPU, 127.0.0.1) behind a
recording proxy, points extraction, decomposition, verification and correction at it (escalation
"always", so every claim reaches it), corrects each example answer in process, and prints, per
answer, the corrected diff and what the proxy saw beside what `stats` says: sequential round trips,
requests, tokens and any fallback. A 270M model verifies poorly; this shows the plumbing working on a
real server, not the quality a 13B+ verifier gives.

Usage::

    python -m lab.llm_demo [examples/answers.jsonl] [--limit N] [--max-tokens 256]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from lab.llm_local import MODEL_NAME, LocalLLMServer, LocalLLMUnavailable, versions
from lab.llm_proxy import RecordingProxy
from workers.errors import InvalidMessage
from workers.messages import Corrected
from workers.render import render
from workers.settings import Settings
from workers.validate import parse_answer

__all__ = ["llm_settings", "main"]

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "answers.jsonl"
_STAGES = ("extraction", "decomposition", "verification", "correction")


def llm_settings(url: str, *, max_tokens: int = 256, timeout_s: float = 120.0) -> Settings:
    """Every model stage on `url` with the packaged model; the rest from the usual sources."""
    stage = {"backend": "openai", "base_url": url, "model": MODEL_NAME, "max_tokens": max_tokens}
    stage |= {"timeout_s": timeout_s, "temperature": 0.0}
    models = {name: stage for name in _STAGES} | {"llm": {"max_concurrency": 2, "max_retries": 1}}
    return Settings.load(models=models, sampler={"rate": 1.0}, verification={"escalate": "always"})


def _line(out: Corrected, proxy: RecordingProxy) -> str:
    s = out.stats
    tin, tout = proxy.tokens()
    stages = ", ".join(
        f"{k} {v.calls} call(s) {v.tokens_in}+{v.tokens_out} tok" for k, v in (s.llm_stages or {}).items()
    )
    seen = (
        f"{proxy.round_trips()} sequential round trip(s), {len(proxy.requests)} request(s) seen by the proxy"
    )
    said = (
        f"stats: {s.llm_calls} call(s), {s.tokens_in}+{s.tokens_out} tokens, {s.escalated} claim(s) escalated"
    )
    return f"LLM: {seen}, {tin}+{tout} tokens reported | {said} [{stages}] | fallback: {s.fallback or 'none'}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.llm_demo", description=__doc__.split("\n")[0])
    parser.add_argument("answers", nargs="?", type=Path, default=EXAMPLES)
    parser.add_argument("--limit", type=int, default=None, help="only the first N answers")
    parser.add_argument("--max-tokens", type=int, default=256, help="ceiling per request")
    args = parser.parse_args(argv)
    from workers.pipeline import build_pipeline

    print(f"starting llama.cpp ({versions()}) on 127.0.0.1 ...", file=sys.stderr, flush=True)
    try:
        server = LocalLLMServer().start()
    except LocalLLMUnavailable as exc:
        print(f"run-llm: {exc}", file=sys.stderr)
        return 2
    try:
        with RecordingProxy(upstream=server.url) as proxy:
            settings = llm_settings(proxy.url, max_tokens=args.max_tokens)
            pipeline = build_pipeline(settings)
            lines = args.answers.read_bytes().splitlines()[: args.limit]
            for n, raw in enumerate(lines, 1):
                try:
                    answer = parse_answer(raw, limits=settings.limits)
                except InvalidMessage as exc:
                    print(f"line {n} rejected: {exc}\n")
                    continue
                proxy.clear()
                out = pipeline.process(answer)
                print(render(out, color=sys.stdout.isatty()))
                print(_line(out, proxy) + "\n", flush=True)
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""`woodpecker serve` as its users run it: the real pipeline behind HTTP, and a real SIGTERM."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
import orjson

from tests.server.helpers import free_port, running
from workers.messages import Answer
from workers.settings import Settings

if TYPE_CHECKING:
    from workers.pipeline import Pipeline

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "answers.jsonl"
EXAMPLE = Answer.from_json(EXAMPLES.read_text().splitlines()[0])


def test_the_real_pipeline_gives_the_same_correction_over_http(
    real_pipeline: Pipeline, settings: Settings
) -> None:
    with running(real_pipeline, settings=settings) as srv:
        body = EXAMPLE.model_copy(update={"tenant": "http-real"}).to_json()
        r = httpx.post(f"{srv.url}/v1/correct", content=body, timeout=300)
    assert r.status_code == 200, r.text
    direct = real_pipeline.process(EXAMPLE.model_copy(update={"tenant": "direct-real"}))
    served = r.json()
    assert served["route"] == direct.route.value == "full"
    assert served["corrected"] == direct.corrected != direct.original
    assert [c["action"] for c in served["claims"]] == [c.action.value for c in direct.claims]


def test_sigterm_drains_and_exits_0(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "workers.cli", "serve", "--port", str(port), "--log-level", "warning",
               "--pipeline-factory", "tests.server.helpers:make_pipeline"]  # fmt: skip
    env = os.environ | {"OTEL_SDK_DISABLED": "true", "WOODPECKER_SERVER__API_KEYS": "{}"}
    log = tmp_path / "serve.log"
    with log.open("wb") as err:
        process = subprocess.Popen(command, env=env, stderr=err)
    try:
        deadline = time.monotonic() + 300
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        answer = orjson.loads(EXAMPLE.to_json())
        ok = httpx.post(f"http://127.0.0.1:{port}/v1/correct", json=answer, timeout=60)
        assert ok.status_code == 200
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=60) == 0
        assert "Traceback" not in log.read_text()
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()

"""Load only what a worker uses: light commands import no torch, and the pipeline's models load on
first use, so a correction worker never loads one."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fakes import HashEmbedder
from workers.backends.cache import LruCache
from workers.backends.cached import CachedChecker, CachedEmbedder
from workers.backends.checker import OfflineChecker
from workers.backends.lazy import LazyChecker, LazyEmbedder, lazy_offline_verifier
from workers.backends.shipped import shipped_dir, weights_digest
from workers.pipeline import Pipeline
from workers.protocols import Vectors
from workers.settings import Settings, VerifierSettings

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("torch", "transformers", "sentence_transformers")


def _modules_after(code: str) -> set[str]:
    """The heavy modules imported after running `code` in a fresh interpreter, at the repository root."""
    probe = (
        textwrap.dedent(code)
        + f"\nimport sys\nprint('heavy:' + ','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120, check=True
    )
    last = out.stdout.strip().splitlines()[-1]
    return {m for m in last.removeprefix("heavy:").split(",") if m}


@pytest.mark.parametrize("argv", [["--help"], ["correct", "--help"], ["eval", "--help"], ["--version"]])
def test_light_commands_import_no_torch(argv: list[str]) -> None:
    code = f"""
        import contextlib, io
        from workers.cli import main
        with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):
            main({argv!r})
    """
    assert _modules_after(code) == set()


def test_a_built_pipeline_loads_no_model_until_used_and_finish_needs_none() -> None:
    code = """
        from workers.messages import Answer, Claim, ClaimTask, Document, Plan, Route, RouteInfo
        from workers.pipeline import build_pipeline
        from workers.settings import Settings
        pipeline = build_pipeline(Settings())
        answer = Answer(id="a", query="q", answer="Revenue rose 12%.", documents=[Document(id="d", text="x")])
        task = ClaimTask(claim=Claim(id="c0", text="Revenue rose 12%.", start=0, end=17))
        route = RouteInfo(route=Route.FULL, complexity=0.5, stakes=0.5)
        plan = Plan(answer=answer, route=route, tasks=(task,))
        out = pipeline.finish(plan, [pipeline.unanswered([task], reason="late", fallback=None)])
        assert out.claims and out.route is Route.FULL  # corrected, and stored in the semantic cache
        assert not pipeline.embedder.inner.loaded and not pipeline.checker.inner.loaded
        assert pipeline.checker.name.startswith("trained-minilm@") and pipeline.decision is not None
    """
    assert _modules_after(code) == set()


class SlowLoad:
    def __init__(self) -> None:
        self.loads = 0
        self._lock = threading.Lock()

    def __call__(self) -> HashEmbedder:
        with self._lock:
            self.loads += 1
        return HashEmbedder()


def test_the_lazy_embedder_loads_once_from_many_threads() -> None:
    load = SlowLoad()
    lazy = LazyEmbedder(load, model_id="hash-bow-384")
    assert lazy.model_id == "hash-bow-384" and not lazy.loaded and load.loads == 0

    def encode(texts: Sequence[str]) -> Vectors:
        return lazy.encode(texts)

    with ThreadPoolExecutor(8) as pool:
        shapes = [v.shape for v in pool.map(encode, [["a", "b"]] * 16)]
    assert load.loads == 1 and lazy.loaded
    assert shapes == [(2, 384)] * 16


def test_the_lazy_verifier_is_named_by_the_weights_without_loading_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    digest = weights_digest(shipped_dir())
    for fp16, runtime in (("on", "fp16"), ("off", "fp32")):  # the runtime that runs on this CPU
        monkeypatch.setenv("WOODPECKER_FP16", fp16)
        named, _ = lazy_offline_verifier(VerifierSettings(), rules=OfflineChecker())
        assert named.name == f"trained-minilm@{digest}-{runtime}"
    _, decision = lazy_offline_verifier(VerifierSettings(), rules=OfflineChecker())
    assert decision is not None
    rules, none = lazy_offline_verifier(VerifierSettings(offline="rules"), rules=OfflineChecker())
    assert isinstance(rules, OfflineChecker) and none is None


def test_warm_loads_the_models_of_the_agents_named_and_no_others() -> None:
    cache = LruCache()
    embedder = LazyEmbedder(HashEmbedder, model_id="hash")
    checker = LazyChecker(OfflineChecker, name="rules")
    pipeline = Pipeline(
        settings=Settings(),
        embedder=CachedEmbedder(embedder, cache=cache, ttl_s=60),
        checker=CachedChecker(checker, cache=cache, ttl_s=60),
    )
    pipeline.warm(agents=("correction",))
    assert not embedder.loaded and not checker.loaded
    pipeline.warm(agents=("verification",))
    assert checker.loaded and not embedder.loaded
    pipeline.warm(agents=("extraction", "verification"))
    assert embedder.loaded

"""`woodpecker eval` on a tiny jsonl file, and `python -m lab.eval.bench` on tiny dataset folders."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

from lab.eval import bench, command
from tests.lab.eval.fakes import FakePipeline
from workers import cli
from workers.errors import ConfigError
from workers.settings import Settings, StageModel

DOCS = [{"id": "d", "text": "Paris is in France."}]
ROWS = [
    {"id": "a1", "query": "q", "answer": "Paris is in France.", "documents": DOCS,
     "label": {"hallucinated": False}},
    {"id": "a2", "query": "q", "answer": "Paris is in Spain.", "documents": DOCS,
     "label": {"hallucinated": True, "spans": [[12, 17]], "revised": "Paris is in France."}},
]  # fmt: skip


@pytest.fixture
def built() -> list[Settings]:
    return []


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch, built: list[Settings]) -> FakePipeline:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    pipeline = FakePipeline()

    def build(settings: Settings) -> FakePipeline:
        built.append(settings)
        return pipeline

    monkeypatch.setattr(command, "build_eval_pipeline", build)
    monkeypatch.setattr(bench, "build_eval_pipeline", build)
    bench._shared_pipeline.cache_clear()
    return pipeline


def _data(tmp_path: Path) -> Path:
    path = tmp_path / "labelled.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    return path


def test_cli_eval_on_jsonl(tmp_path: Path, fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    out, page = tmp_path / "report.json", tmp_path / "report.html"
    argv = [
        "eval",
        "--dataset",
        "jsonl",
        "--data",
        str(_data(tmp_path)),
        "--out",
        str(out),
        "--html",
        str(page),
    ]
    assert cli.main([*argv, "--seed", "1", "--limit", "5"]) == 0
    report = json.loads(out.read_text())
    assert report["dataset"] == "jsonl" and report["n"] == 2
    assert report["settings"]["routing_enabled"] is False
    assert report["settings"]["values"]["routing"]["enabled"] is False
    assert report["metrics"]["response"]["f1"] == 1.0
    assert report["metrics"]["span"]["recall"] == 1.0
    assert "data:image/png;base64," in page.read_text()
    assert fake.calls[:2] == ["a1", "a2"]
    printed = json.loads(capsys.readouterr().out)
    assert printed["out"] == str(out) and printed["f1"] == 1.0


def test_cli_eval_refusals(tmp_path: Path, fake: FakePipeline, capsys: pytest.CaptureFixture[str]) -> None:
    data, out = str(_data(tmp_path)), str(tmp_path / "r.json")
    base = ["eval", "--dataset", "jsonl", "--data", data, "--out", out]
    assert cli.main([*base, "--limit", "1", "--backend", "openai"]) == 2
    assert "needs an endpoint" in capsys.readouterr().err
    assert cli.main(["eval", "--dataset", "faithbench", "--data", str(tmp_path / "none"), "--out", out]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert cli.main([*base, "--limit", "0"]) == 2
    assert not Path(out).exists()
    with pytest.raises(SystemExit):
        cli.main(["eval", "--dataset", "squad", "--data", data, "--out", out])


def test_cli_eval_openai_backend_sets_every_stage(
    tmp_path: Path, fake: FakePipeline, built: list[Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    out = tmp_path / "r.json"
    argv = ["eval", "--dataset", "jsonl", "--data", str(_data(tmp_path)), "--out", str(out)]
    assert cli.main([*argv, "--backend", "openai"]) == 0
    models = built[-1].models
    stages = (models.extraction, models.decomposition, models.verification, models.correction)
    assert {s.backend for s in stages} == {"openai"}
    assert json.loads(out.read_text())["backend"] == "openai"


def test_eval_settings_backends() -> None:
    chosen = Settings().model_copy(
        update={"models": Settings().models.model_copy(update={"verification": StageModel(backend="openai")})}
    )
    local = command.eval_settings("local", settings=chosen)
    assert local.models.verification.backend == "local" and local.routing.enabled is False
    with pytest.raises(ConfigError, match="OPENAI_API_KEY"):
        command.eval_settings("openai", settings=chosen, environ={})
    keyed = command.eval_settings("openai", settings=chosen, environ={"OPENAI_API_KEY": "k"})
    assert keyed.models.correction.backend == "openai"
    own_url = StageModel(base_url="http://127.0.0.1:9/v1", api_key_env="NONE")
    models = chosen.models.model_copy(update=dict.fromkeys(command._STAGES, own_url))
    own = chosen.model_copy(update={"models": models})
    served = command.eval_settings("openai", settings=own, environ={})
    assert served.models.extraction.backend == "openai"
    with pytest.raises(ConfigError, match="unknown backend"):
        command.eval_settings("tpu", settings=chosen)


def test_bench_runs_evaluations_and_registered_modules(
    tmp_path: Path, fake: FakePipeline, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "data"
    (data / "halueval-qa").mkdir(parents=True)
    fact = "Delhi is the head office."
    row = {"knowledge": fact, "question": "Where?", "right_answer": fact, "hallucinated_answer": "Mumbai."}
    (data / "halueval-qa" / "qa_data.jsonl").write_text(json.dumps(row) + "\n" + json.dumps(row) + "\n")
    module = types.ModuleType("fake_throughput")
    module.run = lambda out_dir: {"answers_per_s": 12.5, "detail": {"x": 1}}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "fake_throughput", module)
    monkeypatch.setattr(bench, "BENCH_MODULES", ["fake_throughput", "workers.no_such_module.bench"])
    out = tmp_path / "results"
    assert bench.main(["--data", str(data), "--out", str(out), "--split", "all"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["evaluations"]["faithbench"]["skipped"].startswith("no folder")
    assert summary["evaluations"]["halueval-qa"]["response"]["woodpecker"]["n"] == 4
    assert summary["throughput"]["workers.no_such_module.bench"] == {"skipped": "module not present yet"}
    # The table is written with the commit it was measured on (never hand-copied).
    assert summary["commit"] and summary["commit"] in (out / "summary.md").read_text()
    assert json.loads((out / "fake_throughput.json").read_text())["answers_per_s"] == 12.5
    assert (out / "halueval-qa.json").is_file() and (out / "halueval-qa.html").is_file()
    table = capsys.readouterr().out
    assert "halueval-qa" in table and "lexical_coverage" in table and "answers_per_s=12.500" in table


def test_throughput_import_errors_inside_a_module_propagate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    broken = types.ModuleType("broken_bench")

    def run(out_dir: Path) -> dict[str, float]:
        raise ModuleNotFoundError("No module named 'missing_dep'", name="missing_dep")

    broken.run = run  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "broken_bench", broken)
    with pytest.raises(ModuleNotFoundError):
        bench.run_throughput(tmp_path, ["broken_bench"])

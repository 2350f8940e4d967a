"""The runner and the report end to end with a fake pipeline: keys, no NaN, the HTML page and its plots."""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

from lab.eval.datasets import EvalItem, GoldRegion
from lab.eval.report import build_report, render_html, write_html, write_json
from lab.eval.runner import run_items
from tests.lab.eval.fakes import FakePipeline
from workers.messages import Answer, Document

DOCS = (Document(id="d", text="Paris is the capital of France. It has a large museum."),)


def _items() -> list[EvalItem]:
    def item(i: int, text: str, bad: bool, spans: tuple[tuple[int, int], ...] = ()) -> EvalItem:
        answer = Answer(id=f"a{i}", query="Tell me about Paris.", answer=text, documents=DOCS)
        regions = tuple(GoldRegion(s, e, supported=False) for s, e in spans)
        return EvalItem(
            answer=answer,
            hallucinated=bad,
            hallucinated_lenient=bad,
            spans=spans,
            spans_lenient=spans,
            regions=regions,
            default_supported=True,
            detectors=(("hhem", 0.2 if bad else 0.8),),
            revised="Paris is the capital of France.",
        )

    return [
        item(0, "Paris is the capital of France.", False),
        item(1, "Paris is the capital of Spain.", True, ((24, 29),)),
        item(2, "Paris is not a city. It has a large museum.", True, ((0, 20),)),
        item(3, "It has a large museum.", False),
        EvalItem(answer=Answer(id="c0", query="q", answer="Paris is the capital of Spain.", documents=DOCS),
                 kind="claim", hallucinated=True),
        EvalItem(answer=Answer(id="s0", query="q", answer="It has a large museum.", documents=DOCS),
                 kind="stance", stance="completely-support"),
    ]  # fmt: skip


def _report(pipeline: FakePipeline) -> dict[str, object]:
    run = run_items(_items(), pipeline)
    return build_report(
        run, dataset="jsonl", dev_items=_items(), threshold_for=lambda a: 0.82, meta={"split": "all"}
    )


def test_run_items_records_errors_and_rechecks_changed_answers() -> None:
    pipeline = FakePipeline(contradict=frozenset({"not"}), reject=frozenset({"a3"}))
    run = run_items(_items(), pipeline)
    by_id = {o.item.answer.id: o for o in run.outcomes}
    assert by_id["a3"].error is not None and by_id["a3"].corrected is None
    assert by_id["a0"].recheck is None  # unchanged: no second pass
    assert by_id["a1"].recheck is not None  # flagged, so changed
    assert by_id["c0"].recheck is None  # claim items are scored on verdicts only
    assert pipeline.calls.count("a1") == 2
    assert run.wall_s >= 0.0


def test_report_has_the_issue_keys_and_no_nan(tmp_path: Path) -> None:
    report = _report(FakePipeline(contradict=frozenset({"not"})))
    metrics = report["metrics"]
    assert isinstance(metrics, dict)
    assert report["dataset"] == "jsonl" and report["n"] == 6
    assert {"precision", "recall", "f1", "balanced_accuracy"} <= metrics["response"].keys()
    assert {"precision", "recall", "f1"} <= metrics["span"].keys()
    assert {"accuracy", "false_f1"} <= metrics["claim"].keys()
    correction_keys = {"claim_accuracy_before", "claim_accuracy_after", "citation_precision"}
    correction_keys |= {"correction_rate", "preservation"}
    assert correction_keys <= metrics["correction"].keys()
    assert {"p50_ms", "p95_ms", "answers_per_s"} <= metrics["cost"].keys()
    assert metrics["stance"]["n"] == 1
    baselines = report["baselines"]
    assert isinstance(baselines, dict)
    for name in ("no_correction", "similarity_tier_only", "lexical_coverage", "hhem"):
        assert {"precision", "recall", "f1", "balanced_accuracy"} <= baselines[name]["response"].keys()
    assert baselines["hhem"]["response"]["f1"] == 1.0
    assert baselines["lexical_coverage"]["fit"]["chosen_on"] == "dev split"
    # The fake flags every sentence not word-for-word in the documents: items 1 and 2 caught, 0 and 3 not.
    assert (metrics["response"]["tp"], metrics["response"]["tn"]) == (2, 2)
    path = tmp_path / "r.json"
    write_json(report, path)
    text = path.read_text()
    assert "NaN" not in text and "Infinity" not in text
    assert json.loads(text)["metrics"]["response"]["n"] == 4


def test_html_is_self_contained_with_pngs(tmp_path: Path) -> None:
    report = _report(FakePipeline(contradict=frozenset({"not"})))
    path = tmp_path / "out" / "r.html"
    write_html(report, path)
    page = path.read_text()
    images = re.findall(r"data:image/png;base64,([A-Za-z0-9+/=]+)", page)
    assert len(images) >= 5  # systems, two confusion matrices, claims, stance, before/after, latency
    assert all(base64.b64decode(img).startswith(b"\x89PNG") for img in images)
    assert "http://" not in page and "https://" not in page
    assert "lexical_coverage" in page


def test_report_on_all_errors_still_renders() -> None:
    pipeline = FakePipeline(reject=frozenset(it.answer.id for it in _items()))
    report = _report(pipeline)
    assert report["counts"] == {"response": 4, "claim": 1, "stance": 1, "errors": 6}
    assert "<img" in render_html(report)

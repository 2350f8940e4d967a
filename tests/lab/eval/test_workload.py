"""The review share on the production-like workload (lab/eval/workload.py): near 2% of corrected
traffic, all of it high-stakes answers with a contradiction, none of it answers that are right.

Runs the real stages with the light embedder (tests/agents/helpers.py), in process; the share is read
back from the `woodpecker.review_rate` metric the workers export.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader

from lab.eval.workload import (
    CLEAN,
    CONTRADICTED,
    DOMAINS,
    UNSUPPORTED,
    main,
    review_share,
    workload_answers,
)
from tests.agents.helpers import light_pipeline
from workers.messages import Corrected
from workers.settings import Settings
from workers.telemetry import Metrics, record_result

N = 600


@pytest.fixture(scope="module")
def outputs() -> Iterator[tuple[list[Corrected], dict[str, str]]]:
    answers = workload_answers(N, seed=0)
    pipeline = light_pipeline(Settings())
    kinds = {a.id: str((a.metadata or {})["workload"]) for a in answers}
    yield [pipeline.process(a) for a in answers], kinds


def test_the_workload_is_fixed_and_has_the_stated_mix() -> None:
    answers = workload_answers(N, seed=0)
    assert [a.to_json() for a in answers] == [a.to_json() for a in workload_answers(N, seed=0)]
    assert {a.domain for a in answers} == set(DOMAINS)
    kinds = [str((a.metadata or {})["workload"]) for a in answers]
    assert 0.03 <= (N - kinds.count(CLEAN)) / N <= 0.07  # error_rate 5%
    assert kinds.count(CONTRADICTED) > 0 and kinds.count(UNSUPPORTED) > 0
    wrong = next(a for a in answers if (a.metadata or {})["workload"] == CONTRADICTED)
    assert wrong.answer not in wrong.documents[0].text


def test_review_share_is_near_two_percent_and_only_real_high_stakes_contradictions(
    outputs: tuple[list[Corrected], dict[str, str]],
) -> None:
    results, kinds = outputs
    share = review_share(results, workload_answers(N, seed=0))
    assert share.corrected == N  # every answer took the full path
    assert 0.01 <= share.share <= 0.035, share.as_dict()
    assert share.by_kind[CLEAN][0] == 0  # nothing right is sent to a person
    assert share.reasons == {"high_stakes_contradiction": share.review}
    reviewed = [out for out in results if out.needs_review]
    assert all(kinds[out.id] == CONTRADICTED for out in reviewed)
    # Each contradicted high-stakes answer is caught and held; a general one is corrected in place.
    contradicted = [out for out in results if kinds[out.id] == CONTRADICTED]
    high = {a.id for a in workload_answers(N, seed=0) if a.domain != "general"}
    assert {o.id for o in contradicted if o.needs_review} == {o.id for o in contradicted if o.id in high}
    assert all(o.corrected != o.original for o in contradicted)


def test_the_review_rate_metric_reports_the_same_share(
    outputs: tuple[list[Corrected], dict[str, str]],
) -> None:
    results, _ = outputs
    reader = InMemoryMetricReader()
    provider = MeterProvider(metric_readers=[reader])
    try:
        metrics = Metrics(provider.get_meter("test"))
        for out in results:
            record_result(out, metrics=metrics)
        data = reader.get_metrics_data()
        assert data is not None
        [rate] = [
            getattr(point, "value", None)
            for resource in data.resource_metrics
            for scope in resource.scope_metrics
            for metric in scope.metrics
            if metric.name == "woodpecker.review_rate"
            for point in metric.data.data_points
        ]
    finally:
        provider.shutdown()
    assert rate == pytest.approx(review_share(results).share)


def test_the_command_writes_the_workload_and_reads_back_the_share(
    tmp_path: Path, outputs: tuple[list[Corrected], dict[str, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    source, corrected = tmp_path / "workload.jsonl", tmp_path / "corrected.jsonl"
    assert main(["--answers", str(N), "--out", str(source)]) == 0
    assert len(source.read_bytes().splitlines()) == N
    results, _ = outputs
    corrected.write_bytes(b"".join(out.to_json() + b"\n" for out in results))
    capsys.readouterr()
    assert main(["--share", str(corrected), "--answers-file", str(source)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["corrected"] == N and printed["share"] == round(review_share(results).share, 4)
    assert printed["by_kind"]["clean"]["review"] == 0

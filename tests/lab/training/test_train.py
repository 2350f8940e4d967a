"""The training script end to end on a tiny set: it trains, calibrates, saves, reports and loads offline."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from lab.training.metrics import choose_thresholds, decide, fit_temperature, softmax
from lab.training.pairs import Pair
from lab.training.report import summarise, write_report
from lab.training.train import TrainConfig, predict, train
from workers.backends.checker import OfflineChecker
from workers.backends.crossenc import FROZEN, load_shipped
from workers.backends.trained import TrainedChecker, load_offline_verifier
from workers.messages import Claim, Evidence
from workers.settings import VerifierSettings

EVIDENCE = "Acme's revenue rose 12% to $4.1 billion in 2023, the company said in March."
PAIRS = [
    Pair("Acme's revenue rose 12% in 2023.", EVIDENCE, "SUPPORT", "exact"),
    Pair("Acme's revenue rose 40% in 2023.", EVIDENCE, "CONTRADICT", "number"),
    Pair("Acme's revenue fell 12% in 2023.", EVIDENCE, "CONTRADICT", "direction"),
    Pair("The river floods every spring.", EVIDENCE, "NEUTRAL", "other"),
] * 6
TINY = TrainConfig(
    epochs=3, batch_size=4, lr=5e-4, head_lr=5e-3, max_tokens=48, layers=1, max_minutes=3, progress=False
)


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, object]:
    out = tmp_path_factory.mktemp("verifier")
    return out, train(PAIRS, PAIRS[:8], config=TINY, out=out)


def test_training_runs_end_to_end_and_lowers_the_loss(trained: tuple[Path, object]) -> None:
    out, result = trained
    assert result.steps == 18  # 24 pairs / 4 per batch * 3 epochs
    assert np.mean(result.losses[-6:]) < np.mean(result.losses[:6])
    assert (out / "weights.safetensors").stat().st_size == result.weights_bytes
    meta = json.loads((out / "meta.json").read_text())
    assert meta["layers"] == 1 and meta["temperature"] > 0
    assert 0.2 <= meta["support_threshold"] <= 0.95


def test_the_frozen_table_is_not_shipped_and_the_rest_loads_back(trained: tuple[Path, object]) -> None:
    out, _ = trained
    net, meta = load_shipped(out)
    assert FROZEN in net.state_dict()  # comes from the package
    logits = predict(net, PAIRS[:4], max_tokens=meta.max_tokens)
    assert logits.shape == (4, 3) and np.isfinite(logits).all()


def test_report_files_are_written(trained: tuple[Path, object], tmp_path: Path) -> None:
    _, result = trained
    path = write_report(result, {"train": summarise(PAIRS), "valid": summarise(PAIRS[:8])}, out=tmp_path)
    assert "Validation" in path.read_text()
    assert (tmp_path / "loss.png").read_bytes()[:4] == b"\x89PNG"
    assert json.loads((tmp_path / "report.json").read_text())["data"]["train"]["labels"]["CONTRADICT"] == 12


def test_the_loaded_model_is_a_verdict_component_with_a_reason(
    trained: tuple[Path, object],
) -> None:
    out, _ = trained
    checker = load_offline_verifier(
        VerifierSettings(weights=str(out), runtime="fp32"), rules=OfflineChecker()
    )
    assert isinstance(checker, TrainedChecker)
    claim = Claim(id="c1", text="Acme's revenue rose 12% in 2023.", start=0, end=32)
    window = Evidence(doc_id="d1", start=0, end=len(EVIDENCE), text=EVIDENCE)
    [result] = checker.judge_many([(claim, [window])])
    assert result.evidence == window
    assert "P(support)" in result.reason
    assert checker.name.startswith("trained-minilm@")


def test_missing_weights_fall_back_to_the_rule_checks(tmp_path: Path) -> None:
    rules = OfflineChecker()
    assert load_offline_verifier(VerifierSettings(weights=str(tmp_path)), rules=rules) is rules
    assert load_offline_verifier(VerifierSettings(offline="rules"), rules=rules) is rules


def test_temperature_and_thresholds_are_fitted_on_validation_logits() -> None:
    rng = np.random.default_rng(0)
    gold = rng.integers(0, 3, size=300)
    logits = (np.eye(3)[gold] * 6 + rng.normal(0, 1, (300, 3))).astype(np.float32)
    noisy = np.where(rng.random(300) < 0.15, (gold + 1) % 3, gold)  # confident and 15% wrong
    assert fit_temperature(logits, noisy) > 1.0
    t = fit_temperature(logits, gold)
    support, contradict = choose_thresholds(logits / t, gold)
    pred = decide(softmax(logits / t), support=support, contradict=contradict)
    assert (pred == gold).mean() > 0.9


def test_a_two_way_pair_pays_for_support_only() -> None:
    import math

    import torch

    from lab.training.pairs import NOT_SUPPORT
    from lab.training.train import _loss

    logits = torch.tensor([[2.0, 0.5, -1.0], [2.0, 0.5, -1.0]])
    p = torch.softmax(logits[0], dim=0)
    got = _loss(logits, torch.tensor([NOT_SUPPORT, NOT_SUPPORT]), torch.ones(3))
    assert math.isclose(float(got), -math.log(1 - float(p[0])), rel_tol=1e-5)
    three = _loss(logits, torch.tensor([1, 1]), torch.ones(3))
    assert float(three) > float(got)  # "not support" is easier to meet than "contradict" exactly

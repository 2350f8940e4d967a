"""The shipped trained verifier: it loads offline from the package and gets clear cases right."""

from __future__ import annotations

import pytest
import torch

from workers.backends.checker import OfflineChecker
from workers.backends.crossenc import shipped_dir
from workers.backends.trained import TrainedChecker, load_offline_verifier, read_pairs
from workers.messages import Claim, Evidence, Judgement
from workers.settings import VerifierSettings

DOC = (
    "Northwind Bank reported net income of $2.4 billion for 2023, up 8% from a year earlier. "
    "The bank opened 35 new branches in Ohio and Michigan. "
    "Its chief executive, Maria Lopez, joined the company in 2015 after a decade at a rival lender."
)


def _window(sentence: str) -> Evidence:
    start = DOC.index(sentence)
    return Evidence(doc_id="annual-report", start=start, end=start + len(sentence), text=sentence)


FIRST = _window("Northwind Bank reported net income of $2.4 billion for 2023, up 8% from a year earlier.")
SECOND = _window("The bank opened 35 new branches in Ohio and Michigan.")
THIRD = _window(
    "Its chief executive, Maria Lopez, joined the company in 2015 after a decade at a rival lender."
)


@pytest.fixture(scope="module")
def checker() -> TrainedChecker:
    loaded = load_offline_verifier(VerifierSettings(), rules=OfflineChecker())
    assert isinstance(loaded, TrainedChecker), f"no trained verifier shipped in {shipped_dir()}"
    return loaded


def _claim(text: str) -> Claim:
    return Claim(id="c", text=text, start=0, end=len(text))


def test_the_weights_ship_in_the_package_and_stay_small() -> None:
    weights = shipped_dir() / "weights.safetensors"
    assert weights.is_file()
    assert weights.stat().st_size <= 50 * 1024 * 1024


def test_an_exact_restatement_is_support(checker: TrainedChecker) -> None:
    [result] = checker.judge_many([(_claim(SECOND.text), [SECOND])])
    assert result.label is Judgement.SUPPORT
    assert result.evidence == SECOND
    assert result.extra["p_support"] >= 0.5


def test_a_swapped_figure_is_contradict(checker: TrainedChecker) -> None:
    claim = _claim("The bank opened 85 new branches in Ohio and Michigan.")
    [result] = checker.judge_many([(claim, [SECOND])])
    assert result.label is Judgement.CONTRADICT
    assert result.evidence == SECOND


def test_an_unrelated_window_is_neutral(checker: TrainedChecker) -> None:
    claim = _claim("Maria Lopez joined the company in 2015.")
    [result] = checker.judge_many([(claim, [FIRST])])
    assert result.label is Judgement.NEUTRAL
    assert result.extra["p_support"] < 0.5


def test_the_supporting_window_among_several_is_the_one_cited(checker: TrainedChecker) -> None:
    claim = _claim("Maria Lopez joined the company in 2015.")
    [result] = checker.judge_many([(claim, [FIRST, SECOND, THIRD])])
    assert result.label is Judgement.SUPPORT
    assert result.evidence == THIRD
    assert "annual-report" in result.reason


def test_probabilities_are_calibrated_rows_that_sum_to_one(checker: TrainedChecker) -> None:
    probs = checker.probabilities([(SECOND.text, SECOND.text), ("The river floods in spring.", SECOND.text)])
    assert probs.shape == (2, 3)
    assert abs(probs.sum(axis=1) - 1.0).max() < 1e-6
    assert probs[0, 0] > probs[1, 0]


PAIRS = [
    ("Northwind opened 35 branches.", SECOND.text),
    ("Maria Lopez joined Northwind in 2015.", THIRD.text),
    ("Net income fell by 8% in 2023.", FIRST.text),
    ("The bank is based in Texas.", DOC),
]


def test_the_fp16_runtime_scores_a_pair_the_same_alone_or_in_a_batch(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOODPECKER_FP16", "on")  # fp16 weights whatever this CPU would choose
    checker = load_offline_verifier(VerifierSettings(runtime="fp16"), rules=OfflineChecker())
    assert isinstance(checker, TrainedChecker) and checker.name.endswith("-fp16")
    together = checker.probabilities(PAIRS)
    alone = [checker.probabilities([pair])[0] for pair in PAIRS]
    assert abs(together - alone).max() < 1e-5


def test_the_fp16_runtime_gives_fp32_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOODPECKER_FP16", "on")  # whatever this CPU would choose (`backends.cpu`)
    fp32 = load_offline_verifier(VerifierSettings(runtime="fp32"), rules=OfflineChecker())
    fp16 = load_offline_verifier(VerifierSettings(runtime="fp16"), rules=OfflineChecker())
    assert isinstance(fp32, TrainedChecker) and isinstance(fp16, TrainedChecker)
    assert abs(fp32.probabilities(PAIRS) - fp16.probabilities(PAIRS)).max() < 1e-4
    assert fp32.name != fp16.name  # verdicts cached under one runtime are not reused by the other


def test_claims_share_one_pass_and_keep_their_own_rows(checker: TrainedChecker) -> None:
    groups = [PAIRS[:1], [], PAIRS[1:]]
    rows = checker.claim_probabilities(groups)
    assert [r.shape for r in rows] == [(1, 3), (0, 3), (3, 3)]
    assert abs(rows[2] - checker.probabilities(PAIRS[1:])).max() < 1e-5


def test_calls_from_several_threads_keep_their_own_numbers(checker: TrainedChecker) -> None:
    from concurrent.futures import ThreadPoolExecutor

    alone = [checker.probabilities([pair]) for pair in PAIRS]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda pair: checker.probabilities([pair]), PAIRS * 4))
    assert all(abs(got - alone[i % len(PAIRS)]).max() < 1e-5 for i, got in enumerate(together))


def test_a_long_pair_gets_a_pass_of_its_own_so_short_ones_are_not_padded_to_it(
    checker: TrainedChecker, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Three short pairs and one as long as the model reads (128 word pieces): one batch would pad the
    # short ones to it; in length buckets they share a pass and the long one has its own.
    pairs = [("Net income rose.", FIRST.text), ("Branches opened.", SECOND.text), ("A CEO.", THIRD.text)]
    pairs.append(("Net income rose 8% in 2023.", " ".join([DOC] * 4)))
    widths: list[tuple[int, int]] = []
    forward = checker._net.forward

    def counted(**inputs: torch.Tensor) -> torch.Tensor:
        rows, width = inputs["input_ids"].shape
        widths.append((rows, width))
        return forward(**inputs)

    monkeypatch.setattr(checker._net, "forward", counted)
    together = checker._rows(list(pairs))
    assert len(widths) == 2 and sorted(n for n, _ in widths) == [1, 3]
    assert max(w for n, w in widths if n == 3) < max(w for n, w in widths if n == 1)
    monkeypatch.undo()
    alone = [checker._rows([pair])[0] for pair in pairs]
    assert max(abs(a - b).max() for a, b in zip(together, alone, strict=True)) < 1e-5


def test_a_value_the_window_spells_another_way_is_read_as_the_claims(checker: TrainedChecker) -> None:
    text = "Route 495 is a 3.45 mi freeway in Hudson County , New Jersey , in the United States ."
    window = Evidence(doc_id="nj-roads", start=0, end=len(text), text=text)
    claim = _claim("Route 495 is a 3.45-mile freeway in Hudson County, New Jersey.")
    assert read_pairs(claim, [window]) == [(claim.text, text.replace("3.45 mi", "3.45-mile"))]
    # read as written, the unit's spelling alone looks like a changed figure to the network
    [as_written] = checker.probabilities([(claim.text, text)])
    [result] = checker.judge_many([(claim, [window])])
    assert as_written[1] > 0.5
    assert result.label is Judgement.SUPPORT
    assert result.extra["p_contradict"] < 0.5


def test_a_conflict_the_rules_cannot_fix_is_said_in_the_reason(checker: TrainedChecker) -> None:
    text = "In 2021 the appeal court overturned the award of $1,500,000."
    window = Evidence(doc_id="ruling", start=0, end=len(text), text=text)
    [result] = checker.judge_many(
        [(_claim("The appeal court upheld the award of $1.5 million in 2021."), [window])]
    )
    assert not result.fixes
    assert "rules: CONTRADICT (outcome: 'upheld' in claim, 'overturned' in evidence" in result.reason

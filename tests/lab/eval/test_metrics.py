"""Each metric on hand-computed cases: empty input, all correct, all wrong, and a mixed case."""

from __future__ import annotations

import math
from collections.abc import Mapping

import pytest

from lab.eval.metrics import (
    Confusion,
    binary_scores,
    confusion,
    histogram,
    lev_similarity,
    levenshtein,
    mean,
    multiclass_scores,
    percentile,
    preservation,
    ratio,
    share,
    span_scores,
    token_f1,
)


def _finite(values: Mapping[str, object]) -> bool:
    return all(math.isfinite(v) for v in values.values() if isinstance(v, float))


def test_binary_empty_is_zero_not_nan() -> None:
    scores = binary_scores(confusion(gold=[], pred=[]))
    assert scores["precision"] == scores["recall"] == scores["f1"] == 0.0
    assert scores["balanced_accuracy"] == scores["accuracy"] == 0.0
    assert scores["n"] == 0
    assert _finite(scores)


def test_binary_all_correct() -> None:
    scores = binary_scores(confusion(gold=[True, False, True], pred=[True, False, True]))
    assert scores["precision"] == scores["recall"] == scores["f1"] == 1.0
    assert scores["balanced_accuracy"] == scores["accuracy"] == 1.0


def test_binary_all_wrong() -> None:
    scores = binary_scores(confusion(gold=[True, False], pred=[False, True]))
    assert scores["precision"] == scores["recall"] == scores["f1"] == 0.0
    assert scores["balanced_accuracy"] == scores["accuracy"] == 0.0
    assert (scores["tp"], scores["fp"], scores["fn"], scores["tn"]) == (0, 1, 1, 0)


def test_binary_mixed_hand_computed() -> None:
    # tp=2 fp=1 fn=1 tn=2: P = R = 2/3, F1 = 2/3, TPR = 2/3, TNR = 2/3.
    gold = [True, True, True, False, False, False]
    pred = [True, True, False, True, False, False]
    scores = binary_scores(confusion(gold=gold, pred=pred))
    assert scores["precision"] == pytest.approx(2 / 3)
    assert scores["recall"] == pytest.approx(2 / 3)
    assert scores["f1"] == pytest.approx(2 / 3)
    assert scores["balanced_accuracy"] == pytest.approx(2 / 3)


def test_balanced_accuracy_uses_only_present_classes() -> None:
    # Only negatives in gold: balanced accuracy is the true-negative rate.
    assert binary_scores(Confusion(tn=3, fp=1))["balanced_accuracy"] == pytest.approx(0.75)
    # A detector that says "never": recall 0 on positives, 1 on negatives.
    assert binary_scores(Confusion(fn=4, tn=6))["balanced_accuracy"] == pytest.approx(0.5)


def test_confusion_rejects_unequal_lengths() -> None:
    with pytest.raises(ValueError, match="differ"):
        confusion(gold=[True], pred=[])


def test_ratio_and_share_rules() -> None:
    assert ratio(1, 0) == 0.0
    assert share(1, 0) is None
    assert share(1, 4) == 0.25
    assert mean([]) is None
    assert mean([1.0, 2.0]) == 1.5


def test_span_scores_cases() -> None:
    empty = span_scores([])
    assert empty["precision"] == empty["recall"] == empty["f1"] == 0.0
    perfect = span_scores([([(0, 10)], [(0, 10)])])
    assert perfect["f1"] == 1.0
    disjoint = span_scores([([(0, 5)], [(5, 10)])])
    assert disjoint["precision"] == disjoint["recall"] == disjoint["f1"] == 0.0
    # gold 0-10, predicted 5-15 and 5-8 (overlapping spans count once): hit 5 of 10 each way.
    partial = span_scores([([(0, 10)], [(5, 15), (5, 8)]), ([], [])])
    assert (partial["precision"], partial["recall"], partial["f1"]) == (0.5, 0.5, 0.5)


def test_multiclass_scores() -> None:
    labels = ("a", "b", "c")
    scores = multiclass_scores(gold=["a", "b", "b", "c"], pred=["a", "b", "c", "c"], labels=labels)
    assert scores["accuracy"] == 0.75
    assert scores["matrix"] == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    empty = multiclass_scores(gold=[], pred=[], labels=labels)
    assert empty["accuracy"] == 0.0
    assert empty["macro_recall"] == 0.0


def test_levenshtein_and_preservation() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert levenshtein("", "abc") == levenshtein("abc", "") == 3
    assert levenshtein("same", "same") == 0
    assert preservation("abcd", "abcd") == 1.0
    assert preservation("abcd", "") == 0.0
    assert preservation("ab", "abcdefgh") == 0.0  # 6 edits on 2 chars, floored at zero
    assert preservation("Paris is in Spain.", "Paris is in France.") == pytest.approx(1 - 5 / 18)
    assert preservation("", "") == 1.0


def test_similarities() -> None:
    assert lev_similarity("", "") == 1.0
    assert lev_similarity("abc", "xyz") == 0.0
    assert token_f1("The cat sat", "the cat sat") == 1.0
    assert token_f1("", "") == 1.0
    assert token_f1("dog", "") == 0.0
    # common {a} of 2 and 2 tokens: P = R = 0.5.
    assert token_f1("a b", "a c") == pytest.approx(0.5)


def test_percentile_and_histogram() -> None:
    assert percentile([], 50) is None
    assert percentile([5.0], 95) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 100) == 4.0
    assert histogram([]) == {"edges": [], "counts": []}
    hist = histogram([1.0, 1.0, 2.0, 5.0], bins=4)
    assert hist["counts"] == [2.0, 1.0, 0.0, 1.0]
    assert histogram([3.0, 3.0], bins=2)["counts"] == [2.0, 0.0]

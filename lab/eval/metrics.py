"""Pure metric functions for the evaluation harness. None of them ever returns NaN.

Two rules for empty denominators, so a report never holds NaN:

- detection scores (precision, recall, F1, accuracy, balanced accuracy) are 0.0 when their
  denominator is empty, the `zero_division=0` convention of scikit-learn;
- shares and averages over a population (claim accuracy, citation precision, correction rate,
  preservation, similarity, latency percentiles) are `None` when the population is empty:
  "not measurable on this data", not "zero".

Usage::

    scores = binary_scores(confusion(gold=[True, False], pred=[True, True]))
    scores["f1"], scores["balanced_accuracy"]
    preservation("Paris is in Spain.", "Paris is in France.")
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

__all__ = [
    "Confusion",
    "binary_scores",
    "char_set",
    "confusion",
    "histogram",
    "lev_similarity",
    "levenshtein",
    "mean",
    "multiclass_scores",
    "percentile",
    "preservation",
    "ratio",
    "share",
    "span_scores",
    "token_f1",
]

Number = float | int | None


def ratio(num: float, den: float) -> float:
    """num / den, or 0.0 for an empty denominator (detection scores)."""
    return num / den if den else 0.0


def share(num: float, den: float) -> float | None:
    """num / den, or None for an empty population (shares and averages)."""
    return num / den if den else None


def mean(values: Iterable[float]) -> float | None:
    items = list(values)
    return sum(items) / len(items) if items else None


@dataclass(frozen=True, slots=True)
class Confusion:
    """Counts for a binary detector; positive = "hallucinated"."""

    tp: int = 0
    fp: int = 0
    fn: int = 0
    tn: int = 0

    @property
    def n(self) -> int:
        return self.tp + self.fp + self.fn + self.tn


def confusion(*, gold: Sequence[bool], pred: Sequence[bool]) -> Confusion:
    if len(gold) != len(pred):
        raise ValueError(f"gold and pred differ in length: {len(gold)} != {len(pred)}")
    pairs = Counter(zip(gold, pred, strict=True))
    return Confusion(
        tp=pairs[(True, True)], fp=pairs[(False, True)], fn=pairs[(True, False)], tn=pairs[(False, False)]
    )


def binary_scores(c: Confusion) -> dict[str, Number]:
    """Precision, recall, F1 of the positive class, accuracy, balanced accuracy, and the counts.

    Balanced accuracy is the mean recall over the classes present in the gold labels.
    """
    precision = ratio(c.tp, c.tp + c.fp)
    recall = ratio(c.tp, c.tp + c.fn)
    recalls = [ratio(c.tp, c.tp + c.fn)] if c.tp + c.fn else []
    recalls += [ratio(c.tn, c.tn + c.fp)] if c.tn + c.fp else []
    return {
        "precision": precision,
        "recall": recall,
        "f1": ratio(2 * precision * recall, precision + recall),
        "accuracy": ratio(c.tp + c.tn, c.n),
        "balanced_accuracy": ratio(sum(recalls), len(recalls)),
        "n": c.n,
        "tp": c.tp,
        "fp": c.fp,
        "fn": c.fn,
        "tn": c.tn,
    }


def multiclass_scores(
    *, gold: Sequence[str], pred: Sequence[str], labels: Sequence[str]
) -> dict[str, object]:
    """Accuracy, per-class recall and the confusion matrix (rows gold, columns predicted)."""
    pairs = Counter(zip(gold, pred, strict=True))
    matrix = [[pairs[(g, p)] for p in labels] for g in labels]
    recall = {g: ratio(pairs[(g, g)], sum(row)) for g, row in zip(labels, matrix, strict=True)}
    return {
        "accuracy": ratio(sum(pairs[(g, g)] for g in labels), len(gold)),
        "macro_recall": ratio(sum(recall.values()), len(labels)),
        "recall": recall,
        "labels": list(labels),
        "matrix": matrix,
        "n": len(gold),
    }


def char_set(spans: Iterable[tuple[int, int]]) -> set[int]:
    """The character positions the `[start, end)` spans cover."""
    return {i for start, end in spans for i in range(start, end)}


def span_scores(
    pairs: Iterable[tuple[Iterable[tuple[int, int]], Iterable[tuple[int, int]]]],
) -> dict[str, Number]:
    """Character-overlap precision, recall and F1, micro-averaged over (gold spans, predicted spans) pairs."""
    hit = pred_total = gold_total = 0
    for gold_spans, pred_spans in pairs:
        gold, pred = char_set(gold_spans), char_set(pred_spans)
        hit += len(gold & pred)
        pred_total += len(pred)
        gold_total += len(gold)
    precision, recall = ratio(hit, pred_total), ratio(hit, gold_total)
    return {
        "precision": precision,
        "recall": recall,
        "f1": ratio(2 * precision * recall, precision + recall),
        "gold_chars": gold_total,
        "predicted_chars": pred_total,
        "overlap_chars": hit,
    }


def levenshtein(a: str, b: str) -> int:
    """Character edit distance; a shared prefix and suffix are skipped, so local edits are cheap."""
    a, b = _trim(a, b)
    if len(a) < len(b):
        a, b = b, a
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i]
        for j, cb in enumerate(b, start=1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _trim(a: str, b: str) -> tuple[str, str]:
    """Both strings without their common prefix and suffix."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    a, b = a[head:], b[head:]
    tail = 0
    while tail < min(len(a), len(b)) and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return a[: len(a) - tail], b[: len(b) - tail]


def preservation(original: str, corrected: str) -> float:
    """RARR's Pres_Lev: max(0, 1 - Lev(original, corrected) / len(original)); 1.0 for an empty original."""
    if not original:
        return 1.0 if not corrected else 0.0
    return max(0.0, 1.0 - levenshtein(original, corrected) / len(original))


def lev_similarity(a: str, b: str) -> float:
    """1 - Lev(a, b) / max(len(a), len(b)); 1.0 for two empty strings."""
    longest = max(len(a), len(b))
    return 1.0 - levenshtein(a, b) / longest if longest else 1.0


def _tokens(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def token_f1(prediction: str, reference: str) -> float:
    """SQuAD-style bag-of-words F1; 1.0 when both are empty, 0.0 when only one is."""
    pred, ref = Counter(_tokens(prediction)), Counter(_tokens(reference))
    if not pred and not ref:
        return 1.0
    common = sum((pred & ref).values())
    precision, recall = ratio(common, sum(pred.values())), ratio(common, sum(ref.values()))
    return ratio(2 * precision * recall, precision + recall)


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0..100) with linear interpolation, as numpy's default; None when empty."""
    finite = sorted(v for v in values if math.isfinite(v))
    if not finite:
        return None
    rank = (len(finite) - 1) * min(max(q, 0.0), 100.0) / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(finite) - 1)
    return finite[low] + (finite[high] - finite[low]) * (rank - low)


def histogram(values: Sequence[float], *, bins: int = 20) -> dict[str, list[float]]:
    """Equal-width bins over the finite values: `edges` (bins + 1) and `counts` (bins)."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return {"edges": [], "counts": []}
    low, high = min(finite), max(finite)
    width = (high - low) / bins or 1.0
    counts = [0.0] * bins
    for v in finite:
        counts[min(int((v - low) / width), bins - 1)] += 1
    return {"edges": [low + i * width for i in range(bins + 1)], "counts": counts}

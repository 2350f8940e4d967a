"""Calibration and validation measures for the verifier's 3-way logits.

A gold index of `NOT_SUPPORT` (-1) marks a two-way pair: it is right when the prediction is anything but
SUPPORT, and it takes no part in the temperature or the three-way F1 (it has no logit of its own).

Usage::

    t = fit_temperature(logits, gold)
    support, contradict = choose_thresholds(logits / t, gold)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from lab.training.pairs import LABELS, NOT_SUPPORT
from workers.backends.crossenc import Meta

__all__ = ["choose_thresholds", "correct", "decide", "fit_temperature", "pair_metrics", "softmax"]

_S, _C, _N = (LABELS.index(x) for x in ("SUPPORT", "CONTRADICT", "NEUTRAL"))


def softmax(logits: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
    z = logits.astype(np.float64) - logits.max(axis=1, keepdims=True)
    e = np.exp(z)
    out: npt.NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
    return out


def fit_temperature(logits: npt.NDArray[np.float32], gold: npt.NDArray[np.int64]) -> float:
    """The temperature that minimises the validation negative log-likelihood (a grid, then a finer one)."""
    logits, gold = logits[gold >= 0], gold[gold >= 0]
    if len(gold) == 0:
        return 1.0

    def nll(t: float) -> float:
        p = softmax((logits / t).astype(np.float32))
        return float(-np.mean(np.log(np.clip(p[np.arange(len(gold)), gold], 1e-12, 1.0))))

    coarse = min(np.geomspace(0.25, 8.0, 31), key=nll)
    fine = min(np.linspace(coarse * 0.8, coarse * 1.25, 21), key=nll)
    return round(float(fine), 4)


def decide(probs: npt.NDArray[np.float64], *, support: float, contradict: float) -> npt.NDArray[np.int64]:
    """Per row: SUPPORT at or above `support`, else CONTRADICT at or above `contradict`, else NEUTRAL."""
    out = np.full(len(probs), _N, dtype=np.int64)
    out[probs[:, _C] >= contradict] = _C
    out[probs[:, _S] >= support] = _S
    return out


def choose_thresholds(logits: npt.NDArray[np.float32], gold: npt.NDArray[np.int64]) -> tuple[float, float]:
    """Support threshold: best balanced accuracy of supported vs not; contradiction: then best macro-F1."""
    if len(gold) == 0:
        return 0.5, 0.5
    probs = softmax(logits)
    grid = np.round(np.arange(0.2, 0.951, 0.025), 3)
    support = max(grid, key=lambda t: _balanced(probs[:, _S] >= t, gold == _S))
    three = gold >= 0
    contradict = max(
        grid, key=lambda t: _macro_f1(decide(probs[three], support=support, contradict=t), gold[three])
    )
    return float(support), float(contradict)


def _balanced(pred: npt.NDArray[np.bool_], gold: npt.NDArray[np.bool_]) -> float:
    pos, neg = gold.sum(), (~gold).sum()
    tpr = (pred & gold).sum() / pos if pos else 0.0
    tnr = (~pred & ~gold).sum() / neg if neg else 0.0
    return float((tpr + tnr) / 2)


def _f1(pred: npt.NDArray[np.int64], gold: npt.NDArray[np.int64], label: int) -> dict[str, float]:
    tp = float(((pred == label) & (gold == label)).sum())
    p = tp / max(1, int((pred == label).sum()))
    r = tp / max(1, int((gold == label).sum()))
    return {
        "precision": round(p, 4),
        "recall": round(r, 4),
        "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0,
    }


def _macro_f1(pred: npt.NDArray[np.int64], gold: npt.NDArray[np.int64]) -> float:
    return float(np.mean([_f1(pred, gold, i)["f1"] for i in range(len(LABELS))]))


def correct(pred: npt.NDArray[np.int64], gold: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
    """Right per row: the same label, or anything but SUPPORT for a two-way NOT_SUPPORT pair."""
    out: npt.NDArray[np.bool_] = np.where(gold == NOT_SUPPORT, pred != _S, pred == gold)
    return out


def pair_metrics(
    logits: npt.NDArray[np.float32], gold: npt.NDArray[np.int64], sources: Sequence[str], *, meta: Meta
) -> dict[str, Any]:
    """Accuracy, per-label P/R/F1 and accuracy, supported-vs-not balanced accuracy, and accuracy by source."""
    probs = softmax(logits)
    pred = decide(probs, support=meta.support_threshold, contradict=meta.contradict_threshold)
    right = correct(pred, gold)
    names = np.array(sources)
    three = gold >= 0
    golds = {name: i for i, name in enumerate(LABELS)} | {"NOT_SUPPORT": NOT_SUPPORT}
    return {
        "pairs": len(gold),
        "accuracy": round(float(right.mean()), 4) if len(gold) else None,
        "macro_f1": round(_macro_f1(pred[three], gold[three]), 4),
        "support_balanced_accuracy": round(_balanced(pred == _S, gold == _S), 4),
        "labels": {name: _f1(pred[three], gold[three], i) for i, name in enumerate(LABELS)},
        "by_label": {
            name: {"pairs": int((gold == i).sum()), "accuracy": round(float(right[gold == i].mean()), 4)}
            for name, i in golds.items()
            if (gold == i).any()
        },
        "by_source": {
            s: {"pairs": int((names == s).sum()), "accuracy": round(float(right[names == s].mean()), 4)}
            for s in sorted(set(sources))
        },
    }

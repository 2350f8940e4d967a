"""The training report: `report.json`, a readable `report.md` and the loss curve `loss.png`.

Usage::

    write_report(result, data_summary, out=Path("bench/results/verifier"))
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from lab.training.pairs import Pair
from lab.training.train import TrainResult

__all__ = ["summarise", "write_report"]


def summarise(pairs: Sequence[Pair]) -> dict[str, Any]:
    """Counts by label and by source."""
    return {
        "pairs": len(pairs),
        "labels": dict(sorted(Counter(p.label for p in pairs).items())),
        "sources": dict(sorted(Counter(p.source for p in pairs).items())),
    }


def write_report(result: TrainResult, data: dict[str, Any], *, out: Path) -> Path:
    """Write the three files into `out`; returns the Markdown report's path."""
    out.mkdir(parents=True, exist_ok=True)
    body = {
        "data": data,
        "validation": result.metrics,
        "meta": asdict(result.meta),
        "seconds": round(result.seconds, 1),
        "steps": result.steps,
        "weights_bytes": result.weights_bytes,
        "train_loss_first_last": _ends(result.losses),
    }
    (out / "report.json").write_text(json.dumps(body, indent=2) + "\n", encoding="utf-8")
    _loss_png(result, out / "loss.png")
    path = out / "report.md"
    path.write_text(_markdown(body), encoding="utf-8")
    return path


def _ends(losses: Sequence[float]) -> list[float]:
    if not losses:
        return []
    k = max(1, min(50, len(losses) // 5))
    return [round(float(np.mean(losses[:k])), 4), round(float(np.mean(losses[-k:])), 4)]


def _loss_png(result: TrainResult, path: Path) -> None:
    fig = Figure(figsize=(7, 3.6), layout="constrained")
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    if result.losses:
        k = max(1, len(result.losses) // 100)
        smooth = np.convolve(result.losses, np.ones(k) / k, mode="valid")
        ax.plot(np.arange(len(smooth)) + k, smooth, label=f"training loss (mean of {k} batches)")
    if result.valid_losses:
        xs, ys = zip(*result.valid_losses, strict=True)
        ax.scatter(xs, ys, color="#c62828", zorder=3, label="validation loss")
    ax.set_xlabel("batch")
    ax.set_ylabel("cross-entropy")
    ax.set_title("Verifier training")
    ax.legend()
    fig.savefig(path, format="png", dpi=90)


def _markdown(body: dict[str, Any]) -> str:
    v, meta, data = body["validation"], body["meta"], body["data"]
    lines = [
        "# Verifier training report",
        "",
        f"- {body['steps']} batches in {body['seconds']} s; weights {body['weights_bytes'] / 1e6:.1f} MB",
        f"- training pairs: {data['train']['pairs']} {data['train']['labels']}",
        f"- validation pairs (never trained on): {data['valid']['pairs']} {data['valid']['labels']}",
        f"- temperature {meta['temperature']}, support threshold {meta['support_threshold']}, "
        f"contradiction threshold {meta['contradict_threshold']}",
        "",
        "## Validation",
        "",
        f"accuracy {v['accuracy']}, macro-F1 {v['macro_f1']}, supported-vs-not balanced accuracy "
        f"{v['support_balanced_accuracy']}",
        "",
        "| label | precision | recall | F1 |",
        "|---|---|---|---|",
        *(f"| {k} | {x['precision']} | {x['recall']} | {x['f1']} |" for k, x in v["labels"].items()),
        "",
        "| source | pairs | accuracy |",
        "|---|---|---|",
        *(f"| {k} | {x['pairs']} | {x['accuracy']} |" for k, x in v["by_source"].items()),
        "",
        "![loss](loss.png)",
        "",
    ]
    return "\n".join(lines)

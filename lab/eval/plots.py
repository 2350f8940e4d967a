"""The report's plots as base64 PNG strings, drawn with matplotlib's Agg canvas (no display, no pyplot).

Usage::

    png = confusion_png(report["metrics"]["response"], title="woodpecker")
    html = f'<img src="data:image/png;base64,{png}">'
"""

from __future__ import annotations

import base64
import io
import itertools
from collections.abc import Mapping, Sequence
from typing import Any

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

__all__ = ["before_after_png", "confusion_png", "latency_png", "matrix_png", "systems_png"]


def _encode(fig: Figure) -> str:
    FigureCanvasAgg(fig)  # attaches the Agg canvas, so no GUI backend is ever chosen
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=90)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def _num(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def before_after_png(correction: Mapping[str, Any]) -> str:
    """Paired bars of the correction measures that have a before and an after value."""
    revision = correction.get("revision_similarity") or {}
    pairs = [
        ("claim accuracy", correction.get("claim_accuracy_before"), correction.get("claim_accuracy_after")),
        ("verified share", correction.get("verified_share_before"), correction.get("verified_share_after")),
        (
            "answer citations",
            correction.get("citation_precision_before"),
            correction.get("citation_precision_after"),
        ),
        ("revision sim. (Lev)", revision.get("lev_before"), revision.get("lev_after")),
        ("revision sim. (token F1)", revision.get("token_f1_before"), revision.get("token_f1_after")),
    ]
    shown = [(name, _num(b) or 0.0, _num(a) or 0.0) for name, b, a in pairs if _num(b) is not None]
    fig = Figure(figsize=(7, 3.6), layout="constrained")
    ax = fig.add_subplot()
    xs = range(len(shown))
    ax.bar([x - 0.2 for x in xs], [b for _, b, _ in shown], width=0.4, label="before", color="#9e9e9e")
    ax.bar([x + 0.2 for x in xs], [a for _, _, a in shown], width=0.4, label="after", color="#2e7d32")
    ax.set_xticks(list(xs), [name for name, _, _ in shown])
    ax.set_ylim(0, 1.05)
    ax.set_title("Before and after correction")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _encode(fig)


def matrix_png(matrix: Sequence[Sequence[float]], labels: Sequence[str], *, title: str) -> str:
    """A confusion matrix, rows gold and columns predicted, with the counts written in."""
    fig = Figure(figsize=(1.4 + 1.1 * len(labels), 1.0 + 1.0 * len(labels)), layout="constrained")
    ax = fig.add_subplot()
    ax.imshow([[float(v) for v in row] for row in matrix], cmap="Blues")
    top = max((float(v) for row in matrix for v in row), default=0.0)
    for i, row in enumerate(matrix):
        for j, value in enumerate(row):
            dark = top > 0 and float(value) > top / 2
            ax.text(j, i, str(int(value)), ha="center", va="center", color="white" if dark else "black")
    ax.set_xticks(range(len(labels)), labels, rotation=30, ha="right")
    ax.set_yticks(range(len(labels)), labels)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    ax.set_title(title)
    return _encode(fig)


def confusion_png(scores: Mapping[str, Any], *, title: str) -> str:
    """The 2x2 matrix of a binary detector (positive = hallucinated)."""
    matrix = [[scores.get("tn", 0), scores.get("fp", 0)], [scores.get("fn", 0), scores.get("tp", 0)]]
    return matrix_png(matrix, ["faithful", "hallucinated"], title=title)


def latency_png(histogram: Mapping[str, Sequence[float]]) -> str:
    """Per-answer latency histogram from precomputed `edges` and `counts`."""
    edges, counts = list(histogram.get("edges", ())), list(histogram.get("counts", ()))
    fig = Figure(figsize=(7, 3.2), layout="constrained")
    ax = fig.add_subplot()
    if counts:
        widths = [b - a for a, b in itertools.pairwise(edges)]
        ax.bar(edges[:-1], counts, width=widths, align="edge", color="#1565c0", edgecolor="white")
    ax.set_xlabel("ms per answer")
    ax.set_ylabel("answers")
    ax.set_title("Latency per answer")
    return _encode(fig)


def systems_png(rows: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    """F1 and balanced accuracy of each system's response-level detection."""
    fig = Figure(figsize=(max(6.0, 0.9 * len(rows) + 2), 3.8), layout="constrained")
    ax = fig.add_subplot()
    xs = range(len(rows))
    for offset, key, color in ((-0.2, "f1", "#6a1b9a"), (0.2, "balanced_accuracy", "#ef6c00")):
        ax.bar(
            [x + offset for x in xs], [_num(r.get(key)) or 0.0 for _, r in rows], 0.4, label=key, color=color
        )
    ax.set_xticks(list(xs), [name for name, _ in rows], rotation=30, ha="right")
    ax.set_ylim(0, 1.05)
    ax.set_title("Response-level detection")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return _encode(fig)

"""The evaluation report: a JSON document, and one self-contained HTML page with embedded PNG plots.

Usage::

    report = build_report(run, dataset="halueval-qa", dev_items=dev, threshold_for=thr, meta={"split": "all"})
    write_json(report, Path("report.json"))
    write_html(report, Path("report.html"))
"""

from __future__ import annotations

import html
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lab.eval import plots
from lab.eval.baselines import (
    detector_system,
    fit_lexical_threshold,
    lexical_system,
    no_correction,
    similarity_system,
)
from lab.eval.datasets import EvalItem
from lab.eval.runner import Run
from lab.eval.scoring import system_metrics, woodpecker_metrics
from workers.messages import Answer

__all__ = ["baseline_metrics", "build_report", "render_html", "write_html", "write_json"]

_MAX_ERRORS = 20


def build_report(
    run: Run,
    *,
    dataset: str,
    dev_items: Sequence[EvalItem],
    threshold_for: Callable[[Answer], float],
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Everything measured in one run; `meta` (split, seed, settings, ...) is copied in as is."""
    metrics = woodpecker_metrics(run)
    errors = [f"{o.item.answer.id}: {o.error}" for o in run.outcomes if o.error]
    kinds = [o.item.kind for o in run.outcomes]
    return {
        "dataset": dataset,
        "n": len(run.outcomes),
        "counts": {k: kinds.count(k) for k in ("response", "claim", "stance")} | {"errors": len(errors)},
        "routes": _routes(run),
        **dict(meta or {}),
        "metrics": metrics,
        "baselines": baseline_metrics(
            run,
            dev_items=dev_items,
            threshold_for=threshold_for,
            claim_accuracy=metrics["correction"]["claim_accuracy_before"],
        ),
        "errors": errors[:_MAX_ERRORS],
        "wall_s": round(run.wall_s, 3),
    }


def _routes(run: Run) -> dict[str, int]:
    """How the pipeline routed the items; with routing off only `full` and cache reuse should appear."""
    routes = [o.corrected.route.value for o in run.outcomes if o.corrected is not None]
    return {r: routes.count(r) for r in sorted(set(routes))}


def baseline_metrics(
    run: Run,
    *,
    dev_items: Sequence[EvalItem],
    threshold_for: Callable[[Answer], float],
    claim_accuracy: float | None,
) -> dict[str, Any]:
    """Each baseline scored by the same code; the lexical cut is fitted per item kind on `dev_items`."""
    fits = {
        kind: fit_lexical_threshold([it for it in dev_items if it.kind == kind])
        for kind in ("response", "claim")
    }
    cuts = {kind: fit.threshold for kind, fit in fits.items() if fit.n}
    names = dict.fromkeys(name for o in run.outcomes for name, _ in o.item.detectors)
    systems = [
        no_correction(),
        similarity_system(threshold_for),
        lexical_system(cuts),
        *map(detector_system, names),
    ]
    out = {system.name: system_metrics(run.outcomes, system) for system in systems}
    out["no_correction"]["correction"] = {
        "claim_accuracy_before": claim_accuracy,
        "claim_accuracy_after": claim_accuracy,
        "correction_rate": 0.0,
        "preservation": 1.0,
    }
    out["similarity_tier_only"]["threshold"] = "the answer domain's tier-1 threshold (settings.thresholds)"
    out["lexical_coverage"]["threshold"] = cuts.get("response")
    out["lexical_coverage"]["fit"] = {
        kind: {"threshold": f.threshold, "dev_balanced_accuracy": f.balanced_accuracy, "dev_n": f.n}
        for kind, f in fits.items()
        if f.n
    } | {"chosen_on": "dev split", "objective": "balanced_accuracy"}
    for name in names:
        out[name]["rule"] = "score >= 0.5 = consistent"
    return out


def write_json(report: Mapping[str, Any], path: Path) -> None:
    """Indented JSON; refuses NaN or infinity rather than writing invalid JSON."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2, allow_nan=False, default=str) + "\n", encoding="utf-8")


def write_html(report: Mapping[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_html(report), encoding="utf-8")


# ---- HTML ---------------------------------------------------------------------------------------------

_STYLE = """
body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:72rem;color:#222}
table{border-collapse:collapse;margin:0.5rem 0 1.5rem}
td,th{border:1px solid #ccc;padding:0.25rem 0.6rem;text-align:right}
th:first-child,td:first-child{text-align:left}
img{max-width:100%;margin:0.5rem 0}
.note{color:#555}
"""


def render_html(report: Mapping[str, Any]) -> str:
    """One page, no external resources: tables of the metrics and the plots as data: URIs."""
    metrics = report["metrics"]
    parts = [
        f"<h1>woodpecker eval: {_e(report['dataset'])}</h1>",
        _meta_table(report),
        "<h2>Response-level detection (positive = hallucinated)</h2>",
        _systems_table(_systems(report)),
        _img(plots.systems_png(_systems(report))),
        _img(plots.confusion_png(metrics["response"], title="woodpecker")),
        _img(plots.confusion_png(metrics["response_strict"], title="woodpecker, contradicted only")),
        *_optional_sections(report),
        "<h2>Correction</h2>",
        _kv_table(metrics["correction"]),
        _img(plots.before_after_png(metrics["correction"])),
        "<h2>Cost</h2>",
        _kv_table({k: v for k, v in metrics["cost"].items() if k != "latency_histogram"}),
        _img(plots.latency_png(metrics["cost"]["latency_histogram"])),
    ]
    body = "\n".join(parts)
    return (
        "<!doctype html>\n<html><head><meta charset='utf-8'>"
        f"<title>woodpecker eval: {_e(report['dataset'])}</title><style>{_STYLE}</style></head>"
        f"<body>\n{body}\n</body></html>\n"
    )


def _systems(report: Mapping[str, Any]) -> list[tuple[str, Mapping[str, Any]]]:
    metrics = report["metrics"]
    rows = [
        ("woodpecker", metrics["response"]),
        ("woodpecker (contradicted only)", metrics["response_strict"]),
    ]
    return rows + [(name, b["response"]) for name, b in report["baselines"].items()]


def _optional_sections(report: Mapping[str, Any]) -> list[str]:
    metrics, baselines = report["metrics"], report["baselines"]
    parts: list[str] = []
    for key, title in (
        ("response_lenient", "Response level, Unwanted + Questionable"),
        ("span", "Span level (character overlap)"),
        ("span_lenient", "Span level, Unwanted + Questionable"),
        ("claim", "Claim level (positive = false claim)"),
    ):
        if key in metrics:
            rows = [("woodpecker", metrics[key])] + [(n, b[key]) for n, b in baselines.items() if key in b]
            parts += [f"<h2>{_e(title)}</h2>", _systems_table(rows)]
    if "claim" in metrics:
        parts.append(_img(plots.confusion_png(metrics["claim"], title="claims (positive = false)")))
    if "stance" in metrics:
        stance = metrics["stance"]
        parts += [
            "<h2>Stance (4-way)</h2>",
            _kv_table(
                {"accuracy": stance["accuracy"], "macro_recall": stance["macro_recall"], "n": stance["n"]}
            ),
            _img(plots.matrix_png(stance["matrix"], stance["labels"], title="stance")),
        ]
    return parts


def _meta_table(report: Mapping[str, Any]) -> str:
    skip = {"metrics", "baselines", "settings", "errors"}
    shown = {k: v for k, v in report.items() if k not in skip}
    settings = report.get("settings") or {}
    note = f"<p class='note'>{_e(settings.get('note', ''))}</p>" if isinstance(settings, dict) else ""
    return _kv_table(shown) + note


def _systems_table(rows: Sequence[tuple[str, Mapping[str, Any]]]) -> str:
    columns = [
        c
        for c in ("precision", "recall", "f1", "balanced_accuracy", "accuracy", "false_f1", "n")
        if any(c in r for _, r in rows)
    ]
    head = "".join(f"<th>{_e(c)}</th>" for c in ["system", *columns])
    body = "".join(
        "<tr>" + f"<td>{_e(name)}</td>" + "".join(f"<td>{_fmt(r.get(c))}</td>" for c in columns) + "</tr>"
        for name, r in rows
    )
    return f"<table><tr>{head}</tr>{body}</table>"


def _kv_table(values: Mapping[str, Any]) -> str:
    rows = "".join(f"<tr><td>{_e(k)}</td><td>{_fmt(v)}</td></tr>" for k, v in values.items())
    return f"<table>{rows}</table>"


def _fmt(value: Any) -> str:
    return _e(_text(value))


def _text(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, dict):
        return ", ".join(f"{k}: {_text(v)}" for k, v in value.items())
    return "—" if value is None else str(value)


def _e(value: Any) -> str:
    return html.escape(str(value))


def _img(png: str) -> str:
    return f"<img alt='plot' src='data:image/png;base64,{png}'>"

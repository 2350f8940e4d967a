"""Where the trained verifier ships and what is read beside it, without torch: its folder, its weights'
digest (part of the verifier's name and cache keys) and the calibrated decision.

Usage::

    folder = verifier_dir(settings.models.offline_verifier)   # the settings' own, else the shipped one
    decision = read_decision(settings.models.offline_verifier)  # None unless "calibrated"
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path

from workers.backends.cpu import effective_runtime
from workers.errors import BackendError
from workers.settings import VerifierSettings
from workers.stages.decide import Decision

__all__ = ["WEIGHTS", "read_decision", "shipped_dir", "verifier_dir", "verifier_tag", "weights_digest"]

log = logging.getLogger(__name__)
WEIGHTS = "weights.safetensors"


def shipped_dir() -> Path:
    """Where the trained weights ship inside the package."""
    return Path(__file__).resolve().parent.parent / "_models" / "verifier"


def verifier_dir(settings: VerifierSettings) -> Path:
    """The folder of the verifier's weights: the settings' own, else those shipped in the package."""
    return Path(settings.weights) if settings.weights else shipped_dir()


def weights_digest(folder: Path) -> str:
    """The first 12 hex digits of the weights' SHA-256: part of the verifier's name and cache keys."""
    return hashlib.sha256((folder / WEIGHTS).read_bytes()).hexdigest()[:12]


def verifier_tag(folder: Path, runtime: str) -> str:
    """The weights' digest and the runtime that runs (`cpu.effective_runtime`): what the verifier's name
    and its cached verdicts are keyed by (each runtime's numbers differ)."""
    return f"{weights_digest(folder)}-{effective_runtime(runtime)}"


def read_decision(settings: VerifierSettings) -> Decision | None:
    """The calibrated decision shipped beside the weights, when the settings ask for it."""
    if settings.decision != "calibrated":
        return None
    path = verifier_dir(settings) / "decision.json"
    if not path.is_file():
        log.warning("no calibrated decision in %s: the verifier's own thresholds decide", path.parent)
        return None
    try:
        return Decision.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise BackendError(f"cannot read the calibrated decision {path}: {exc}") from exc

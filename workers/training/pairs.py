"""Labelled claim-evidence pairs, the unit the verifier is trained and validated on.

Usage::

    pair = Pair("Revenue rose 12%.", "Revenue rose 12% in 2023.", label="SUPPORT", source="exact")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["LABELS", "Label", "Pair"]

Label = Literal["SUPPORT", "CONTRADICT", "NEUTRAL"]
# The classifier's output order; index i of the logits is LABELS[i].
LABELS: tuple[Label, ...] = ("SUPPORT", "CONTRADICT", "NEUTRAL")


@dataclass(frozen=True, slots=True)
class Pair:
    """One training example: does `evidence` support, contradict or not address `claim`?

    `source` names where it came from ("synthetic:number", "halueval", ...) for the report's breakdown.
    """

    claim: str
    evidence: str
    label: Label
    source: str

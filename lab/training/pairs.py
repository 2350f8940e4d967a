"""Labelled claim-evidence pairs, the unit the verifier is trained and validated on.

Usage::

    pair = Pair("Revenue rose 12%.", "Revenue rose 12% in 2023.", label="SUPPORT", source="exact")
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["LABELS", "NOT_SUPPORT", "Label", "Pair", "Target", "target_index"]

Label = Literal["SUPPORT", "CONTRADICT", "NEUTRAL"]
# What a pair may be labelled: one of the three, or NOT_SUPPORT from the two-way sets ("not entailed":
# CONTRADICT or NEUTRAL, the data does not say which). The loss for it is -log(1 - P(SUPPORT)).
Target = Literal["SUPPORT", "CONTRADICT", "NEUTRAL", "NOT_SUPPORT"]
# The classifier's output order; index i of the logits is LABELS[i].
LABELS: tuple[Label, ...] = ("SUPPORT", "CONTRADICT", "NEUTRAL")
# The index a NOT_SUPPORT pair has in a gold array (it has no logit of its own).
NOT_SUPPORT = -1


def target_index(label: Target) -> int:
    """The label's logit index, or `NOT_SUPPORT` (-1) for the two-way label."""
    return NOT_SUPPORT if label == "NOT_SUPPORT" else LABELS.index(label)


@dataclass(frozen=True, slots=True)
class Pair:
    """One training example: does `evidence` support, contradict or not address `claim`?

    `source` names where it came from ("synthetic:number", "nli:mnli_dev", ...) for the report's breakdown.
    """

    claim: str
    evidence: str
    label: Target
    source: str

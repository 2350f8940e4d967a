"""Stage 4, verification in two tiers. Pure apart from the verdict component it is given.

Tier 1: similarity of the best evidence window to the claim against the threshold for the domain.
Tier 2: a SUPPORT / CONTRADICT / NEUTRAL / INSUFFICIENT verdict with a reason and the evidence span.
VERIFIED only when both pass; CONTRADICTED on a contradiction; else UNVERIFIED.

Usage::

    checked = verify_many(tasks, checker=OfflineChecker())
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.messages import CheckedClaim, ClaimTask
from workers.protocols import CheckResult, VerdictComponent

__all__ = ["combine", "verify_many"]


def combine(task: ClaimTask, result: CheckResult, *, verifier: str) -> CheckedClaim:
    raise NotImplementedError


def verify_many(tasks: Sequence[ClaimTask], *, checker: VerdictComponent) -> list[CheckedClaim]:
    raise NotImplementedError

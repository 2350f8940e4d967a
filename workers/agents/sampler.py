"""The rollout sampler: which answers go into correction, chosen by a hash of the answer id.

Usage::

    sampler = Sampler.from_settings(settings.sampler)
    decision = sampler.decide("answer-42", tenant="acme")
    if decision.pass_original: send(passthrough(answer, Route.SAMPLED_OUT))
    if decision.correct: start_correction(answer, shadow=decision.shadow)

The same id always gets the same decision (for a given salt and rate), on every replica and across
restarts, so a replayed answer never flips between corrected and passed through. Raising the rate only
adds ids: everything sampled at 5% is still sampled at 10%.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from workers.settings import SamplerMode, SamplerSettings

__all__ = ["Sampler", "SamplerDecision", "bucket"]

_SCALE = float(2**64)


def bucket(answer_id: str, *, salt: str) -> float:
    """A uniform number in [0, 1) fixed by the id and the salt."""
    digest = hashlib.blake2b(f"{salt}\x00{answer_id}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") / _SCALE


@dataclass(frozen=True, slots=True)
class SamplerDecision:
    """`correct`: run the pipeline; `pass_original`: send the original on; `shadow`: correction to shadow."""

    correct: bool
    pass_original: bool
    shadow: bool
    rate: float


@dataclass(frozen=True)
class Sampler:
    rate: float
    tenant_rates: Mapping[str, float] = field(default_factory=dict)
    mode: SamplerMode = "live"
    salt: str = "woodpecker"

    @classmethod
    def from_settings(cls, settings: SamplerSettings) -> Sampler:
        return cls(
            rate=settings.rate,
            tenant_rates=dict(settings.tenant_rates),
            mode=settings.mode,
            salt=settings.salt,
        )

    def rate_for(self, tenant: str | None) -> float:
        if tenant is not None and tenant in self.tenant_rates:
            return self.tenant_rates[tenant]
        return self.rate

    def sampled(self, answer_id: str, *, tenant: str | None = None) -> bool:
        return bucket(answer_id, salt=self.salt) < self.rate_for(tenant)

    def decide(self, answer_id: str, *, tenant: str | None = None) -> SamplerDecision:
        """Live: the sampled are corrected, the rest pass. Shadow: all pass, the sampled are corrected too."""
        rate = self.rate_for(tenant)
        chosen = bucket(answer_id, salt=self.salt) < rate
        shadow = self.mode == "shadow"
        return SamplerDecision(correct=chosen, pass_original=shadow or not chosen, shadow=shadow, rate=rate)

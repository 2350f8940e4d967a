"""The rollout sampler: deterministic by id, close to its rate, per-tenant overrides, shadow mode."""

from __future__ import annotations

import pytest

from workers.agents.sampler import Sampler, bucket
from workers.settings import SamplerSettings

IDS = [f"answer-{i:05d}" for i in range(2000)]


def _share(sampler: Sampler, *, tenant: str | None = None) -> float:
    return sum(sampler.sampled(i, tenant=tenant) for i in IDS) / len(IDS)


@pytest.mark.parametrize("rate", [0.05, 0.2, 0.5])
def test_share_over_2000_ids_is_within_one_and_a_half_points(rate: float) -> None:
    assert abs(_share(Sampler(rate=rate)) - rate) <= 0.015


def test_the_same_ids_are_chosen_on_every_run_and_instance() -> None:
    first = [i for i in IDS if Sampler(rate=0.05).sampled(i)]
    again = [i for i in IDS if Sampler.from_settings(SamplerSettings(rate=0.05)).sampled(i)]
    assert first == again
    assert 0 < len(first) < len(IDS)


def test_bucket_is_a_fixed_number_in_unit_interval() -> None:
    values = [bucket(i, salt="woodpecker") for i in IDS[:50]]
    assert values == [bucket(i, salt="woodpecker") for i in IDS[:50]]
    assert all(0.0 <= v < 1.0 for v in values)
    assert bucket("x", salt="a") != bucket("x", salt="b")


def test_raising_the_rate_only_adds_ids() -> None:
    low = {i for i in IDS if Sampler(rate=0.05).sampled(i)}
    high = {i for i in IDS if Sampler(rate=0.10).sampled(i)}
    assert low < high


def test_tenant_override_beats_the_default() -> None:
    sampler = Sampler(rate=0.05, tenant_rates={"vip": 1.0, "off": 0.0})
    assert _share(sampler, tenant="vip") == 1.0
    assert _share(sampler, tenant="off") == 0.0
    assert abs(_share(sampler, tenant="other") - 0.05) <= 0.015
    assert sampler.rate_for(None) == 0.05


def test_live_mode_corrects_the_sampled_and_passes_the_rest() -> None:
    sampler = Sampler(rate=0.5)
    for answer_id in IDS[:100]:
        decision = sampler.decide(answer_id)
        assert decision.correct == sampler.sampled(answer_id)
        assert decision.pass_original is not decision.correct
        assert decision.shadow is False


def test_shadow_mode_passes_everything_and_still_corrects_the_sampled() -> None:
    sampler = Sampler(rate=0.5, mode="shadow")
    decisions = [sampler.decide(i) for i in IDS[:100]]
    assert all(d.pass_original and d.shadow for d in decisions)
    assert [d.correct for d in decisions] == [sampler.sampled(i) for i in IDS[:100]]

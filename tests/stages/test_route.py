"""Routing: stakes and complexity scores on hand-written answers."""

from __future__ import annotations

from typing import Any

import pytest

from workers.messages import Answer, Route
from workers.settings import RoutingSettings
from workers.stages.route import complexity_score, route, stakes_score

SETTINGS = RoutingSettings()
SIMPLE = "Paris is the capital of France."
COMPLEX = (
    "Acme earned $4.2 bn in 2023, while Globex earned $3.1 bn in 2022. Both grew by 12% and 8%. "
    "Acme is based in Oslo and Globex in Berlin. Acme's CEO is Jane Smith. Globex was founded in 1998. "
    "Acme has 4,000 staff."
)


def answer(text: str = SIMPLE, *, query: str = "What is the capital of France?", **extra: Any) -> Answer:
    return Answer(id="a1", query=query, answer=text, **extra)


def test_low_stakes_simple_answer_takes_the_fast_path() -> None:
    decision = route(answer(stakes="low"), settings=SETTINGS)
    assert decision.route is Route.FAST_PATH
    assert decision.stakes == pytest.approx(0.1)
    assert decision.complexity <= SETTINGS.fast_path_max_complexity
    assert decision.reason.startswith("fast path")


def test_unknown_stakes_are_not_low() -> None:
    decision = route(answer(), settings=SETTINGS)
    assert decision.route is Route.FULL
    assert decision.stakes == pytest.approx(0.5)
    assert "stakes too high" in decision.reason and "not declared" in decision.reason


@pytest.mark.parametrize(
    ("extra", "query", "minimum"),
    [
        ({"stakes": "high"}, "What is the capital of France?", 1.0),
        ({"stakes": "low", "domain": "health"}, "What is the capital of France?", 0.8),
        ({"stakes": "low", "domain": "Legal"}, "What is the capital of France?", 0.8),
        ({"stakes": "low"}, "What dosage of ibuprofen is safe?", 0.7),
        ({"stakes": "low"}, "Can I sue my landlord over the contract?", 0.8),
    ],
)
def test_high_stakes_answers_take_the_full_path(extra: dict[str, Any], query: str, minimum: float) -> None:
    decision = route(answer(query=query, **extra), settings=SETTINGS)
    assert decision.route is Route.FULL
    assert minimum <= decision.stakes <= 1.0
    assert "stakes too high" in decision.reason


def test_complex_answer_takes_the_full_path_even_at_low_stakes() -> None:
    decision = route(answer(COMPLEX, query="Compare Acme and Globex", stakes="low"), settings=SETTINGS)
    assert decision.route is Route.FULL
    assert decision.complexity > 0.5
    assert "complexity too high" in decision.reason


def test_comparative_query_raises_complexity() -> None:
    text = "Acme grew faster than Globex in 2023."
    plain = complexity_score(answer(text, query="Tell me about Acme"))
    compared = complexity_score(answer(text, query="What is the difference between Acme and Globex?"))
    assert compared > plain


def test_complexity_grows_with_content() -> None:
    scores = [complexity_score(answer(t)) for t in ("", SIMPLE, COMPLEX)]
    assert scores == sorted(scores)
    assert scores[0] == 0.0 and 0.0 <= scores[-1] <= 1.0


def test_disabled_routing_always_takes_the_full_path() -> None:
    decision = route(answer(stakes="low"), settings=RoutingSettings(enabled=False))
    assert decision.route is Route.FULL
    assert "routing disabled" in decision.reason


def test_thresholds_come_from_settings() -> None:
    lenient = RoutingSettings(fast_path_max_complexity=1.0, fast_path_max_stakes=1.0)
    strict = RoutingSettings(fast_path_max_complexity=0.0, fast_path_max_stakes=1.0)
    assert route(answer(COMPLEX, stakes="high"), settings=lenient).route is Route.FAST_PATH
    assert route(answer(stakes="low"), settings=strict).route is Route.FULL


def test_stakes_score_explains_itself() -> None:
    score, why = stakes_score(
        answer(query="tax on my investment", stakes="medium"), high_stakes_domains=("finance",)
    )
    assert score == pytest.approx(0.8)
    assert "declared medium" in why and "investment" in why and "tax" in why


def test_route_is_pure_and_deterministic() -> None:
    a = answer(COMPLEX, stakes="low", domain="finance")
    assert route(a, settings=SETTINGS) == route(a, settings=SETTINGS)

"""Routing: complexity and stakes scores choose the fast path or the full path. Pure.

Usage::

    decision = route(answer, settings=settings.routing)
    if decision.route is Route.FAST_PATH: ...
"""

from __future__ import annotations

from dataclasses import dataclass

from workers.messages import Answer, Route
from workers.settings import RoutingSettings

__all__ = ["RouteDecision", "route"]


@dataclass(frozen=True, slots=True)
class RouteDecision:
    route: Route
    complexity: float
    stakes: float
    reason: str


def route(answer: Answer, *, settings: RoutingSettings) -> RouteDecision:
    """Fast path only when both the complexity and the stakes score are at or below their thresholds."""
    raise NotImplementedError

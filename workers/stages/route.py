"""Routing: complexity and stakes scores choose the fast path or the full path. Pure.

Stakes start from `answer.stakes` (low 0.1, medium 0.5, high 1.0; unknown 0.5, since unknown is not low),
rise to at least 0.8 in a high-stakes domain and to at least 0.7 when the query names a high-stakes topic
(dosage, diagnosis, contract, lawsuit, tax, investment, ...). Complexity mixes the number of sentences,
length, figures, dates, named entities and a multi-part or comparative query into one score in [0, 1].

Usage::

    decision = route(answer, settings=settings.routing)
    if decision.route is Route.FAST_PATH: ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.messages import Answer, Route, Stakes
from workers.settings import RoutingSettings
from workers.stages._text import entity_spans
from workers.stages.extract import split_sentences

__all__ = ["RouteDecision", "complexity_score", "route", "stakes_score"]

_STAKES = {Stakes.LOW: 0.1, Stakes.MEDIUM: 0.5, Stakes.HIGH: 1.0}
_UNKNOWN_STAKES = 0.5
_DOMAIN_FLOOR = 0.8
_TOPIC_FLOOR = 0.7
_HIGH_STAKES_QUERY = re.compile(
    r"\b(?:dos(?:e|es|age|ages|ing)|overdose|mg|medication|medicine|prescri\w*|drug|drugs|diagnos\w*|symptoms?"
    r"|treatments?|surgery|side[- ]effects?|contraindicat\w*|pregnan\w*|vaccin\w*|allerg\w*|emergency"
    r"|suicid\w*|contracts?|liabilit\w*|liable|lawsuits?|sue|suing|legal(?:ly)?|court|attorney|lawyer|custody"
    r"|visa|immigration|compliance|penalt\w*|tax|taxes|taxation|invest\w*|stocks?|loans?|mortgages?|insurance"
    r"|pension|retirement|bankruptcy|debt)\b",
    re.IGNORECASE,
)
_MULTI_PART_QUERY = re.compile(
    r"\b(?:compare|comparison|versus|vs\.?|difference|differences|differ|why|how\s+many|how\s+much"
    r"|pros\s+and\s+cons|advantages|trade-?offs?|better|worse|each|list|explain|which\s+of)\b",
    re.IGNORECASE,
)
_NUMBER = re.compile(r"(?<![\w.])\d+(?:[.,]\d+)*%?")
_DATE = re.compile(
    r"\b(?:1[5-9]|20)\d{2}\b|\b(?:January|February|March|April|May|June|July|August|September|October"
    r"|November|December)\b"
)


@dataclass(frozen=True, slots=True)
class RouteDecision:
    route: Route
    complexity: float
    stakes: float
    reason: str


def route(answer: Answer, *, settings: RoutingSettings) -> RouteDecision:
    """Fast path only when both the complexity and the stakes score are at or below their thresholds."""
    stakes, why_stakes = stakes_score(answer, high_stakes_domains=settings.high_stakes_domains)
    complexity = complexity_score(answer)
    c_max, s_max = settings.fast_path_max_complexity, settings.fast_path_max_stakes
    c_cmp = ">" if complexity > c_max else "<="
    s_cmp = ">" if stakes > s_max else "<="
    scores = f"complexity {complexity:.2f} {c_cmp} {c_max:.2f}, stakes {stakes:.2f} {s_cmp} {s_max:.2f}"
    scores += f" ({why_stakes})"
    if not settings.enabled:
        return RouteDecision(Route.FULL, complexity, stakes, f"full path: routing disabled; {scores}")
    if c_cmp == "<=" and s_cmp == "<=":
        return RouteDecision(
            Route.FAST_PATH, complexity, stakes, f"fast path: simple and low stakes; {scores}"
        )
    what = " and ".join(w for w, over in (("complexity", c_cmp == ">"), ("stakes", s_cmp == ">")) if over)
    return RouteDecision(
        Route.FULL, complexity, stakes, f"full path: {what} too high for the fast path; {scores}"
    )


def stakes_score(answer: Answer, *, high_stakes_domains: tuple[str, ...] = ()) -> tuple[float, str]:
    """The stakes score in [0, 1] and the words that explain it."""
    score = _STAKES[answer.stakes] if answer.stakes else _UNKNOWN_STAKES
    why = [f"declared {answer.stakes.value}" if answer.stakes else "stakes not declared"]
    domains = {d.lower() for d in high_stakes_domains}
    if answer.domain and answer.domain.lower() in domains:
        score = max(score, _DOMAIN_FLOOR)
        why.append(f"high-stakes domain '{answer.domain}'")
    topics = sorted({m.group().lower() for m in _HIGH_STAKES_QUERY.finditer(answer.query)})
    if topics:
        # each further high-stakes topic adds a little: "tax on an investment loan" is riskier than "tax"
        score = max(score, min(1.0, _TOPIC_FLOOR + 0.1 * (len(topics) - 1)))
        why.append(f"query mentions {', '.join(topics[:4])}")
    return _unit(score), "; ".join(why)


def complexity_score(answer: Answer) -> float:
    """How much there is to check, in [0, 1]: 0 for one short plain sentence, 1 for a long detailed answer."""
    text = answer.answer
    sentences = split_sentences(text)
    starts = {s for s, _ in sentences}
    features = (
        (0.25, max(0, len(sentences) - 1) / 5),
        (0.15, len(text) / 1000),
        (0.15, len(_NUMBER.findall(text)) / 4),
        (0.10, len(_DATE.findall(text)) / 2),
        # a capitalised sentence opener is no evidence of a name
        (0.15, sum(1 for s, _ in entity_spans(text) if s not in starts) / 4),
        (0.20, 1.0 if _MULTI_PART_QUERY.search(answer.query) or answer.query.count("?") > 1 else 0.0),
    )
    return _unit(sum(weight * min(1.0, value) for weight, value in features))


def _unit(value: float) -> float:
    """Clamp to [0, 1] and round, so the scores are stable across platforms and never NaN."""
    return round(min(1.0, max(0.0, value)), 4) if value == value else 0.0

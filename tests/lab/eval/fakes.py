"""A deterministic stand-in for the pipeline: one claim per sentence, judged by word overlap.

A sentence whose words all appear in the documents is VERIFIED and kept; one with a word listed in
`contradict` is CONTRADICTED and replaced by "[fixed]"; anything else is UNVERIFIED and flagged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from workers.errors import InvalidMessage
from workers.messages import (
    Action,
    Answer,
    ClaimResult,
    Corrected,
    Evidence,
    Judgement,
    Route,
    Stats,
    Verdict,
)


@dataclass
class FakePipeline:
    contradict: frozenset[str] = frozenset()
    reject: frozenset[str] = frozenset()
    calls: list[str] = field(default_factory=list)

    def process(self, answer: Answer) -> Corrected:
        self.calls.append(answer.id)
        if answer.id in self.reject:
            raise InvalidMessage("too large", kind="too_large")
        claims = [
            self._claim(answer, m.start(), m.end()) for m in re.finditer(r"[^.!?]+[.!?]?", answer.answer)
        ]
        claims = [c for c in claims if c.text.strip()]
        return Corrected(
            id=answer.id,
            original=answer.answer,
            corrected=_apply(answer.answer, claims),
            route=Route.FULL,
            claims=tuple(claims),
            stats=Stats(stage_ms={"extract": 1.0, "verify": 2.0}, llm_calls=1, tokens_in=10),
        )

    def _claim(self, answer: Answer, start: int, end: int) -> ClaimResult:
        text = answer.answer[start:end]
        words = set(re.findall(r"\w+", text.lower()))
        vocab = {w for d in answer.documents for w in re.findall(r"\w+", d.text.lower())}
        evidence = tuple(
            Evidence(doc_id=d.id, start=0, end=len(d.text), text=d.text) for d in answer.documents[:1]
        )
        if words & self.contradict:
            verdict, action, sim = Verdict.CONTRADICTED, Action.REPLACE, 0.9
        elif words <= vocab:
            verdict, action, sim = Verdict.VERIFIED, Action.KEEP, 0.95
        else:
            verdict, action, sim = Verdict.UNVERIFIED, Action.FLAG, 0.5
        judgement = {Verdict.VERIFIED: Judgement.SUPPORT, Verdict.CONTRADICTED: Judgement.CONTRADICT}.get(
            verdict, Judgement.INSUFFICIENT
        )
        return ClaimResult(
            id=f"c{start}", text=text, start=start, end=end, verdict=verdict, judgement=judgement,
            similarity=sim, evidence=evidence, reason="fake", action=action,
            replacement="[fixed]" if action is Action.REPLACE else None,
        )  # fmt: skip


def _apply(text: str, claims: list[ClaimResult]) -> str:
    for c in sorted(claims, key=lambda c: c.start, reverse=True):
        if c.action is Action.REPLACE:
            text = text[: c.start] + " [fixed]." + text[c.end :]
        elif c.action is Action.FLAG:
            text = text[: c.end] + " [unverified]" + text[c.end :]
    return text

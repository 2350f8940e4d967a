"""Round trip 3, optional: an LLM rewrites contradicted claims that have no slot fix.

Without a fix the correction stage would REMOVE such a claim; with a grounded rewrite it can REPLACE
it instead. The rewrite becomes a `SlotFix` over the whole claim, so the pure correction stage still
applies every edit itself, from the end of the text, and offsets hold. A rewrite is accepted only
when every word or figure it adds is found in the claim's evidence; otherwise the claim keeps its
offline treatment. One call per answer, only when some contradicted claim lacks a fix.

Usage::

    rewriter = LLMCorrector(client=client, stage=settings.models.correction)
    checked = rewriter.rewrite(answer, checked)          # then stages.correct.correct(...)
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from workers.backends.llm import LLMClient, LLMError
from workers.backends.llm_usage import llm_stage, record, record_fallback
from workers.backends.prompts import SYSTEM_CORRECT, CorrectionOut
from workers.messages import Answer, CheckedClaim, SlotFix, Verdict
from workers.settings import StageModel

__all__ = ["LLMCorrector", "grounded"]

STAGE = "correction"
_TOKEN = re.compile(r"\d[\d,]*(?:\.\d+)?|\w+")
# A rewrite much longer than the claim is commentary, not a correction.
_MAX_GROWTH = 3.0


class LLMCorrector:
    """A `ClaimRewriter`: grounded whole-claim fixes for contradicted claims the verifier could not fix."""

    def __init__(self, *, client: LLMClient, stage: StageModel) -> None:
        self.client, self.stage = client, stage

    def rewrite(self, answer: Answer, checked: Sequence[CheckedClaim]) -> list[CheckedClaim]:
        out = list(checked)
        todo = {f"k{n}": i for n, i in enumerate(i for i, c in enumerate(out) if _needs_rewrite(c))}
        if not todo:
            return out
        claims = [_claim_data(key, out[i]) for key, i in todo.items()]
        p = self.client.policy
        # A rewrite is about as long as its claim, plus the JSON around it.
        work = sum(p.tokens_per_rewrite + math.ceil(len(out[i].claim.text) / 4) for i in todo.values())
        try:
            with llm_stage(p.answer_budget_s) as deadline:
                reply = self.client.complete(
                    stage=self.stage,
                    system=SYSTEM_CORRECT,
                    payload={"task": "rewrite_claims", "claims": claims},
                    output=CorrectionOut,
                    max_tokens=p.tokens_base + work,
                    deadline=deadline,
                )
        except LLMError as exc:
            record(STAGE, exc.usage)
            record_fallback(STAGE, f"{exc.kind}: {exc.reason}")
            return out
        record(STAGE, reply.usage)
        for r in reply.data.rewrites:
            i = todo.pop(r.claim_id, None)
            if i is not None:
                out[i] = _with_rewrite(out[i], r.text)
        return out


def _needs_rewrite(c: CheckedClaim) -> bool:
    return c.verdict is Verdict.CONTRADICTED and not c.fixes and bool(c.evidence)


def _claim_data(key: str, c: CheckedClaim) -> dict[str, object]:
    # Only the span the contradiction rests on (first, by the verify stage): the other candidates
    # would offer values that have nothing to do with this claim.
    return {"id": key, "text": c.claim.text, "evidence": [c.evidence[0].text]}


def _with_rewrite(c: CheckedClaim, text: str) -> CheckedClaim:
    new = " ".join(text.split())
    if not grounded(c.claim.text, new, [c.evidence[0].text]):
        return c
    fix = SlotFix(
        start=0, end=len(c.claim.text), wrong=c.claim.text, right=new, evidence_doc_id=c.evidence[0].doc_id
    )
    return c.model_copy(update={"fixes": (fix,), "reason": f"{c.reason}; rewritten from the evidence"})


def grounded(claim: str, rewrite: str, evidence: Sequence[str]) -> bool:
    """True when the rewrite changes something and every token it adds is in the evidence."""
    if not rewrite or rewrite == claim or len(rewrite) > _MAX_GROWTH * max(len(claim), 20):
        return False
    added = _tokens(rewrite) - _tokens(claim)
    return added <= set().union(*(_tokens(e) for e in evidence)) if evidence else not added


def _tokens(text: str) -> set[str]:
    return {t.replace(",", "").lower() for t in _TOKEN.findall(text)}

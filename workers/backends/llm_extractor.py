"""Claim extraction and query decomposition by an LLM, in ONE round trip per answer.

The model quotes each claim; the quote is located in the answer (exactly, else ignoring case,
whitespace and quote style, else as the sentence it nearly equals), so `answer[c.start:c.end] ==
c.text` always holds and a claim the model paraphrased beyond recognition is dropped. On circuit open,
exhausted retries or invalid output after one repair the answer falls back to the pure stages, and
the ledger says why.

Usage::

    extractor = LLMExtractor(client=client, stage=settings.models.extraction,
                             offline=OfflineExtractor(max_claims=200), max_claims=200)
    for claim, queries in extractor.extract(answer): ...

Modes: "extract+decompose" (claims and their queries in one call), "extract" (LLM claims, queries from
the pure stage), "decompose" (claims from the pure stage, all their queries in one call).
"""

from __future__ import annotations

import difflib
import logging
import math
from collections.abc import Sequence
from typing import Literal

from workers.backends.llm import LLMClient, LLMError
from workers.backends.llm_usage import llm_stage, record, record_fallback
from workers.backends.prompts import (
    SYSTEM_DECOMPOSE,
    SYSTEM_EXTRACT,
    ClaimOut,
    DecompositionOut,
    ExtractionOut,
    QueryOut,
    find_span,
)
from workers.messages import Answer, Claim, Query, QueryKind
from workers.settings import StageModel
from workers.stages.decompose import decompose
from workers.stages.extract import extract_claims, split_sentences

__all__ = ["ExtractMode", "Item", "LLMExtractor", "OfflineExtractor", "locate_claims"]

log = logging.getLogger(__name__)

Item = tuple[Claim, tuple[Query, ...]]
ExtractMode = Literal["extract+decompose", "extract", "decompose"]
_MAX_QUERIES = 3
# A quote this close to a whole sentence (difflib ratio) stands for that sentence.
_FUZZY_RATIO = 0.9


class OfflineExtractor:
    """The pure stages: `extract_claims`, then `decompose` per claim."""

    def __init__(self, *, max_claims: int = 200) -> None:
        self.max_claims = max_claims

    def extract(self, answer: Answer) -> list[Item]:
        claims = extract_claims(answer.answer, max_claims=self.max_claims)
        return [(c, decompose(c, question=answer.query)) for c in claims]


class LLMExtractor:
    """A `ClaimExtractor` over one LLM call per answer, falling back to `offline` on failure."""

    def __init__(
        self,
        *,
        client: LLMClient,
        stage: StageModel,
        offline: OfflineExtractor,
        max_claims: int = 200,
        mode: ExtractMode = "extract+decompose",
    ) -> None:
        self.client, self.stage, self.offline = client, stage, offline
        self.max_claims, self.mode = max_claims, mode
        self.stage_name = "decomposition" if mode == "decompose" else "extraction"

    def extract(self, answer: Answer) -> list[Item]:
        if not answer.answer.strip():
            return []
        try:
            with llm_stage(self.client.policy.answer_budget_s) as deadline:
                if self.mode == "decompose":
                    return self._decompose(answer, deadline)
                return self._extract(answer, deadline)
        except LLMError as exc:
            record(self.stage_name, exc.usage)
            record_fallback(self.stage_name, f"{exc.kind}: {exc.reason}")
            return self.offline.extract(answer)

    def _max_tokens(self, text: str) -> int:
        """Claims are quoted back with their queries: output grows with the answer (~4 chars a token)."""
        p = self.client.policy
        return p.tokens_base + math.ceil(p.tokens_per_answer_token * len(text) / 4)

    def _extract(self, answer: Answer, deadline: float | None) -> list[Item]:
        payload = {
            "task": "extract_claims",
            "question": answer.query,
            "answer": answer.answer,
            "max_claims": self.max_claims,
        }
        reply = self.client.complete(
            stage=self.stage,
            system=SYSTEM_EXTRACT,
            payload=payload,
            output=ExtractionOut,
            max_tokens=self._max_tokens(answer.answer),
            deadline=deadline,
        )
        record(self.stage_name, reply.usage)
        outs = reply.data.claims[: self.max_claims]
        located = locate_claims(answer.answer, outs)
        if outs and not located:
            raise LLMError("no extracted claim was found in the answer", kind="invalid_output")
        if len(located) < len(outs):
            log.info(
                "answer %s: %d of %d extracted claims not found in the text",
                answer.id,
                len(outs) - len(located),
                len(outs),
            )
        llm_queries = self.mode == "extract+decompose"
        return [(c, _queries(out.queries if llm_queries else [], c, answer.query)) for c, out in located]

    def _decompose(self, answer: Answer, deadline: float | None) -> list[Item]:
        claims = extract_claims(answer.answer, max_claims=self.max_claims)
        if not claims:
            return []
        claim_data = [{"id": c.id, "text": c.text} for c in claims]
        payload = {"task": "decompose_claims", "question": answer.query, "claims": claim_data}
        reply = self.client.complete(
            stage=self.stage,
            system=SYSTEM_DECOMPOSE,
            payload=payload,
            output=DecompositionOut,
            max_tokens=self._max_tokens(" ".join(c.text for c in claims)),
            deadline=deadline,
        )
        record(self.stage_name, reply.usage)
        by_id: dict[str, list[QueryOut]] = {}
        for item in reply.data.claims:
            by_id.setdefault(item.claim_id, item.queries)
        return [(c, _queries(by_id.get(c.id, []), c, answer.query)) for c in claims]


def locate_claims(answer: str, outs: Sequence[ClaimOut]) -> list[tuple[Claim, ClaimOut]]:
    """Claims placed in the answer, in text order, ids c0, c1, ...; unplaceable quotes are dropped."""
    sentences = split_sentences(answer)
    spans: dict[tuple[int, int], ClaimOut] = {}
    cursor = 0
    for out in outs:
        span = find_span(answer, out.text, start=cursor) or _nearest_sentence(answer, out.text, sentences)
        if span is None or span in spans:
            continue
        spans[span] = out
        cursor = span[1]
    ordered = sorted(spans.items())
    return [(_claim(answer, i, span, out, sentences), out) for i, (span, out) in enumerate(ordered)]


def _claim(
    answer: str, i: int, span: tuple[int, int], out: ClaimOut, sentences: Sequence[tuple[int, int]]
) -> Claim:
    start, end = span
    index, s_start, s_end = _sentence_of(span, sentences)
    return Claim(
        id=f"c{i}",
        text=answer[start:end],
        start=start,
        end=end,
        sentence=index,
        sentence_start=min(s_start, start),
        sentence_end=max(s_end, end),
        claim_type=out.claim_type,
    )


def _sentence_of(span: tuple[int, int], sentences: Sequence[tuple[int, int]]) -> tuple[int, int, int]:
    """The sentence holding the claim's start, widened to the one holding its end."""
    start, end = span
    first = next((i for i, (a, b) in enumerate(sentences) if a <= start < b), None)
    if first is None:
        return 0, start, end
    last = next((i for i, (a, b) in enumerate(sentences) if a < end <= b), first)
    return first, sentences[first][0], sentences[max(first, last)][1]


def _nearest_sentence(
    answer: str, quote: str, sentences: Sequence[tuple[int, int]]
) -> tuple[int, int] | None:
    """The sentence a lightly reworded quote stands for, if one is close enough."""
    target = quote.strip().lower()
    if not target:
        return None
    best, best_ratio = None, _FUZZY_RATIO
    for a, b in sentences:
        text = answer[a:b].strip().rstrip(".!?").lower()
        ratio = difflib.SequenceMatcher(None, text, target.rstrip(".!?")).ratio()
        if ratio >= best_ratio:
            best, best_ratio = (a, b), ratio
    return best


def _queries(outs: Sequence[QueryOut], claim: Claim, question: str) -> tuple[Query, ...]:
    """The model's queries, deduplicated; the pure stage's when the model gave none usable."""
    seen: dict[str, Query] = {}
    for q in outs:
        text = " ".join(q.text.split())
        if text and text.lower() not in seen:
            seen[text.lower()] = Query(kind=QueryKind(q.kind), text=text)
    found = tuple(seen.values())[:_MAX_QUERIES]
    return found or decompose(claim, question=question)

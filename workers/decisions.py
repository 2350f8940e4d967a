"""The decision log: one JSON line per claim decision and one per answer, on logger "woodpecker.decisions".

Usage::

    configure_decision_log()                      # JSON lines on stderr (setup_telemetry does it)
    log_decisions(corrected, settings=settings)   # after each answer; returns the lines logged

A claim line carries the answer id, tenant, claim id and offsets, verdict, judgement, similarity, the
evidence document ids and spans, the action, the reason, the model, the route and the trace id::

    {"event":"claim_decision","answer_id":"a1","claim_id":"c0","verdict":"CONTRADICTED",
     "action":"REPLACE","evidence":[{"doc_id":"d1","start":0,"end":48,"score":0.91}], ...}

Content capture is off by default: no answer, claim, replacement or evidence text. Reasons quote the
values they compare ("figure $4.8 bn in claim, $4.2 billion in evidence"), so quoted spans and every
reason token with a digit or a capital that also occurs in the claim or its evidence become `…`.
`settings.log_content = True` logs all of it.
"""

from __future__ import annotations

import logging
import re
import sys
from datetime import UTC, datetime
from typing import IO, Any

import orjson

from workers.instruments import current_trace_id
from workers.messages import Action, ClaimResult, Corrected
from workers.redact import redact
from workers.settings import Settings

__all__ = ["LOGGER_NAME", "JsonFormatter", "configure_decision_log", "decision_records", "log_decisions"]

LOGGER_NAME = "woodpecker.decisions"
FIELDS_ATTR = "woodpecker_fields"
_QUOTED = re.compile(r'"[^"\n]*"|“[^”\n]*”|«[^»\n]*»')
_TOKEN = re.compile(r"\S+")
_PUNCTUATION = ".,;:!?()[]{}<>\"'“”«»"
_MAX_REASON = 500

logger = logging.getLogger(LOGGER_NAME)


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, logger, event, and the record's structured fields."""

    def format(self, record: logging.LogRecord) -> str:
        payload: dict[str, Any] = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "event": record.getMessage(),
        }
        fields = getattr(record, FIELDS_ATTR, None)
        if isinstance(fields, dict):
            payload.update(fields)
        if record.exc_info:
            payload["error"] = record.exc_text or self.formatException(record.exc_info)
        # Fields arrive after the record factory redacted the message: redact the whole line.
        return redact(orjson.dumps(payload, default=str).decode())


class _StderrHandler(logging.Handler):
    """Writes to whatever `sys.stderr` is when a record comes (test runners and daemons swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            sys.stderr.write(self.format(record) + "\n")
        except Exception:
            self.handleError(record)


def configure_decision_log(*, stream: IO[str] | None = None, level: int = logging.INFO) -> logging.Handler:
    """Give the decision logger its JSON handler (stderr by default), once; returns the handler.

    The logger does not propagate, so an application's own root format never mangles the JSON.
    """
    for existing in logger.handlers:
        if isinstance(existing.formatter, JsonFormatter):
            return existing
    handler = logging.StreamHandler(stream) if stream is not None else _StderrHandler()
    handler.setFormatter(JsonFormatter())
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    return handler


def log_decisions(
    corrected: Corrected, *, settings: Settings, model: str | None = None, trace_id: str | None = None
) -> int:
    """Log the answer's decisions (one line per claim, one for the answer); returns the line count.

    Without a handler configured yet, the default JSON handler on stderr is installed first, so the
    batch CLI logs decisions without set-up of its own.
    """
    if not logger.handlers:
        configure_decision_log()
    if not logger.isEnabledFor(logging.INFO):
        return 0
    records = decision_records(corrected, settings=settings, model=model, trace_id=trace_id)
    for fields in records:
        logger.info(fields["event"], extra={FIELDS_ATTR: {k: v for k, v in fields.items() if k != "event"}})
    return len(records)


def decision_records(
    corrected: Corrected, *, settings: Settings, model: str | None = None, trace_id: str | None = None
) -> list[dict[str, Any]]:
    """The decision log's records for one answer, as dicts (the answer's record last)."""
    common = {
        "answer_id": corrected.id,
        "tenant": corrected.tenant,
        "route": corrected.route.value,
        "model": model or _model(corrected, settings),
        "trace_id": trace_id or current_trace_id(),
    }
    content = settings.log_content
    claims = [{"event": "claim_decision", **common, **_claim(c, content=content)} for c in corrected.claims]
    return [*claims, {"event": "answer_decision", **common, **_answer(corrected, content=content)}]


def _claim(claim: ClaimResult, *, content: bool) -> dict[str, Any]:
    record: dict[str, Any] = {
        "claim_id": claim.id,
        "start": claim.start,
        "end": claim.end,
        "verdict": claim.verdict.value,
        "judgement": claim.judgement.value,
        "similarity": round(claim.similarity, 4),
        "action": claim.action.value,
        "reason": _reason(claim, content=content),
        "evidence": [
            {"doc_id": e.doc_id, "start": e.start, "end": e.end, "score": round(e.score, 4)}
            | ({"text": e.text} if content else {})
            for e in claim.evidence
        ],
    }
    if content:
        record["text"] = claim.text
        record["replacement"] = claim.replacement
    return record


def _answer(corrected: Corrected, *, content: bool) -> dict[str, Any]:
    actions = {a.value: 0 for a in Action}
    for claim in corrected.claims:
        actions[claim.action.value] += 1
    record: dict[str, Any] = {
        "claims": len(corrected.claims),
        "actions": actions,
        "changed": corrected.corrected != corrected.original,
        "needs_review": corrected.needs_review,
        "review_reasons": list(corrected.review_reasons),
        "fallback": corrected.stats.fallback,
        "stage_ms": corrected.stats.stage_ms,
    }
    if content:
        record["original"] = corrected.original
        record["corrected"] = corrected.corrected
    return record


def _reason(claim: ClaimResult, *, content: bool) -> str:
    text = claim.reason if content else _mask_values(claim)
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 1] + "…"


def _mask_values(claim: ClaimResult) -> str:
    seen = {_bare(t) for source in (claim.text, *(e.text for e in claim.evidence)) for t in source.split()}

    def mask(match: re.Match[str]) -> str:
        token = match.group(0)
        bare = _bare(token)
        valued = any(ch.isdigit() for ch in bare) or bare[:1].isupper()
        return token.replace(bare, "…") if bare and valued and bare in seen else token

    return _TOKEN.sub(mask, _QUOTED.sub('"…"', claim.reason))


def _bare(token: str) -> str:
    return token.strip(_PUNCTUATION)


def _model(corrected: Corrected, settings: Settings) -> str:
    """The verifier in force: the configured LLM, or offline (also when the LLM fell back)."""
    verification = settings.models.verification
    if verification.backend != "openai":
        return "offline"
    if corrected.stats.fallback and "verification" in corrected.stats.fallback:
        return f"offline (fallback from {verification.model})"
    return verification.model

"""What the console's pages show, as plain data: the templates escape every string they print.

Usage::

    diff_segments("Revenue was $4.8 bn.", "Revenue was $4.2 bn.")   # [("same", "Revenue was "), ("del", ...)]
    document_views(request)                                       # each document with its evidence marked
    age_text(queued_ms, now_ms)                                    # "12 min"

Nothing here builds HTML: the segments go to Jinja2 with autoescaping on, so an answer or a document
holding `<script>` is shown as text.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field

from workers.messages import Action, ClaimResult, Document, Evidence, ReviewRequest

__all__ = [
    "ClaimView",
    "DocumentView",
    "Segment",
    "age_text",
    "claim_views",
    "diff_segments",
    "document_views",
]

# Words, with "4.8", "1,200" and "don't" kept whole, so a changed figure reads as one change.
_TOKENS = re.compile(r"\s+|\w+(?:[.,']\w+)*|[^\w\s]")


@dataclass(frozen=True)
class Segment:
    """A run of text: `kind` is same | del | ins in a diff, text | mark in a document."""

    kind: str
    text: str
    anchor: str | None = None
    claims: tuple[str, ...] = ()


@dataclass(frozen=True)
class DocumentView:
    id: str
    title: str
    segments: list[Segment]
    marks: int


@dataclass(frozen=True)
class ClaimView:
    claim: ClaimResult
    # (anchor in the page or None when the span could not be placed, the evidence) per evidence window.
    evidence: list[tuple[str | None, Evidence]] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.claim.action is not Action.KEEP


def diff_segments(old: str, new: str) -> list[Segment]:
    """A word-level diff of `old` into `new` (whitespace and punctuation are tokens of their own)."""
    a, b = _TOKENS.findall(old), _TOKENS.findall(new)
    out: list[Segment] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(Segment("same", "".join(a[i1:i2])))
            continue
        if i2 > i1:
            out.append(Segment("del", "".join(a[i1:i2])))
        if j2 > j1:
            out.append(Segment("ins", "".join(b[j1:j2])))
    return out


def _anchor(claim_id: str, index: int) -> str:
    return f"ev-{re.sub(r'[^A-Za-z0-9_-]', '_', claim_id)}-{index}"


def _place(evidence: Evidence, document: Document) -> tuple[int, int] | None:
    """Where the evidence window is in the document: its offsets, or its text found again, or None."""
    start, end = evidence.start, evidence.end
    if 0 <= start < end <= len(document.text) and document.text[start:end] == evidence.text:
        return start, end
    found = document.text.find(evidence.text) if evidence.text else -1
    return (found, found + len(evidence.text)) if found >= 0 else None


def claim_views(request: ReviewRequest) -> list[ClaimView]:
    documents = {d.id: d for d in request.documents}
    views: list[ClaimView] = []
    for claim in request.corrected.claims:
        placed: list[tuple[str | None, Evidence]] = []
        for index, evidence in enumerate(claim.evidence):
            document = documents.get(evidence.doc_id)
            spot = _place(evidence, document) if document is not None else None
            placed.append((_anchor(claim.id, index) if spot is not None else None, evidence))
        views.append(ClaimView(claim, placed))
    return views


def document_views(request: ReviewRequest) -> list[DocumentView]:
    """Each document's text cut into plain runs and marked evidence spans (overlapping spans merged)."""
    spans: dict[str, list[tuple[int, int, str, str]]] = {}
    documents = {d.id: d for d in request.documents}
    for claim in request.corrected.claims:
        for index, evidence in enumerate(claim.evidence):
            document = documents.get(evidence.doc_id)
            spot = _place(evidence, document) if document is not None else None
            if spot is not None:
                spans.setdefault(evidence.doc_id, []).append((*spot, claim.id, _anchor(claim.id, index)))
    return [_document_view(d, sorted(spans.get(d.id, []))) for d in request.documents]


def _document_view(document: Document, spans: list[tuple[int, int, str, str]]) -> DocumentView:
    segments: list[Segment] = []
    at = 0
    index = 0
    marks = 0
    while index < len(spans):
        start, end, claim_id, anchor = spans[index]
        claims, anchors = [claim_id], [anchor]
        index += 1
        while index < len(spans) and spans[index][0] < end:  # overlapping windows make one mark
            end = max(end, spans[index][1])
            claims.append(spans[index][2])
            anchors.append(spans[index][3])
            index += 1
        start = max(start, at)
        if start > at:
            segments.append(Segment("text", document.text[at:start]))
        if end > start:
            # Every anchor pointing into a merged mark lands on it (extra anchors ride on empty spans).
            segments += [Segment("anchor", "", anchor=a) for a in anchors[1:]]
            segments.append(
                Segment(
                    "mark", document.text[start:end], anchor=anchors[0], claims=tuple(dict.fromkeys(claims))
                )
            )
            marks += 1
        at = max(at, end)
    if at < len(document.text):
        segments.append(Segment("text", document.text[at:]))
    return DocumentView(document.id, document.title or document.id, segments, marks)


def age_text(queued_ms: int, now_ms: int) -> str:
    """How long an item has waited, in the largest whole unit: "45 s", "12 min", "3 h", "2 d"."""
    seconds = max(0, (now_ms - queued_ms) // 1000)
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"

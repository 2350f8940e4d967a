"""Citation checking: parse inline markers and structured citations, and build their verification tasks.

Inline markers (`[1]`, `[2, 3]`, `[doc-7]`, `(Source: d1)`; the styles and the reference-to-document mapping
are settings) and the structured `answer.citations` field become citations, each attached to a span: the
text from the previous marker of its sentence (or the sentence start) to the marker. Markers inside quotes
or code are no citations and are never rewritten. Extraction reads `masked`, the answer with every marker
(quoted ones too) blanked to spaces, so no claim holds a marker, no figure check reads "[2]" as the number
2, and all offsets hold in both texts.

A citation is checked with the verification stage itself: one task per claim of its span and candidate
document (the cited ones, and a few others to re-point to), the evidence windows restricted to that
document. Those tasks travel with the claim tasks (one `judge_many`, one broker hop, the same two-tier
rule); their claim ids are `<claim id>@<document index>`. `stages/cite_repair.py` decides and rewrites.

Usage::

    found = parse_citations(answer, settings=settings.citations)
    claims = extract_claims(found.masked)
    tasks += citation_tasks(found, tasks, index=index, embedder=embedder, retrieval=..., settings=...)
    claim_checks, cite_checks = split_checked(verify_many(tasks, checker=checker))
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Mapping, Sequence

import numpy as np

from workers.citations import Citation, Found, Marker, Ref
from workers.messages import Answer, CheckedClaim, Claim, ClaimTask, Document
from workers.protocols import Embedder, Vectors
from workers.settings import CitationSettings, CitationStyle, RetrievalSettings
from workers.stages.extract import split_sentences
from workers.stages.retrieve import EvidenceIndex, retrieve_many

__all__ = [
    "CITE_SEP",
    "Citation",
    "Found",
    "Marker",
    "Ref",
    "citation_tasks",
    "cite_id",
    "parse_citations",
    "parse_cite_id",
    "restore_claims",
    "split_checked",
]

CITE_SEP = "@"

# Code (fenced blocks, inline spans) and double-quoted text: markers there are content, not citations.
_FENCE = re.compile(r"^[ \t]*(`{3,}|~{3,}).*?(?:^[ \t]*\1[ \t]*$|\Z)", re.MULTILINE | re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.DOTALL)
_QUOTED = re.compile(r'"[^"\n]{0,2000}"|“[^”]{0,2000}”|„[^“”]{0,2000}[“”]|«[^»]{0,2000}»')
_REF_SPLIT = re.compile(r"\s*(?:[,;]|&|\band\b)\s*")
_RANGE = re.compile(r"(\d{1,4})\s*[-–]\s*(\d{1,4})")
_TRAILING_NUMBER = re.compile(r"(\d{1,5})\Z")
_MAX_RANGE = 50


# ---- parsing -------------------------------------------------------------------------------------


def parse_citations(answer: Answer, *, settings: CitationSettings) -> Found:
    """The answer's citations, inline and structured; deterministic, so every agent can re-derive them."""
    text = answer.answer
    docs = _Docs(answer.documents)
    if not settings.enabled:
        return Found(text, text, docs.ids)
    markers, quoted = _find_markers(text, settings, docs)
    masked = _mask(text, [(m.start, m.end) for m in markers] + quoted)
    inline = _attach(markers, split_sentences(masked), masked, docs)
    structured = _structured(answer, docs, inline)
    return Found(text, masked, docs.ids, (*inline, *structured), _dominant(markers, settings))


class _Docs:
    """Resolves a reference: a number is a position, else an id, a title, or an id ending in a number."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.ids = tuple(d.id for d in documents)
        self._keys: dict[str, int] = {}
        for i, d in reversed(list(enumerate(documents))):
            self._keys.update({k: i for k in (d.title, d.id.casefold(), d.id) if k})

    def position(self, n: int) -> int | None:
        return n - 1 if 1 <= n <= len(self.ids) else None

    def resolve(self, token: str, *, mapping: str) -> Ref:
        if mapping == "position" and token.isdigit():
            return Ref(token, self.position(int(token)))
        key = self._keys.get(token, self._keys.get(token.casefold()))
        if key is not None:
            return Ref(token, key, by_id=True)
        number = _TRAILING_NUMBER.search(token)
        if mapping == "position" and number:
            return Ref(token, self.position(int(number.group())))
        return Ref(token, None)


def _protected(text: str) -> list[tuple[int, int]]:
    spans = [m.span() for m in _FENCE.finditer(text)]
    for pattern in (_INLINE_CODE, _QUOTED):
        spans += [m.span() for m in pattern.finditer(text) if not _inside(m.span(), spans)]
    return sorted(spans)


def _inside(span: tuple[int, int], spans: Sequence[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)


def _find_markers(
    text: str, settings: CitationSettings, docs: _Docs
) -> tuple[list[Marker], list[tuple[int, int]]]:
    """The citation markers, and the marker-shaped text inside quotes or code (no citation, no figure)."""
    protected = _protected(text)
    taken = list(protected)
    found: list[Marker] = []
    quoted: list[tuple[int, int]] = []
    matches = sorted(
        (
            (m.start(), i, name, m)
            for i, (name, st) in enumerate(settings.styles.items())
            for m in _iter(st, text)
        ),
        key=lambda t: (t[0], t[1]),
    )
    for _, _, name, m in matches:
        if _inside(m.span(), protected):
            quoted.append(m.span())
        elif not _inside(m.span(), taken):
            taken.append(m.span())
            found.append(_marker(m, name, docs, mapping=settings.mapping))
    return sorted(found, key=lambda mk: mk.start), quoted


def _iter(style: CitationStyle, text: str) -> Iterator[re.Match[str]]:
    return re.finditer(style.pattern, text)


def _marker(m: re.Match[str], style: str, docs: _Docs, *, mapping: str) -> Marker:
    refs_text = m.group("refs")
    tokens = [t for t in _REF_SPLIT.split(refs_text.strip()) if t]
    refs = tuple(r for t in tokens for r in _expand(t, docs, mapping=mapping))
    sep = _REF_SPLIT.search(refs_text)
    separator = sep.group() if sep and sep.group().strip() else ", "
    return Marker(m.start(), m.end(), m.start("refs"), m.end("refs"), style, refs, separator)


def _expand(token: str, docs: _Docs, *, mapping: str) -> list[Ref]:
    """A range "1-3" is three references (as positions); anything else is one."""
    span = _RANGE.fullmatch(token)
    if mapping == "position" and span and 0 <= int(span[2]) - int(span[1]) <= _MAX_RANGE:
        return [docs.resolve(str(n), mapping=mapping) for n in range(int(span[1]), int(span[2]) + 1)]
    return [docs.resolve(token, mapping=mapping)]


def _mask(text: str, spans: Sequence[tuple[int, int]]) -> str:
    out = list(text)
    for start, end in spans:
        out[start:end] = " " * (end - start)
    return "".join(out)


def _groups(markers: Sequence[Marker], masked: str) -> list[list[Marker]]:
    """Markers with only whitespace between them ("[1][2]", "[1] [2]") cite the same span."""
    groups: list[list[Marker]] = []
    for m in markers:
        if groups and not masked[groups[-1][-1].end : m.start].strip():
            groups[-1].append(m)
        else:
            groups.append([m])
    return groups


def _attach(
    markers: Sequence[Marker], sentences: Sequence[tuple[int, int]], masked: str, docs: _Docs
) -> list[Citation]:
    out: list[Citation] = []
    starts = [s for s, _ in sentences]
    prev_end = 0
    for group in _groups(markers, masked):
        at = group[0].start
        i = max(0, bisect.bisect_right(starts, at) - 1)
        lo, hi = sentences[i] if sentences else (at, at)
        span = _trim(masked, max(lo, prev_end), min(hi, at) if at > lo else hi)
        span = span if span[0] < span[1] else (lo, hi)
        out += [_citation(len(out) + k, span, m, docs) for k, m in enumerate(group)]
        prev_end = group[-1].end
    return out


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and (text[start].isspace() or text[start] in ",;:"):
        start += 1
    while end > start and (text[end - 1].isspace() or text[end - 1] in ",;:"):
        end -= 1
    return start, end


def _citation(index: int, span: tuple[int, int], m: Marker, docs: _Docs) -> Citation:
    cited = tuple(dict.fromkeys(docs.ids[r.doc] if r.doc is not None else r.text for r in m.refs))
    resolved = tuple(dict.fromkeys(r.doc for r in m.refs if r.doc is not None))
    return Citation(index, span[0], span[1], resolved, cited, m)


def _structured(answer: Answer, docs: _Docs, inline: Sequence[Citation]) -> list[Citation]:
    """`answer.citations`, less those an inline marker already states (same documents, touching span)."""
    out: list[Citation] = []
    n = len(answer.answer)
    for span in answer.citations:
        start, end = min(span.start, n), min(max(span.end, span.start), n)
        refs = [docs.resolve(d, mapping="id") for d in span.doc_ids]
        resolved = tuple(dict.fromkeys(r.doc for r in refs if r.doc is not None))
        cite = Citation(len(inline) + len(out), start, end, resolved, tuple(dict.fromkeys(span.doc_ids)))
        if not any(_same(cite, c) for c in inline):
            out.append(cite)
    return out


def _same(structured: Citation, inline: Citation) -> bool:
    reach = inline.marker.end if inline.marker else inline.end
    touching = structured.start <= reach and inline.start <= structured.end
    return touching and set(structured.docs) == set(inline.docs) and structured.complete


def _dominant(markers: Sequence[Marker], settings: CitationSettings) -> str:
    names = [m.style for m in markers]
    if names:
        return max(dict.fromkeys(names), key=names.count)
    return settings.add_style if settings.add_style in settings.styles else next(iter(settings.styles), "")


# ---- verification tasks --------------------------------------------------------------------------


def cite_id(claim_id: str, doc: int) -> str:
    return f"{claim_id}{CITE_SEP}{doc}"


def parse_cite_id(task_id: str) -> tuple[str, int] | None:
    base, sep, doc = task_id.rpartition(CITE_SEP)
    return (base, int(doc)) if sep and base and doc.isdigit() else None


def pseudo_claim(found: Found, citation: Citation) -> Claim:
    """A cited span with no extracted claim is checked as a whole."""
    text = found.masked[citation.start : citation.end]
    return Claim(
        id=f"s{citation.index}",
        text=text,
        start=citation.start,
        end=citation.end,
        sentence_start=citation.start,
        sentence_end=citation.end,
    )


def units(found: Found, citation: Citation, claims: Sequence[Claim]) -> list[Claim]:
    """The claims a citation vouches for: those overlapping its span, else the span itself."""
    covered = [c for c in claims if citation.covers(c)]
    if covered or citation.start >= citation.end:
        return covered
    return [pseudo_claim(found, citation)]


def citation_tasks(
    found: Found,
    tasks: Sequence[ClaimTask],
    *,
    index: EvidenceIndex,
    embedder: Embedder,
    retrieval: RetrievalSettings,
    settings: CitationSettings,
    threshold: float,
) -> tuple[ClaimTask, ...]:
    """One task per (claim of a cited span, candidate document), windows restricted to that document."""
    wanted = _wanted(found, tasks, settings=settings, threshold=threshold)
    if not wanted:
        return ()
    memo = _Memo(
        embedder, [t for base, _ in wanted for t in (base.claim.text, *(q.text for q in base.queries))]
    )
    out: list[ClaimTask] = []
    for doc in sorted({d for _, d in wanted}):
        bases = [base for base, d in wanted if d == doc]
        out += _doc_tasks(_restrict(index, found.doc_ids[doc]), doc, bases, memo, retrieval)
    return tuple(out)


def _wanted(
    found: Found, tasks: Sequence[ClaimTask], *, settings: CitationSettings, threshold: float
) -> list[tuple[ClaimTask, int]]:
    pairs: dict[tuple[str, int], ClaimTask] = {}
    by_id = {t.claim.id: t for t in tasks}
    claims = [t.claim for t in tasks]
    for cite in found.citations:
        for claim in units(found, cite, claims):
            base = by_id.get(claim.id) or ClaimTask(claim=claim, threshold=threshold)
            for doc in (
                *cite.docs,
                *_repair_docs(found, base, skip=cite.docs, limit=settings.max_repair_docs),
            ):
                pairs.setdefault((claim.id, doc), base)
    if settings.add_missing:
        cited = {c.id for cite in found.citations for c in claims if cite.covers(c)}
        for base in (t for t in tasks if t.claim.id not in cited):
            for doc in _repair_docs(found, base, skip=(), limit=max(1, settings.max_repair_docs)):
                pairs.setdefault((base.claim.id, doc), base)
    return [(base, doc) for (_, doc), base in pairs.items()][: settings.max_checks]


def _repair_docs(found: Found, base: ClaimTask, *, skip: Sequence[int], limit: int) -> list[int]:
    """Documents of the claim's own best evidence windows, best first."""
    ranked = (found.doc_index(ev.doc_id) for ev in base.candidates)
    distinct = dict.fromkeys(d for d in ranked if d is not None and d not in skip)
    return list(distinct)[:limit]


def _restrict(index: EvidenceIndex, doc_id: str) -> EvidenceIndex | None:
    rows = [i for i, w in enumerate(index.windows) if w.doc_id == doc_id]
    if not rows:
        return None
    return EvidenceIndex(tuple(index.windows[i] for i in rows), index.vectors[rows])


def _doc_tasks(
    sub: EvidenceIndex | None,
    doc: int,
    bases: Sequence[ClaimTask],
    memo: Embedder,
    retrieval: RetrievalSettings,
) -> list[ClaimTask]:
    items = [(b.claim, b.queries) for b in bases]
    hits = retrieve_many(sub, items, embedder=memo, settings=retrieval) if sub else [((), 0.0)] * len(bases)
    return [
        ClaimTask(
            claim=b.claim.model_copy(update={"id": cite_id(b.claim.id, doc)}),
            queries=b.queries,
            candidates=candidates,
            similarity=similarity,
            threshold=b.threshold,
        )
        for b, (candidates, similarity) in zip(bases, hits, strict=True)
    ]


class _Memo:
    """The embedder, asked once for every text the per-document retrievals will need."""

    def __init__(self, embedder: Embedder, texts: Sequence[str]) -> None:
        self._embedder = embedder
        distinct = list(dict.fromkeys(texts))
        vectors = np.asarray(embedder.encode(distinct), dtype=np.float32)
        self._rows = {t: vectors[i] for i, t in enumerate(distinct)}

    @property
    def model_id(self) -> str:
        return self._embedder.model_id

    def encode(self, texts: Sequence[str]) -> Vectors:
        missing = [t for t in dict.fromkeys(texts) if t not in self._rows]
        if missing:
            fresh = np.asarray(self._embedder.encode(missing), dtype=np.float32)
            self._rows.update({t: fresh[i] for i, t in enumerate(missing)})
        return np.stack([self._rows[t] for t in texts]).astype(np.float32)


# ---- after verification --------------------------------------------------------------------------


def split_checked(
    checked: Sequence[CheckedClaim],
) -> tuple[list[CheckedClaim], dict[tuple[str, int], CheckedClaim]]:
    """Claim verdicts apart from citation verdicts, these keyed by (claim id, document index)."""
    claims: list[CheckedClaim] = []
    cites: dict[tuple[str, int], CheckedClaim] = {}
    for c in checked:
        key = parse_cite_id(c.claim.id)
        if key is None:
            claims.append(c)
        else:
            cites[key] = c
    return claims, cites


def restore_claims(found: Found, checked: Sequence[CheckedClaim]) -> list[CheckedClaim]:
    """Claims read from the masked text, given back their original text (any marker inside included)."""
    out = []
    for c in checked:
        s, e = c.claim.start, c.claim.end
        if c.claim.text == found.masked[s:e] != found.text[s:e]:
            c = c.model_copy(update={"claim": c.claim.model_copy(update={"text": found.text[s:e]})})
        out.append(c)
    return out


def claims_by_id(checked: Sequence[CheckedClaim]) -> Mapping[str, CheckedClaim]:
    return {c.claim.id: c for c in checked}

"""Citation repair: each citation's verdict and fix, and marker edits that compose with claim corrections.

Pure. A citation is SUPPORTED when every claim of its span is supported (VERIFIED under the two-tier rule)
by a cited document and every cited document supports one; UNSUPPORTED when no cited document supports any
claim; PARTIAL otherwise. The repair points it at the documents the corrected span rests on: the cited ones
that support, else the best other one that does (for a replaced claim, the document its fix came from).
Nothing left: the marker is removed and the sentence flagged (unless correction already flagged it). A
marker is rewritten in place in its own style; `[2, 3]` with only 2 supporting becomes `[2]`.

Marker edits are applied first, then the claims are shifted onto the edited text and corrected there; the
results are mapped back to original offsets. Claims never contain a marker at their edges (extraction reads
the masked text), so every claim boundary maps exactly.

Usage::

    first = correct(found.text, claims, settings=settings.correction)      # the claim actions
    repair = plan_repair(found, claims, cite_checks, first.claims, settings=settings.citations)
    second = correct(repair.text, repair.shift(claims), settings=settings.correction)
    claim_results, citations = repair.unshift(second.claims, claims), repair.citations
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from workers.messages import (
    Action,
    CheckedClaim,
    CitationAction,
    CitationResult,
    CitationVerdict,
    Claim,
    ClaimResult,
    Verdict,
)
from workers.settings import CitationSettings, CitationStyle
from workers.stages.cite import Citation, Found, Marker, parse_cite_id, units

__all__ = ["Edit", "Repair", "apply_edits", "plan_repair", "shift_offset"]

_CLOSING = ".,;:!?)]…"
_TERMINAL = ".!?…;:"


@dataclass(frozen=True, slots=True)
class Edit:
    """Put `text` in place of `original[start:end]` (an insertion when start == end)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True, slots=True)
class _Decision:
    cite: Citation
    claim_ids: tuple[str, ...]
    verdict: CitationVerdict
    supporting: tuple[int, ...]
    action: CitationAction
    target: tuple[int, ...]
    reason: str
    flagged: bool = False


@dataclass(frozen=True)
class Repair:
    """The answer with its marker edits applied, and one result per citation (original offsets)."""

    original: str
    text: str
    edits: tuple[Edit, ...] = ()
    citations: tuple[CitationResult, ...] = ()

    def shift(self, checked: Sequence[CheckedClaim]) -> list[CheckedClaim]:
        """The claims on the edited text: offsets, sentence bounds and fix offsets moved past the edits."""
        if not self.edits:
            return list(checked)
        return [_shift_checked(c, self.original, self.text, self.edits) for c in checked]

    def unshift(
        self, results: Sequence[ClaimResult], checked: Sequence[CheckedClaim]
    ) -> tuple[ClaimResult, ...]:
        """Claim results back on the original answer's offsets and text."""
        if not self.edits:
            return tuple(results)
        orig = {c.claim.id: c.claim for c in checked}
        return tuple(_back(r, orig.get(r.id)) for r in results)


def plan_repair(
    found: Found,
    claims: Sequence[CheckedClaim],
    checks: Mapping[tuple[str, int], CheckedClaim],
    actions: Sequence[ClaimResult],
    *,
    settings: CitationSettings,
) -> Repair:
    """Decide every citation from its checks and the claims' correction actions; write the marker edits."""
    ctx = _Ctx(found, claims, checks, {r.id: r.action for r in actions})
    if not found.doc_ids:
        decisions = [
            _unchecked(ctx, c, "not checked: the answer carries no documents") for c in found.citations
        ]
    else:
        decisions = _dedupe([_decide(ctx, c) for c in found.citations])
    edits, results = _marker_edits(ctx, decisions, settings=settings)
    if settings.add_missing and found.doc_ids:
        for edit, result in _additions(ctx, settings=settings):
            edits.append(edit)
            results.append(result)
    tidy = _normalise(found.text, edits)
    ordered = tuple(sorted(results, key=lambda r: (r.start, r.end)))
    return Repair(found.text, apply_edits(found.text, tidy), tuple(tidy), ordered)


# ---- deciding ------------------------------------------------------------------------------------


class _Ctx:
    """What every decision looks at: the claims, their actions, and the per-document checks."""

    def __init__(
        self,
        found: Found,
        claims: Sequence[CheckedClaim],
        checks: Mapping[tuple[str, int], CheckedClaim],
        actions: Mapping[str, Action],
    ) -> None:
        self.found = found
        self.checked = {c.claim.id: c for c in claims}
        self.claims = [c.claim for c in claims]
        self.actions = actions
        self.checks = {k: v for k, v in checks.items() if 0 <= k[1] < len(found.doc_ids)}
        self._by_claim: dict[str, list[CheckedClaim]] = {}
        for (cid, _), check in sorted(self.checks.items(), key=lambda kv: -kv[1].similarity):
            self._by_claim.setdefault(cid, []).append(check)

    def judged(self, cid: str, doc: int) -> bool:
        check = self.checks.get((cid, doc))
        return check is not None and check.verifier != "none"

    def supports(self, cid: str, doc: int) -> bool:
        check = self.checks.get((cid, doc))
        return check is not None and check.verdict is Verdict.VERIFIED

    def others(self, cid: str, *, skip: Sequence[int]) -> list[int]:
        """Documents besides `skip` that support the claim, most similar first."""
        docs = (_doc_of(c) for c in self._by_claim.get(cid, []) if c.verdict is Verdict.VERIFIED)
        return [d for d in docs if d not in skip]

    def ids(self, docs: Iterable[int]) -> tuple[str, ...]:
        return tuple(self.found.doc_ids[d] for d in docs)


def _doc_of(check: CheckedClaim) -> int:
    key = parse_cite_id(check.claim.id)
    return key[1] if key else -1


def _unchecked(ctx: _Ctx, cite: Citation, reason: str) -> _Decision:
    ids = tuple(c.id for c in units(ctx.found, cite, ctx.claims))
    return _Decision(cite, ids, CitationVerdict.UNSUPPORTED, (), CitationAction.KEEP, cite.docs, reason)


def _decide(ctx: _Ctx, cite: Citation) -> _Decision:
    claims = units(ctx.found, cite, ctx.claims)
    if not claims:
        return _unchecked(ctx, cite, "not checked: the citation is attached to no text")
    ids = tuple(c.id for c in claims)
    sup = {c.id: [d for d in cite.docs if ctx.supports(c.id, d)] for c in claims}
    other = {c.id: ctx.others(c.id, skip=cite.docs) for c in claims}
    verdict = _verdict(cite, claims, sup)
    supporting = _ordered(cite.docs, [d for c in claims for d in (*sup[c.id], *other[c.id])])
    live = [c for c in claims if ctx.actions.get(c.id) is not Action.REMOVE]
    if not live:
        why = f"{verdict.value}: {_REMOVED}"
        return _Decision(cite, ids, verdict, supporting, CitationAction.REMOVE, (), why)
    # Never rewrite on partial data (a verdict past the gather deadline, or over `max_checks`).
    if not all(ctx.judged(c.id, d) for c in claims for d in cite.docs):
        return _unchecked(ctx, cite, "not checked: a verdict for its documents is missing")
    target = _ordered(cite.docs, [d for c in live for d in _target(ctx, c, cite, sup[c.id], other[c.id])])
    action, reason = _action(ctx, cite, verdict, target)
    return _Decision(cite, ids, verdict, supporting, action, target, reason, flagged=not target)


_REMOVED = "removed with its claims, which correction removed"


def _verdict(cite: Citation, claims: Sequence[Claim], sup: Mapping[str, list[int]]) -> CitationVerdict:
    covered = [c for c in claims if sup[c.id]]
    useful = {d for ds in sup.values() for d in ds}
    if not covered:
        return CitationVerdict.UNSUPPORTED
    if len(covered) == len(claims) and useful == set(cite.docs) and cite.complete:
        return CitationVerdict.SUPPORTED
    return CitationVerdict.PARTIAL


def _target(ctx: _Ctx, claim: Claim, cite: Citation, sup: list[int], other: list[int]) -> list[int]:
    """The documents the claim rests on after correction."""
    if ctx.actions.get(claim.id) is Action.REPLACE:
        fixed = _fix_docs(ctx, claim.id)
        return [d for d in fixed if d in cite.docs] or fixed[:1]
    return sup or other[:1]


def _fix_docs(ctx: _Ctx, cid: str) -> list[int]:
    checked = ctx.checked.get(cid)
    if checked is None:
        return []
    names = [f.evidence_doc_id for f in checked.fixes] + [e.doc_id for e in checked.evidence[:1]]
    idx = (ctx.found.doc_index(n) for n in names if n)
    return list(dict.fromkeys(d for d in idx if d is not None))


def _ordered(first: Sequence[int], items: Iterable[int]) -> tuple[int, ...]:
    """Distinct items: those in `first` in its order, then the rest as given."""
    seen = dict.fromkeys(items)
    return (*(d for d in first if d in seen), *(d for d in seen if d not in first))


def _action(
    ctx: _Ctx, cite: Citation, verdict: CitationVerdict, target: tuple[int, ...]
) -> tuple[CitationAction, str]:
    was, now = ", ".join(cite.cited) or "nothing", ", ".join(ctx.ids(target))
    if target == cite.docs and cite.complete:
        return CitationAction.KEEP, f"{verdict.value}: {was} supports the span"
    if target:
        return (
            CitationAction.REPOINT,
            f"{verdict.value}: re-pointed from {was} to {now}, which supports the span",
        )
    return CitationAction.REMOVE, f"{verdict.value}: no document supports the span; removed {was}"


def _dedupe(decisions: list[_Decision]) -> list[_Decision]:
    """Citations of one span: never point twice at a document, nor flag a span another one supports."""
    out = list(decisions)
    spans: dict[tuple[int, int], list[int]] = {}
    for i, d in enumerate(out):
        spans.setdefault((d.cite.start, d.cite.end), []).append(i)
    for members in spans.values():
        seen: set[int] = set()
        for i in sorted(members, key=lambda i: out[i].action is not CitationAction.KEEP):
            out[i] = _without(out[i], seen)
            seen |= set(out[i].target)
        if seen:
            for i in members:
                out[i] = replace(out[i], flagged=False) if out[i].flagged else out[i]
    return out


def _without(d: _Decision, seen: set[int]) -> _Decision:
    if d.action is not CitationAction.REPOINT or not seen & set(d.target):
        return d
    rest = tuple(x for x in d.target if x not in seen)
    if rest:
        return replace(d, target=rest)
    why = f"{d.verdict.value}: removed, the span already cites the document that supports it"
    return replace(d, action=CitationAction.REMOVE, target=(), reason=why, flagged=False)


# ---- writing -------------------------------------------------------------------------------------


def _marker_edits(
    ctx: _Ctx, decisions: Sequence[_Decision], *, settings: CitationSettings
) -> tuple[list[Edit], list[CitationResult]]:
    edits: list[Edit] = []
    results: list[CitationResult] = []
    flagged: set[tuple[int, int]] = set()
    for d in decisions:
        span = (d.cite.start, d.cite.end)
        write_flag = d.flagged and span not in flagged and not _claim_flagged(ctx, d)
        flagged |= {span} if write_flag else set()
        edit, replacement = _edit_for(
            ctx, d, flag=settings.flag_format if write_flag else "", settings=settings
        )
        edits += [edit] if edit else []
        results.append(_result(ctx, d, replacement))
    return edits, results


def _claim_flagged(ctx: _Ctx, d: _Decision) -> bool:
    return any(ctx.actions.get(cid) is Action.FLAG for cid in d.claim_ids)


def _edit_for(
    ctx: _Ctx, d: _Decision, *, flag: str, settings: CitationSettings
) -> tuple[Edit | None, str | None]:
    m, text = d.cite.marker, ctx.found.text
    if m is None:
        at = _insert_point(text, d.cite.start, d.cite.end)
        return (Edit(at, at, " " + flag) if flag else None), None
    if d.action is CitationAction.REPOINT:
        refs = _refs_text(ctx.found, m, d.target, settings.styles.get(m.style))
        written = text[m.start : m.refs_start] + refs + text[m.refs_end : m.end]
        return Edit(m.refs_start, m.refs_end, refs), written
    if d.action is CitationAction.REMOVE:
        return Edit(m.start, m.end, flag), flag
    return None, None


def _refs_text(found: Found, marker: Marker, target: Sequence[int], style: CitationStyle | None) -> str:
    """The references for `target`, each as it was written when it was cited, else in the marker's style."""
    written = {r.doc: r.text for r in marker.refs if r.doc is not None}
    by_id = any(r.by_id for r in marker.refs)
    return marker.separator.join(written.get(d) or _token(found, d, style, by_id=by_id) for d in target)


def _token(found: Found, doc: int, style: CitationStyle | None, *, by_id: bool) -> str:
    if by_id or style is None:
        return found.doc_ids[doc]
    return style.token.replace("{n}", str(doc + 1)).replace("{id}", found.doc_ids[doc])


def _result(ctx: _Ctx, d: _Decision, replacement: str | None) -> CitationResult:
    m = d.cite.marker
    return CitationResult(
        start=d.cite.start,
        end=d.cite.end,
        doc_ids=d.cite.cited,
        verdict=d.verdict,
        supporting_doc_ids=ctx.ids(d.supporting),
        action=d.action,
        repaired_doc_ids=ctx.ids(d.target) if d.action is not CitationAction.REMOVE else (),
        marker=ctx.found.text[m.start : m.end] if m else None,
        replacement=replacement,
        flagged=d.flagged,
        reason=d.reason,
    )


def _additions(ctx: _Ctx, *, settings: CitationSettings) -> list[tuple[Edit, CitationResult]]:
    """A citation for each supported factual sentence that has none, in the answer's marker style."""
    style = settings.styles.get(ctx.found.style)
    out: list[tuple[Edit, CitationResult]] = []
    for (start, end), claims in _sentences(ctx.claims).items():
        docs = _addable(ctx, start, end, claims)
        if style is None or not docs:
            continue
        refs = ", ".join(_token(ctx.found, d, style, by_id=False) for d in docs)
        marker = style.template.replace("{refs}", refs)
        at = _insert_point(ctx.found.text, start, end)
        ids = ctx.ids(docs)
        why = f"added: {', '.join(ids)} supports the sentence"
        result = CitationResult(
            start=start, end=end, verdict=CitationVerdict.SUPPORTED, supporting_doc_ids=ids,
            action=CitationAction.ADD, repaired_doc_ids=ids, replacement=marker, reason=why,
        )  # fmt: skip
        out.append((Edit(at, at, " " + marker), result))
    return out


def _sentences(claims: Sequence[Claim]) -> dict[tuple[int, int], list[Claim]]:
    out: dict[tuple[int, int], list[Claim]] = {}
    for c in claims:
        key = (c.sentence_start, c.sentence_end) if c.sentence_start < c.sentence_end else (c.start, c.end)
        out.setdefault(key, []).append(c)
    return out


def _addable(ctx: _Ctx, start: int, end: int, claims: Sequence[Claim]) -> tuple[int, ...]:
    if any(c.start < end and start < c.end for c in ctx.found.citations):
        return ()
    if not all(_kept_verified(ctx, c.id) for c in claims):
        return ()
    best = [ctx.others(c.id, skip=())[:1] for c in claims]
    return _ordered((), (d for b in best for d in b)) if all(best) else ()


def _kept_verified(ctx: _Ctx, cid: str) -> bool:
    checked = ctx.checked.get(cid)
    return checked is not None and checked.verdict is Verdict.VERIFIED and ctx.actions.get(cid) is Action.KEEP


def _insert_point(text: str, start: int, end: int) -> int:
    """Before the sentence's terminal punctuation: "rose 12%." -> after "12%"."""
    at = min(end, len(text))
    while at > start and text[at - 1] in _TERMINAL:
        at -= 1
    while at > start and text[at - 1].isspace():
        at -= 1
    return at


# ---- applying ------------------------------------------------------------------------------------


def _normalise(text: str, edits: Sequence[Edit]) -> list[Edit]:
    """Sorted, non-overlapping; a removed marker takes one side's whitespace with it."""
    out: list[Edit] = []
    for e in sorted(edits, key=lambda e: (e.start, e.end)):
        if out and e.start < out[-1].end:
            continue
        if out and not e.text and not out[-1].text and not text[out[-1].end : e.start].strip():
            out[-1] = Edit(out[-1].start, e.end, "")
        else:
            out.append(e)
    return [_tidy(text, e, out, i) if e.start < e.end and not e.text else e for i, e in enumerate(out)]


def _tidy(text: str, e: Edit, edits: Sequence[Edit], i: int) -> Edit:
    floor = edits[i - 1].end if i else 0
    ceiling = edits[i + 1].start if i + 1 < len(edits) else len(text)
    a = e.start
    while a > floor and text[a - 1] in " \t":
        a -= 1
    after = text[e.end : e.end + 1]
    if a < e.start and (not after or after.isspace() or after in _CLOSING):
        return Edit(a, e.end, "")
    b = e.end
    if a == 0 or text[a - 1] == "\n":
        while b < ceiling and text[b] in " \t":
            b += 1
    return Edit(e.start, b, "")


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Edits from the end, so no splice moves the offsets of one still to come."""
    for e in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
        text = text[: e.start] + e.text + text[e.end :]
    return text


def shift_offset(p: int, edits: Sequence[Edit], *, right: bool) -> int:
    """Where offset `p` of the original lands after `edits`; `right`: after an insertion made at `p`."""
    delta = 0
    for e in edits:
        if e.end < p or (e.end == p and (e.start < p or right)):
            delta += len(e.text) - (e.end - e.start)
        elif e.start < p < e.end:
            return e.start + delta + (len(e.text) if right else 0)
    return p + delta


def _shift_checked(checked: CheckedClaim, original: str, text: str, edits: Sequence[Edit]) -> CheckedClaim:
    c = checked.claim
    start, end = shift_offset(c.start, edits, right=True), shift_offset(c.end, edits, right=False)
    update: dict[str, object] = {
        "start": start,
        "end": max(start, end),
        "sentence_start": shift_offset(c.sentence_start, edits, right=True),
        "sentence_end": shift_offset(c.sentence_end, edits, right=False),
    }
    if original[c.start : c.end] == c.text:
        update["text"] = text[start : max(start, end)]
    fixes = tuple(
        f.model_copy(
            update={
                "start": shift_offset(c.start + f.start, edits, right=True) - start,
                "end": max(0, shift_offset(c.start + f.end, edits, right=False) - start),
            }
        )
        if f.start <= f.end <= len(c.text)
        else f
        for f in checked.fixes
    )
    return checked.model_copy(update={"claim": c.model_copy(update=update), "fixes": fixes})


def _back(result: ClaimResult, claim: Claim | None) -> ClaimResult:
    if claim is None:
        return result
    return result.model_copy(update={"start": claim.start, "end": claim.end, "text": claim.text})

"""The offline verdict component: slot alignment between a claim and its evidence windows. No model.

For each candidate window the claim's slots (figures, dates, names, negation, quantifiers) are paired with
the window's slots by the words around them; a pair with different values in a window about the same
thing is a contradiction, and comes with the supported value written in the claim's own style. A window
supports the claim only when every slot is found with the same value and the content words overlap.

Usage::

    checker = OfflineChecker()
    [result] = checker.judge_many([(claim, candidates)])
    result.label, result.reason, result.fixes     # CONTRADICT, "figure $4.2 bn in claim, ...", (SlotFix,)
"""

from __future__ import annotations

import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace

from workers.messages import Claim, Evidence, Judgement, SlotFix
from workers.protocols import CheckResult
from workers.stages.slots import (
    Slot,
    SlotKind,
    Term,
    content_terms,
    extract_slots,
    polarity,
    render_like,
    terms_match,
    values_match,
)

__all__ = ["OfflineChecker"]

_VALUES = frozenset({SlotKind.FIGURE, SlotKind.PERCENT, SlotKind.DATE, SlotKind.YEAR, SlotKind.ENTITY})
_KEYS = frozenset({SlotKind.DATE, SlotKind.YEAR, SlotKind.ENTITY})
# Pairing scores: the same value beats a slightly better context; a figure bound to the same date or
# name ("$4.2 bn in 2023") beats the same value bound to another one.
_EQUAL_BONUS = 0.5
_BOUND_BONUS = 0.6
# A rival name whose clause reads at least this much like the claim's is contested, not missing.
_CONTESTED = 0.5
# Claims with more slots than this are paired greedily instead of by exhaustive search.
_MAX_SEARCH = 6
_GRADED = frozenset({"universal", "majority", "existential"})
_SEGMENT_END = re.compile(r"(?<=[.!?;])\s+")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_UP = _words(
    "rose rise rises risen rising increased increase increases grew grow grows gained gain gains higher"
)
_DOWN = _words(
    "fell fall falls fallen falling declined decline declines decreased decrease decreases dropped drop drops"
    " lower shrank shrink shrinks"
)
_DIRECTION = re.compile(r"\b(?:" + "|".join(sorted(_UP | _DOWN)) + r")\b", re.IGNORECASE)
_CONTRACTIONS = {"can't": "can", "won't": "will", "shan't": "shall"}
# How many content words after a negation it may govern.
_SCOPE = 3


@dataclass(frozen=True, slots=True)
class _Read:
    """A text read once: slots, content terms and clause segments."""

    text: str
    slots: tuple[Slot, ...]
    terms: tuple[Term, ...]
    segments: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, text: str, *, entities: Sequence[Slot] = ()) -> _Read:
        slots = extract_slots(text)
        return cls(
            text, slots + _mentions(text, entities, slots), tuple(content_terms(text)), _segments(text)
        )

    @property
    def values(self) -> list[Slot]:
        return [s for s in self.slots if s.kind in _VALUES]

    def context(self) -> list[str]:
        """Content words outside value slots and direction words: what the text is about."""
        return [
            t.stem
            for t in self.terms
            if not _inside(t, self.values) and not _DIRECTION.fullmatch(self._word(t))
        ]

    def near(self, slot: Slot, *, n: int = 4) -> list[str]:
        """Up to n content words either side of `slot` in its clause, leaving out other slots' words."""
        lo, hi = self.segment_of(slot.start)
        words = [t for t in self.terms if lo <= t.start < hi and not _inside(t, self.values)]
        if not words:  # "The CEO is John Smith": the other names are all the context there is
            words = [t for t in self.terms if lo <= t.start < hi and not _inside(t, [slot])]
        before = [t.stem for t in words if t.end <= slot.start][-n:]
        return before + [t.stem for t in words if t.start >= slot.end][:n]

    def noun_after(self, slot: Slot) -> str | None:
        """The word right after a figure: what it counts ("1,200 patients")."""
        return next((t.stem for t in self.terms if 0 < t.start - slot.end <= 2), None)

    def key_near(self, slot: Slot) -> Slot | None:
        """The date or name closest to `slot` in its clause: what a figure is a figure of."""
        lo, hi = self.segment_of(slot.start)
        keys = [k for k in self.values if k.kind in _KEYS and lo <= k.start < hi and k is not slot]
        return min(keys, key=lambda k: min(abs(k.start - slot.end), abs(slot.start - k.end)), default=None)

    def segment_of(self, pos: int) -> tuple[int, int]:
        return next((s for s in self.segments if s[0] <= pos < s[1]), (0, len(self.text)))

    def _word(self, term: Term) -> str:
        return self.text[term.start : term.end]


@dataclass(frozen=True, slots=True)
class _Pair:
    """A claim slot and its best counterpart in the window (None when the window has none)."""

    slot: Slot
    other: Slot | None = None
    equal: bool = False
    context: float = 0.0
    rivals: int = 0


@dataclass(frozen=True, slots=True)
class _Conflict:
    reason: str
    strength: float
    fix: SlotFix | None = None


@dataclass(frozen=True, slots=True)
class _Reading:
    """One window's verdict on the claim."""

    label: Judgement
    reason: str
    window: Evidence
    overlap: float
    confidence: float
    fixes: tuple[SlotFix, ...] = ()
    strength: float = 0.0


class OfflineChecker:
    """Rules over slots and content words; similarity alone never makes a SUPPORT."""

    def __init__(self, *, min_topic: float = 0.5, min_support: float = 0.6, min_context: float = 0.5) -> None:
        self._min_topic = min_topic
        self._min_support = min_support
        self._min_context = min_context

    @property
    def name(self) -> str:
        return "offline-rules"

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        return [self.judge(claim, windows) for claim, windows in items]

    def judge(self, claim: Claim, windows: Sequence[Evidence]) -> CheckResult:
        if not windows:
            return CheckResult(Judgement.INSUFFICIENT, "no evidence candidates retrieved", None, (), 0.9)
        read = _Read.of(claim.text)
        best = _pick([self._read_window(read, w) for w in windows])
        extra = {"overlap": round(best.overlap, 4)}
        return CheckResult(best.label, best.reason, best.window, best.fixes, best.confidence, extra)

    def _read_window(self, claim: _Read, window: Evidence) -> _Reading:
        ev = _Read.of(window.text, entities=[s for s in claim.values if s.kind is SlotKind.ENTITY])
        pairs = _pairs(claim, ev)
        overlap = _overlap(claim, ev, pairs)
        segment = _best_segment(claim, ev)
        cite = f"[doc {window.doc_id} {window.start}-{window.end}]"
        conflicts = self._conflicts(claim, ev, pairs, segment, overlap=overlap)
        if conflicts and overlap >= self._min_topic:
            return _contradiction(conflicts, window, overlap, cite)
        if all(p.equal for p in pairs) and overlap >= self._min_support and (pairs or claim.context()):
            return _support(pairs, window, overlap, cite)
        return self._not_supported(pairs, window, overlap, cite)

    def _conflicts(
        self, claim: _Read, ev: _Read, pairs: list[_Pair], segment: tuple[int, int], *, overlap: float
    ) -> list[_Conflict]:
        found = [_value_conflict(p) for p in pairs if self._credible(p, overlap)]
        shared = {s for s in claim.context() if any(terms_match(s, t) for t in _stems(ev, segment))}
        if _covered(claim.context(), _stems(ev, segment)) >= self._min_support:
            found += _polarity_conflict(claim, ev, segment, shared)
        if overlap >= self._min_topic:
            found += _quantifier_conflicts(claim, ev, segment, shared) + _direction_conflicts(
                claim, ev, segment
            )
        return found

    def _credible(self, pair: _Pair, overlap: float) -> bool:
        """A different value counts when its clause reads like the claim's, or it is the only candidate."""
        if pair.other is None or pair.equal:
            return False
        return pair.context >= self._min_context or (pair.rivals == 1 and overlap >= self._min_support)

    def _not_supported(self, pairs: list[_Pair], window: Evidence, overlap: float, cite: str) -> _Reading:
        missing = [p.slot for p in pairs if not p.equal]
        if overlap >= self._min_topic and missing:
            names = ", ".join(f"{s.kind.value} {s.text}" for s in missing)
            reason = f"{names} in claim not found in evidence {cite}"
            return _Reading(Judgement.INSUFFICIENT, reason, window, overlap, 0.5 + 0.3 * overlap)
        why = "only partly about the claim" if overlap >= self._min_topic else "about something else"
        reason = f"evidence is {why}: {overlap:.0%} of the claim's content words found {cite}"
        return _Reading(
            Judgement.NEUTRAL, reason, window, overlap, 0.5 + 0.4 * abs(overlap - self._min_topic)
        )


# ---- readings ----------------------------------------------------------------------------------


def _pick(readings: list[_Reading]) -> _Reading:
    """SUPPORT if any window supports; else the strongest contradiction; else the closest window."""
    rank = {Judgement.SUPPORT: 3, Judgement.CONTRADICT: 2, Judgement.INSUFFICIENT: 1, Judgement.NEUTRAL: 0}
    return max(readings, key=lambda r: (rank[r.label], r.strength, r.overlap, r.window.score))


def _support(pairs: list[_Pair], window: Evidence, overlap: float, cite: str) -> _Reading:
    if pairs:
        listed = ", ".join(f"{p.slot.kind.value} {p.slot.text}" for p in pairs)
        what = f"{listed} match{'es' if len(pairs) == 1 else ''}"
    else:
        what = "no figures, dates or names to check"
    reason = f"{what}; {overlap:.0%} of the claim's content words found {cite}"
    confidence = min(1.0, 0.45 + 0.5 * overlap + (0.05 if pairs else 0.0))
    return _Reading(Judgement.SUPPORT, reason, window, overlap, confidence)


def _contradiction(conflicts: list[_Conflict], window: Evidence, overlap: float, cite: str) -> _Reading:
    strength = max(c.strength for c in conflicts)
    reason = "; ".join(c.reason for c in conflicts) + f" {cite}"
    fixes = tuple(c.fix.model_copy(update={"evidence_doc_id": window.doc_id}) for c in conflicts if c.fix)
    confidence = min(1.0, 0.5 + 0.3 * strength + 0.15 * overlap)
    return _Reading(Judgement.CONTRADICT, reason, window, overlap, confidence, fixes, strength)


def _value_conflict(pair: _Pair) -> _Conflict:
    assert pair.other is not None
    slot, other = pair.slot, pair.other
    label = "date" if slot.kind in (SlotKind.DATE, SlotKind.YEAR) else slot.kind.value
    fix = SlotFix(start=slot.start, end=slot.end, wrong=slot.text, right=render_like(slot, other))
    return _Conflict(f"{label} {slot.text} in claim, {other.text} in evidence", 0.5 + 0.5 * pair.context, fix)


def _polarity_conflict(
    claim: _Read, ev: _Read, segment: tuple[int, int], shared: set[str]
) -> list[_Conflict]:
    mine = _scoped(claim, (0, len(claim.text)), shared, negations=True)
    theirs = _scoped(ev, segment, shared, negations=True)
    if polarity(mine) == polarity(theirs):
        return []
    if mine:
        fix = _negation_fix(claim.text, mine[0]) if len(mine) == 1 else None
        return [_Conflict(f"negation: claim says {mine[0].text!r}, evidence does not", 0.7, fix)]
    return [_Conflict(f"negation: evidence says {theirs[0].text!r}, claim does not", 0.7)]


def _negation_fix(text: str, slot: Slot) -> SlotFix | None:
    """Dropping "not", "never" or "n't" reads as the positive statement; other negations have no such fix."""
    if slot.text.lower() in ("not", "never"):
        end = slot.end + (text[slot.end : slot.end + 1] == " ")
        return SlotFix(start=slot.start, end=end, wrong=text[slot.start : end], right="")
    if slot.text.lower() in ("n't", "n’t"):
        start = re.search(r"\w+\Z", text[: slot.start])
        begin = start.start() if start else slot.start
        word = text[begin : slot.end]
        right = _CONTRACTIONS.get(word.lower().replace("’", "'"), text[begin : slot.start])
        return SlotFix(start=begin, end=slot.end, wrong=word, right=_same_case(word, right))
    return None


def _quantifier_conflicts(
    claim: _Read, ev: _Read, segment: tuple[int, int], shared: set[str]
) -> list[_Conflict]:
    mine = [s for s in _scoped(claim, (0, len(claim.text)), shared, negations=False) if s.value in _GRADED]
    theirs = [s for s in _scoped(ev, segment, shared, negations=False) if s.value in _GRADED]
    if not mine or not theirs or {s.value for s in theirs} & {mine[0].value}:
        return []
    slot, other = mine[0], theirs[0]
    fix = SlotFix(start=slot.start, end=slot.end, wrong=slot.text, right=render_like(slot, other))
    return [_Conflict(f"quantifier {slot.text!r} in claim, {other.text!r} in evidence", 0.6, fix)]


def _direction_conflicts(claim: _Read, ev: _Read, segment: tuple[int, int]) -> list[_Conflict]:
    mine = list(_DIRECTION.finditer(claim.text))
    theirs = list(_DIRECTION.finditer(ev.text, *segment))
    ups = [m.group(0).lower() in _UP for m in mine]
    their_ups = {m.group(0).lower() in _UP for m in theirs}
    if len(set(ups)) != 1 or len(their_ups) != 1 or their_ups == set(ups):
        return []
    word, other = mine[0], theirs[0].group(0)
    fix = SlotFix(
        start=word.start(), end=word.end(), wrong=word.group(0), right=_same_case(word.group(0), other)
    )
    return [_Conflict(f"direction: {word.group(0)!r} in claim, {other!r} in evidence", 0.6, fix)]


# ---- pairing -----------------------------------------------------------------------------------


def _pairs(claim: _Read, ev: _Read) -> list[_Pair]:
    """Each claim slot with its counterpart, one to one: dates and names first, then the figures."""
    keys = [s for s in claim.values if s.kind in _KEYS]
    paired = _pair_group(claim, ev, keys, {})
    bound = {p.slot.start: p.other for p in paired if p.other is not None}
    figures = [s for s in claim.values if s.kind not in _KEYS]
    paired += _pair_group(claim, ev, figures, bound)
    return sorted(paired, key=lambda p: p.slot.start)


def _pair_group(claim: _Read, ev: _Read, slots: list[Slot], bound: Mapping[int, Slot]) -> list[_Pair]:
    options = [_options(claim, ev, slot, bound) for slot in slots]
    chosen = _assign([[(score, id(p.other)) for score, p in opts[:4]] for opts in options])
    out = []
    for slot, opts, pick in zip(slots, options, chosen, strict=True):
        # Rivals: the counterparts no other claim slot took.
        free = sum(1 for _, p in opts if id(p.other) == pick or id(p.other) not in chosen)
        found = next((p for _, p in opts if id(p.other) == pick), _Pair(slot))
        out.append(replace(found, rivals=free))
    return out


def _options(claim: _Read, ev: _Read, slot: Slot, bound: Mapping[int, Slot]) -> list[tuple[float, _Pair]]:
    """Every comparable window slot as a scored candidate counterpart, best first."""
    around = claim.near(slot)
    key = claim.key_near(slot) if slot.kind not in _KEYS else None
    rivals = [e for e in ev.values if values_match(slot, e) is not None and _same_noun(claim, slot, ev, e)]
    if slot.kind is SlotKind.ENTITY and any(values_match(slot, e) for e in rivals):
        # A name the window spells out is found, whatever role the words around it suggest.
        rivals = [e for e in rivals if values_match(slot, e)]
    scored = []
    for e in rivals:
        context, equal = _covered(around, ev.near(e)), bool(values_match(slot, e))
        tied = key is not None and _bound(ev.key_near(e), bound.get(key.start), key)
        score = context + _EQUAL_BONUS * equal + _BOUND_BONUS * tied
        scored.append((score, _Pair(slot, e, equal, context, len(rivals))))
    return sorted(scored, key=lambda sp: -sp[0])


def _same_noun(claim: _Read, slot: Slot, ev: _Read, other: Slot) -> bool:
    """Bare counts compare only when they count the same thing: "1,200 patients" is not "40 sites"."""
    if slot.kind is not SlotKind.FIGURE:
        return True
    mine, theirs = claim.noun_after(slot), ev.noun_after(other)
    return mine is None or theirs is None or terms_match(mine, theirs)


def _bound(their_key: Slot | None, paired_key: Slot | None, my_key: Slot) -> bool:
    """Whether a window figure hangs on the date or name the claim's figure hangs on."""
    if their_key is None:
        return False
    return their_key is paired_key or bool(values_match(my_key, their_key))


def _assign(options: list[list[tuple[float, int]]]) -> list[int | None]:
    """The one-to-one choice with the highest total score; options[i] = (score, candidate) for slot i."""
    if len(options) > _MAX_SEARCH:
        return _greedy(options)
    best: tuple[float, list[int | None]] = (-1.0, [])

    def walk(i: int, used: frozenset[int], total: float, chosen: list[int | None]) -> None:
        nonlocal best
        if i == len(options):
            best = max(best, (total, chosen), key=lambda b: b[0])
            return
        for score, c in options[i]:
            if c not in used:
                walk(i + 1, used | {c}, total + score, [*chosen, c])
        walk(i + 1, used, total, [*chosen, None])

    walk(0, frozenset(), 0.0, [])
    return best[1]


def _greedy(options: list[list[tuple[float, int]]]) -> list[int | None]:
    used: set[int] = set()
    picks: list[int | None] = []
    for opts in options:
        pick = next((c for _, c in opts if c not in used), None)
        if pick is not None:
            used.add(pick)
        picks.append(pick)
    return picks


# ---- helpers -----------------------------------------------------------------------------------


def _scoped(read: _Read, span: tuple[int, int], shared: set[str], *, negations: bool) -> list[Slot]:
    """Negations (or quantifiers) in `span` governing a word the claim and evidence share."""
    kinds = {SlotKind.NEGATION, SlotKind.QUANTIFIER} if negations else {SlotKind.QUANTIFIER}
    found = [s for s in read.slots if s.kind in kinds and span[0] <= s.start < span[1]]
    if negations:
        found = [s for s in found if s.kind is SlotKind.NEGATION or s.value == "zero"]
    return [s for s in found if _governs(read, s, span, shared)]


def _governs(read: _Read, slot: Slot, span: tuple[int, int], shared: set[str]) -> bool:
    following = [t.stem for t in read.terms if slot.end <= t.start < span[1]][:_SCOPE]
    return any(terms_match(word, s) for word in following for s in shared)


def _overlap(claim: _Read, ev: _Read, pairs: list[_Pair]) -> float:
    """Share of the claim's content words and names found in the window; for a claim of bare figures
    and dates, the share of them the window has a counterpart for."""
    context = claim.context()
    # A name the window holds a rival for is what is contested, not a sign the window is off topic.
    names = [p for p in pairs if p.slot.kind is SlotKind.ENTITY and (p.equal or p.context < _CONTESTED)]
    if context or names:
        hits = _covered(context, [t.stem for t in ev.terms]) * len(context) + sum(p.equal for p in names)
        return hits / (len(context) + len(names))
    if not pairs:
        return 0.0
    return sum(1 for p in pairs if p.equal or p.context > 0) / len(pairs)


def _best_segment(claim: _Read, ev: _Read) -> tuple[int, int]:
    """The window clause sharing most content words with the claim."""
    context = claim.context()
    return max(ev.segments, key=lambda seg: (_covered(context, _stems(ev, seg)), -seg[0]))


def _stems(read: _Read, span: tuple[int, int]) -> list[str]:
    return [t.stem for t in read.terms if span[0] <= t.start < span[1]]


def _covered(needles: Sequence[str], hay: Collection[str]) -> float:
    if not needles:
        return 0.0
    exact = set(hay)
    hits = sum(1 for n in needles if n in exact or any(terms_match(n, h) for h in exact))
    return hits / len(needles)


def _inside(term: Term, slots: Sequence[Slot]) -> bool:
    return any(s.start <= term.start < s.end for s in slots)


def _segments(text: str) -> tuple[tuple[int, int], ...]:
    bounds, start = [], 0
    for m in _SEGMENT_END.finditer(text):
        bounds.append((start, m.start()))
        start = m.end()
    bounds.append((start, len(text)))
    return tuple(bounds)


def _mentions(text: str, entities: Sequence[Slot], taken: Sequence[Slot]) -> tuple[Slot, ...]:
    """The claim's names wherever the window spells them, even where they were not read as names."""
    found: list[Slot] = []
    for entity in entities:
        for m in re.finditer(rf"\b{re.escape(entity.text)}\b", text, re.IGNORECASE):
            if not any(m.start() < s.end and s.start < m.end() for s in (*taken, *found)):
                found.append(Slot(SlotKind.ENTITY, entity.value, m.start(), m.end(), m.group(0)))
    return tuple(found)


def _same_case(model: str, word: str) -> str:
    return word[:1].upper() + word[1:] if model[:1].isupper() else word.lower()

"""The offline verdict component: slot alignment between a claim and its evidence windows. No model.

For each candidate window the claim's slots (figures, dates, names, negation, quantifiers) are paired with
the window's slots by the words around them (`workers.stages.align`); a pair with different values in a
window about the same thing is a contradiction, and comes with the supported value written in the
claim's own style. A window supports the claim only when every slot is found with the same value and the
content words overlap.

A wrong correction is worse than a flag, so a value is only swapped when it plainly plays the claim
value's role: same unit, same word before a name, never a name the claim is about or already uses, never
in a comparison ("started first"), and never for a name some candidate window spells out as written.
A claim that opens with a pronoun is read in its standalone form (`Claim.standalone`); its fixes are
mapped back onto the claim as written.

A value the aligner found no counterpart for still counts as found when the window states it in
another guise: the same number read as another kind or without its unit ("a 2014 film" is a count to
the slot reader, "in 2014" a year; "3.45 mi") among words like the claim's, or a name whose words the
window has in a row, whatever their case or spacing ("nicky henderson 's sprinter sacre"). A small
count the window spells out in words like the claim's ("3-year deal", "three-year deal") is found even
where the digits paired it with another number ("39-year-old"), which then is no contradiction.
Otherwise this only turns "not found" into "found". A frame about the source
("The passage states that ...", "According to the article, ...") is no fact of its own: what follows
it is checked.

Usage::

    checker = OfflineChecker()
    [result] = checker.judge_many([(claim, candidates)])
    result.label, result.reason, result.fixes     # CONTRADICT, "figure $4.2 bn in claim, ...", (SlotFix,)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workers.backends.locks import locked_slots
from workers.backends.negation import (
    negation_differs,
    polarity_conflicts,
    quantifier_conflicts,
    scoped,
    stems,
)
from workers.backends.segments import best_segment
from workers.backends.shapes import (
    Conflict,
    bound_conflicts,
    charge_conflicts,
    condition_conflicts,
    crossed_conflicts,
    denial_conflicts,
    direction_conflicts,
    duty_conflicts,
    exception_conflicts,
    fixed_starts,
    frequency_conflicts,
    modal_conflicts,
    nationality_conflicts,
    outcome_conflicts,
    overgeneral_conflicts,
    period_conflicts,
    rank_conflicts,
    role_conflicts,
)
from workers.backends.spans import denied_elsewhere, fixed_whole, outside_ranges, swaps_whole, whole_spans
from workers.messages import Claim, Evidence, Judgement, SlotFix
from workers.protocols import CheckResult
from workers.stages._text import SOURCE_NOUN
from workers.stages.align import Pair, Parsed, covered, is_comparative
from workers.stages.cases import applies_to_case
from workers.stages.changes import changed_by
from workers.stages.derived import unseen_date
from workers.stages.exceptions import denied_exception
from workers.stages.guises import counted_alone, counts_alike, paired_values
from workers.stages.hedges import rewritten
from workers.stages.kinds import region_of
from workers.stages.ranks import ranked_otherwise
from workers.stages.render import render_like
from workers.stages.restrictions import denied_condition
from workers.stages.roles import holder_named
from workers.stages.slot_types import AMOUNTS
from workers.stages.slots import (
    SlotKind,
    polarity,
    terms_match,
    values_match,
)

__all__ = ["OfflineChecker"]

# A rival name whose clause reads at least this much like the claim's is contested, not missing.
_CONTESTED = 0.5
# A value not tied to the claim's date or name contradicts it only this far ahead of the next one
# (a pairing score: shared words around the value, 0-1, plus bonuses; a quarter is one word in four).
_CLEAR = 0.25
_FRAME = re.compile(
    rf"\s*(?:according\s+to\s+the\s+{SOURCE_NOUN}\s*,?|(?:the|this)\s+{SOURCE_NOUN}(?:\s+also)?\s+"
    r"(?:states?|says|mentions|notes|describes|discusses|reports|explains|indicates|highlights|suggests"
    r"|adds|reveals|shows|covers|details)(?:\s+that)?)\s+",
    re.IGNORECASE,
)


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
    doubt: bool = False  # a negation over words the window does not restate: the rules abstain
    excludes: bool = False  # the window excludes what the claim states (`Conflict.excludes`)


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
        text = _unframed(claim.standalone or claim.text)
        read = Parsed.of(text)
        names = [s for s in read.values if s.kind is SlotKind.ENTITY]
        evs = [Parsed.of(w.text, entities=names) for w in windows]
        locked = locked_slots(read, evs)
        # A role holder some window names may well hold it: another window's holder is then no fix.
        roles = not any(holder_named(text, w.text) for w in windows)
        paired = [_paired(read, ev) for ev in evs]
        stated = _stated(paired)
        readings = [
            self._read_window(read, ev, w, pair, locked | _outweighed(stated, pair[1]), roles=roles)
            for ev, w, pair in zip(evs, windows, paired, strict=True)
        ]
        best = _excluded_over(_pick(readings), readings, read, evs)
        cited = evs[next(i for i, r in enumerate(readings) if r is best)]
        best = _as_case(_onto_original(_noted(best, read), claim.text, text), text)
        extra = {
            "overlap": round(best.overlap, 4),
            "negation": float(negation_differs(read, cited)),
            "values": float(len(read.values)),
            "doubt": float(best.doubt or _denies_as_window(read, cited)),
            "unseen_date": float(unseen_date(read, evs)),
        }
        return CheckResult(best.label, best.reason, best.window, best.fixes, best.confidence, extra)

    def _read_window(
        self,
        claim: Parsed,
        ev: Parsed,
        window: Evidence,
        paired: tuple[list[Pair], float],
        locked: frozenset[int],
        *,
        roles: bool,
    ) -> _Reading:
        pairs, overlap = paired
        segment = best_segment(claim, ev)
        cite = f"[doc {window.doc_id} {window.start}-{window.end}]"
        found = self._conflicts(claim, ev, pairs, segment, overlap=overlap, locked=locked, roles=roles)
        conflicts = [c for c in found if not c.doubt and not c.unstated]
        if conflicts and overlap >= self._min_topic:
            conflicts = fixed_whole(conflicts, pairs, claim, segment, min_context=self._min_context)
            return _contradiction(conflicts, window, overlap, cite)
        unstated = "; ".join(c.reason for c in found if c.unstated)
        if unstated and overlap >= self._min_topic:
            return _Reading(
                Judgement.INSUFFICIENT, f"{unstated} {cite}", window, overlap, 0.5 + 0.3 * overlap
            )
        doubts = "; ".join(c.reason for c in found if c.doubt)
        if doubts and overlap >= self._min_topic:
            # The rules abstain: neither a value missing nor a conflict, so the decision reads the model.
            reason = f"{doubts} {cite}"
            return _Reading(Judgement.NEUTRAL, reason, window, overlap, 0.5 + 0.3 * overlap, doubt=True)
        if all(p.equal for p in pairs) and overlap >= self._min_support and (pairs or claim.context()):
            return _support(pairs, window, overlap, cite)
        return self._not_supported(pairs, window, overlap, cite)

    def _conflicts(
        self,
        claim: Parsed,
        ev: Parsed,
        pairs: list[Pair],
        segment: tuple[int, int],
        *,
        overlap: float,
        locked: frozenset[int],
        roles: bool,
    ) -> list[Conflict]:
        broken = [
            p
            for p in pairs
            if p.slot.start not in locked
            and self._credible(p, overlap)
            and counts_alike(p, claim, ev)
            and not counted_alone(p, ev)
        ]
        spans = whole_spans(broken, pairs, claim, ev)
        found = [_value_conflict(p, claim.text, ev.text) for p in spans]
        shared = _shared(claim, stems(ev, segment))
        denial = denied_condition(claim, ev, segment=segment)
        if (
            covered(claim.context(), stems(ev, segment)) >= self._min_support
            and not self._agrees_elsewhere(claim, ev)
            # "Acme is not the largest bank" against "the second-largest": the "not" is the window's rank
            and not ranked_otherwise(claim, ev, segment=segment)
            # the "not" is the window's exception ("does not accept Amex" against "accepts all cards
            # except Amex"), or removing it would drop the window's condition (`denial`)
            and not denied_exception(claim, ev, segment=segment)
            and denial is None
        ):
            fixed = fixed_starts(found)
            # Names are the negation's own business (`_names_subject`); a figure or date must be stated.
            values = [p for p in pairs if p.slot.kind is not SlotKind.ENTITY]
            found += polarity_conflicts(
                claim, ev, segment, shared, values_found=all(p.equal or p.slot.start in fixed for p in values)
            )
        found += denial_conflicts(denial)
        if overlap >= self._min_topic:
            found += role_conflicts(claim, ev) if roles else []
            found += charge_conflicts(claim, ev) + quantifier_conflicts(claim, ev, segment, shared)
            found += rank_conflicts(claim, ev, segment)
            found += outside_ranges(pairs, ev, segment, min_context=self._min_context)
            moved = direction_conflicts(claim, ev, segment)
            if moved:  # a movement said in one sentence: a value paired in another is not the claim's
                paired, rest = found[: len(spans)], found[len(spans) :]
                found = [c for c, p in zip(paired, spans, strict=True) if _within(p, segment)] + rest
                if _figure_left(claim, ev, pairs, found, segment):
                    moved = [replace(c, fixes=()) for c in moved]
            found += moved
            found += nationality_conflicts(claim, ev, locked | fixed_starts(found))
            found += swaps_whole(claim, ev, segment, pairs, found)
            found += frequency_conflicts(claim, ev, segment, found)
            found += period_conflicts(claim, ev, found)
            found += crossed_conflicts(claim, ev, found)
            unfixable = outcome_conflicts(claim, ev, segment) + condition_conflicts(claim, ev, segment)
            unfixable += exception_conflicts(claim, ev, segment) + modal_conflicts(claim, ev, found)
            unfixable += overgeneral_conflicts(claim, ev, found) + duty_conflicts(claim, ev, found)
            fixes = [f for c in found for f in c.fixes]
            unfixable += bound_conflicts(claim, ev, pairs, fixes=fixes, min_context=self._min_context)
            # a window that reports the opposite decision or a condition the claim drops, a movement no
            # word fixes, or a word of the claim it denies elsewhere fixes none of the claim's values
            if unfixable or any(not c.fixes for c in moved) or denied_elsewhere(claim, ev, segment, found):
                found = [replace(c, fixes=()) for c in found] + unfixable
        return found

    def _agrees_elsewhere(self, claim: Parsed, ev: Parsed) -> bool:
        """Whether some sentence of the window reads as much like the claim and says it with the claim's
        own polarity: "The drug is not approved for children" is no contradiction of a window that says
        "It is approved for adults. It is not approved for children." whichever sentence comes first."""
        for segment in ev.segments:
            words = stems(ev, segment)
            if covered(claim.context(), words) < self._min_support:
                continue
            shared = _shared(claim, words)
            mine = scoped(claim, (0, len(claim.text)), shared, negations=True)
            if polarity(mine) == polarity(scoped(ev, segment, shared, negations=True)):
                return True
        return False

    def _credible(self, pair: Pair, overlap: float) -> bool:
        """A different value counts when it may stand in for the claim's and its clause reads like the
        claim's, or it is the only candidate and shares some of those words.

        Unless it alone hangs on the claim's own date or name, it must also be plainly the claim's,
        ahead of every other value the window gives, the claim's own included: "the Tories spent £2,980,815"
        against UKIP's £2,956,737 and the Tories' £2,980,815 in one window, or "Labour spent £1.4m"
        against four parties' spending, reads alike with each. The rules cannot tell whose value is
        whose there, so the claim is left to the model and flagged, never given another's value. Where
        the window states the claim's own value as well, only that tie makes another value the claim's:
        "appointed by Reagan in 1981" is not made 1980 for "During the 1980 campaign, Reagan promised
        ... He made good on that promise in 1981", however many words the campaign's sentence shares;
        the date's own verb does ("founded in 1991" against "founded in 1994. It moved ... in 1991")."""
        if pair.other is None or pair.equal or not pair.swappable:
            return False
        if pair.margin < _CLEAR and (not pair.tied or pair.tied_rival):
            return False
        if pair.equal_rival and not (pair.tied or pair.led):
            return False  # the window states the claim's value too: words alone do not say which is its
        if _stated_too(pair):
            return False  # ... with as much of the claim's words around it as the other has
        alone = pair.rivals == 1 and overlap >= self._min_support and pair.context > 0
        return pair.context >= self._min_context or alone

    def _not_supported(self, pairs: list[Pair], window: Evidence, overlap: float, cite: str) -> _Reading:
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


def _unframed(text: str) -> str:
    """The claim without a leading frame about its source, when at least three words remain."""
    frame = _FRAME.match(text)
    rest = text[frame.end() :] if frame else text
    return rest if len(rest.split()) >= 3 else text


def _noted(reading: _Reading, claim: Parsed) -> _Reading:
    """Why a comparison was neither corrected nor contradicted by a swapped value."""
    if reading.label is Judgement.SUPPORT or not is_comparative(claim.text):
        return reading
    return replace(reading, reason=f"a comparison, not checkable value by value; {reading.reason}")


def _as_case(reading: _Reading, text: str) -> _Reading:
    """A claim that applies the document's rules to a case of its own ("A 60-year-old should begin
    on 25 micrograms") is never corrected (`stages.cases`): its fixes go, and it is a doubt."""
    if not reading.fixes or not applies_to_case(text):
        return reading
    why = f"{reading.reason}; a case the document's rules are applied to: not corrected"
    return replace(reading, reason=why, fixes=(), doubt=True)


def _onto_original(reading: _Reading, original: str, text: str) -> _Reading:
    """A reading of the standalone text with its fixes moved onto the claim as written; a fix inside
    the words put in for a pronoun (or a question) has no place there, so the claim is not corrected."""
    if text == original:
        return reading
    read_as = f'{reading.reason} (claim read as "{text}")'
    fixes = [_moved(f, original, text) for f in reading.fixes]
    if any(f is None for f in fixes):
        why = f"{read_as}; not corrected: the value is in the words read for a pronoun"
        return replace(reading, label=Judgement.INSUFFICIENT, reason=why, fixes=(), strength=0.0)
    return replace(reading, reason=read_as, fixes=tuple(f for f in fixes if f is not None))


def _moved(fix: SlotFix, original: str, text: str) -> SlotFix | None:
    """`fix` (an edit of `text`) as an edit of `original`, which differs from `text` in one span or, for
    a short answer read with its question (`stages.qa2d`), stands in it once as written."""
    at = text.find(original) if original else -1
    if at >= 0 and text.find(original, at + 1) < 0:
        inside = fix.start - at, fix.end - at
        if 0 <= inside[0] <= inside[1] <= len(original) and original[inside[0] : inside[1]] == fix.wrong:
            return fix.model_copy(update={"start": inside[0], "end": inside[1]})
        return None
    head = _common(original, text)
    tail = min(_common(original[::-1], text[::-1]), min(len(original), len(text)) - head)
    shift = len(text) - len(original)

    # A fix lies wholly before the changed span or wholly after it ("According to the article, over
    # 12,000 ..." read as "over 12,000 ...": a fix at its very start lies after the frame).
    if fix.end <= head:
        start, end = fix.start, fix.end
    elif fix.start >= len(text) - tail:
        start, end = fix.start - shift, fix.end - shift
    else:
        return None
    if original[start:end] != fix.wrong:
        return None
    right = fix.right
    if start and not fix.start and right[:1].isupper() and not fix.wrong[:1].isupper():
        right = right[:1].lower() + right[1:]  # "More than ..." opened the text read, not the answer
    return fix.model_copy(update={"start": start, "end": end, "right": right})


def _common(a: str, b: str) -> int:
    """How many leading characters `a` and `b` share."""
    return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))


# ---- readings ----------------------------------------------------------------------------------


def _paired(claim: Parsed, ev: Parsed) -> tuple[list[Pair], float]:
    """The claim's slots paired with the window's, and the share of the claim's words the window holds."""
    pairs = paired_values(claim, ev)
    return pairs, _overlap(claim, ev, pairs)


def _stated(paired: Sequence[tuple[list[Pair], float]]) -> dict[int, float]:
    """Per claim slot (by start), the most of the claim's words held by a window that states its value."""
    out: dict[int, float] = {}
    for pairs, overlap in paired:
        for pair in pairs:
            if pair.equal or _stated_too(pair):
                out[pair.slot.start] = max(overlap, out.get(pair.slot.start, 0.0))
    return out


def _stated_too(pair: Pair) -> bool:
    """Whether the window states the claim's figure too, with as much of the claim's words around it
    as around the value paired with it ("up to 52 weeks of maternity leave" beside "the first 6 weeks")."""
    return pair.equal_context is not None and pair.equal_context >= pair.context


def _outweighed(stated: dict[int, float], overlap: float) -> frozenset[int]:
    """Claim slots a window may not contradict: another window, at least as much about the claim,
    states the claim's value ("born 8 August 1966" beside the son's "born 18 September 1989")."""
    return frozenset(start for start, held in stated.items() if held >= overlap)


def _pick(readings: list[_Reading]) -> _Reading:
    """SUPPORT if any window supports; else the strongest contradiction; else the closest window."""
    rank = {Judgement.SUPPORT: 3, Judgement.CONTRADICT: 2, Judgement.INSUFFICIENT: 1, Judgement.NEUTRAL: 0}
    return max(readings, key=lambda r: (rank[r.label], r.strength, r.overlap, r.window.score))


def _denies_as_window(claim: Parsed, ev: Parsed) -> bool:
    """Whether the claim's "not" is the window's exception or condition ("does not accept Amex" against
    "accepts all cards except Amex"): a rule reading against the model's contradiction, so a flag."""
    at = best_segment(claim, ev)
    return denied_exception(claim, ev, segment=at) or denied_condition(claim, ev, segment=at) is not None


def _excluded_over(best: _Reading, readings: list[_Reading], claim: Parsed, evs: list[Parsed]) -> _Reading:
    """A window that excludes what the claim states ("The policy covers fire. Theft is excluded.")
    outranks another window's support that does not say every word of the claim."""
    excluding = next((r for r in readings if r.excludes), None)
    if best.label is not Judgement.SUPPORT or excluding is None:
        return best
    ev = evs[next(i for i, r in enumerate(readings) if r is best)]
    return best if covered([t.stem for t in claim.terms], stems(ev, (0, len(ev.text)))) == 1.0 else excluding


def _support(pairs: list[Pair], window: Evidence, overlap: float, cite: str) -> _Reading:
    if pairs:
        listed = ", ".join(f"{p.slot.kind.value} {p.slot.text}" for p in pairs)
        what = f"{listed} match{'es' if len(pairs) == 1 else ''}"
    else:
        what = "no figures, dates or names to check"
    reason = f"{what}; {overlap:.0%} of the claim's content words found {cite}"
    confidence = min(1.0, 0.45 + 0.5 * overlap + (0.05 if pairs else 0.0))
    return _Reading(Judgement.SUPPORT, reason, window, overlap, confidence)


def _contradiction(conflicts: list[Conflict], window: Evidence, overlap: float, cite: str) -> _Reading:
    strength = max(c.strength for c in conflicts)
    reason = "; ".join(c.reason for c in conflicts) + f" {cite}"
    fixes = tuple(f.model_copy(update={"evidence_doc_id": window.doc_id}) for c in conflicts for f in c.fixes)
    confidence = min(1.0, 0.5 + 0.3 * strength + 0.15 * overlap)
    excludes = any(c.excludes for c in conflicts)
    return _Reading(
        Judgement.CONTRADICT, reason, window, overlap, confidence, fixes, strength, excludes=excludes
    )


def _value_conflict(pair: Pair, text: str, window: str) -> Conflict:
    assert pair.other is not None
    slot, other = pair.slot, pair.other
    label = "date" if slot.kind in (SlotKind.DATE, SlotKind.YEAR) else slot.kind.value
    back, right, said = 0, render_like(slot, other), other.text
    where = (slot.start, slot.end), (other.start, other.end)
    region = region_of(text, where[0], window, where[1]) if slot.kind is SlotKind.ENTITY else None
    if region and region.lower() != slot.text.lower():
        right = said = region  # "based in Michigan" against "Roseau, Minnesota": the claim's level
    if slot.figure is not None and other.figure is not None:
        # A bound or an approximation is fixed with its hedge: "Over 12,000" -> "11,000".
        begins = _opens_sentence(text, slot.start - len(slot.figure.hedge.words))
        back, right = rewritten(slot.figure.hedge, other.figure.hedge, right, upper=begins)
        said = other.figure.hedge.words + said
    wrong = text[slot.start - back : slot.end]
    fix = SlotFix(start=slot.start - back, end=slot.end, wrong=wrong, right=right)
    return Conflict(f"{label} {wrong} in claim, {said} in evidence", 0.5 + 0.5 * pair.context, (fix,))


def _opens_sentence(text: str, pos: int) -> bool:
    """A claim is one sentence: only its start opens one (a frame's end does not: `_moved`)."""
    return not text[:pos].strip()


# ---- helpers -----------------------------------------------------------------------------------


def _figure_left(
    claim: Parsed, ev: Parsed, pairs: list[Pair], found: list[Conflict], segment: tuple[int, int]
) -> bool:
    """Whether a figure of the claim that the window pairs is neither stated in the clause a movement
    was read in nor fixed there: "Germany's economy grew 0.9%" against "Germany ... contracted 0.3%"
    (its 0.3% not the claim's for the rules) or against "... contracted 0.3%. France ... grew 0.9%"
    (the claim's figure another's), so "contracted 0.9%" would say what no one did."""
    fixed = fixed_starts(found)
    stated = [e for e in ev.values if segment[0] <= e.start < segment[1]]
    return any(
        p.other is not None and p.slot.start not in fixed and not any(values_match(p.slot, e) for e in stated)
        for p in pairs
        if p.slot.kind in AMOUNTS and changed_by(claim, p.slot)  # the movement's own amount, not "to $10m"
    )


def _within(pair: Pair, segment: tuple[int, int]) -> bool:
    return pair.other is not None and segment[0] <= pair.other.start < segment[1]


def _overlap(claim: Parsed, ev: Parsed, pairs: list[Pair]) -> float:
    """Share of the claim's content words and names found in the window; for a claim of bare figures
    and dates, the share of them the window has a counterpart for."""
    context = claim.context()
    # A name the window holds a rival for is what is contested, not a sign the window is off topic.
    names = [p for p in pairs if p.slot.kind is SlotKind.ENTITY and (p.equal or p.context < _CONTESTED)]
    if context or names:
        hits = covered(context, [t.stem for t in ev.terms]) * len(context) + sum(p.equal for p in names)
        return hits / (len(context) + len(names))
    if not pairs:
        return 0.0
    return sum(1 for p in pairs if p.equal or p.context > 0) / len(pairs)


def _shared(claim: Parsed, words: list[str]) -> set[str]:
    """The claim's content words that `words` (a window sentence's stems) also has."""
    return {s for s in claim.context() if any(terms_match(s, t) for t in words)}

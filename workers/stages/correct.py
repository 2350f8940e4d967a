"""Stage 5, correction: REPLACE contradicted claims, REMOVE unsupported contradictions, FLAG unverified.

Pure. Edits apply from the end of the text so offsets hold; the claims of one sentence are corrected
as a unit so the result reads as prose.

Usage::

    outcome = correct(answer.answer, checked, settings=settings.correction, high_stakes=False)
    outcome.text, outcome.claims, outcome.needs_review

Actions: VERIFIED -> KEEP; CONTRADICTED with a usable fix -> REPLACE (the fix spliced into the claim);
CONTRADICTED without one -> REMOVE (the clause with its connector, or the whole sentence); UNVERIFIED ->
FLAG with `settings.flag_format`. A claim whose offsets do not match the answer is left alone (KEEP).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from workers.messages import Action, CheckedClaim, ClaimResult, SlotFix, Verdict
from workers.settings import CorrectionSettings

__all__ = ["CorrectionOutcome", "correct"]

_CONNECTORS = r"and|but|or|nor|yet|so|while|whereas|although|though|because|since"
# What joins a removed clause to the clause before it: ", and", " but", ";", ",".
_BEFORE = re.compile(rf"(?:\s*[,;]\s*(?:(?:{_CONNECTORS})\s+)?|\s+(?:{_CONNECTORS})\s+)\Z", re.IGNORECASE)
# ... or to the clause after it, when the removed clause opened the sentence.
_AFTER = re.compile(rf"\s*[,;]\s*(?:(?:{_CONNECTORS})\b\s*)?|\s+(?:{_CONNECTORS})\b\s*", re.IGNORECASE)
_TERMINAL = ".!?…"
# Characters a removal may leave a space in front of: "rose 5% ." must become "rose 5%.".
_CLOSING = ".,;:!?)]…"


@dataclass(frozen=True, slots=True)
class CorrectionOutcome:
    text: str
    claims: tuple[ClaimResult, ...]
    needs_review: bool
    review_reasons: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class _Plan:
    """The decision for one claim; `unit` is the span corrected as a whole, None if it cannot be placed."""

    checked: CheckedClaim
    action: Action
    reason: str
    replacement: str | None = None
    unit: tuple[int, int] | None = None

    @property
    def start(self) -> int:
        return self.checked.claim.start

    @property
    def end(self) -> int:
        return self.checked.claim.end


@dataclass(frozen=True, slots=True)
class _Group:
    """Claims whose sentences overlap, spliced together; start/end are offsets in the original answer."""

    start: int
    end: int
    plans: tuple[_Plan, ...]


def correct(
    answer: str,
    checked: Sequence[CheckedClaim],
    *,
    settings: CorrectionSettings,
    high_stakes: bool = False,
) -> CorrectionOutcome:
    plans = [_plan(answer, c, flag_format=settings.flag_format) for c in checked]
    plans, over = _guard(plans, max_share=settings.max_flag_share)
    plans = _resolve_overlaps(plans)
    text = _apply(answer, plans)
    review = high_stakes and settings.review_high_stakes_contradictions
    reasons = _review_reasons(plans, over_correction=over, high_stakes=review)
    ordered = sorted(plans, key=lambda p: (p.start, p.end))
    return CorrectionOutcome(text, tuple(_result(p) for p in ordered), bool(reasons), reasons)


# ---- deciding ----------------------------------------------------------------------------------


def _plan(answer: str, checked: CheckedClaim, *, flag_format: str) -> _Plan:
    claim = checked.claim
    if not (claim.start < claim.end <= len(answer) and answer[claim.start : claim.end] == claim.text):
        return _Plan(
            checked, Action.KEEP, f"left unchanged: offsets do not match the answer; {checked.reason}"
        )
    unit = _unit_of(checked, len(answer))
    if checked.verdict == Verdict.VERIFIED:
        return _Plan(checked, Action.KEEP, checked.reason, unit=unit)
    if checked.verdict == Verdict.UNVERIFIED:
        # str.replace, not str.format: a stray brace in the configured format must not raise.
        return _Plan(checked, Action.FLAG, checked.reason, flag_format.replace("{text}", claim.text), unit)
    fixed = _apply_fixes(claim.text, checked.fixes)
    if fixed is None:
        note = "; the suggested fixes do not fit the claim text" if checked.fixes else ""
        return _Plan(checked, Action.REMOVE, checked.reason + note, unit=unit)
    return _Plan(checked, Action.REPLACE, checked.reason, fixed, unit)


def _unit_of(checked: CheckedClaim, length: int) -> tuple[int, int]:
    """The claim's sentence, or the claim itself when the sentence offsets do not contain it."""
    c = checked.claim
    if c.sentence_start <= c.start and c.end <= c.sentence_end <= length:
        return c.sentence_start, c.sentence_end
    return c.start, c.end


def _apply_fixes(text: str, fixes: Sequence[SlotFix]) -> str | None:
    """The claim text with its fixes spliced in; None when no fix fits or nothing would change."""
    spans = sorted(s for s in (_locate(text, f) for f in fixes) if s is not None)
    accepted: list[tuple[int, int, str]] = []
    for span in spans:
        if not accepted or span[0] >= accepted[-1][1]:
            accepted.append(span)
    out = text
    for start, end, right in reversed(accepted):
        out = _article(out[:start], right) + right + out[end:]
    return out if out != text else None


# An article before the fixed value agrees with it: "a French film" -> "an Argentine film".
_ARTICLE = re.compile(r"(?<![\w'’-])([Aa]n?) \Z")
# Words that open with a vowel letter but a consonant sound: "a university", "a one-off", "a European".
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "ura", "eu", "one", "once")


def _article(before: str, right: str) -> str:
    """`before` with its closing "a"/"an" made to fit `right`; a figure or symbol is left alone."""
    m = _ARTICLE.search(before)
    if m is None or not right[:1].isalpha():
        return before
    # A capital "A" is an article only where a sentence starts; "Class A shares" keeps its letter.
    if m.group(1)[0] == "A" and before[: m.start(1)].rstrip()[-1:] not in ("", ".", "!", "?", ":", '"', "“"):
        return before
    vowel = right[:1].lower() in "aeiou" and not right.lower().startswith(_CONSONANT_SOUND)
    word = ("an" if vowel else "a") if m.group(1).islower() else ("An" if vowel else "A")
    return before[: m.start(1)] + word + " "


def _locate(text: str, fix: SlotFix) -> tuple[int, int, str] | None:
    if fix.start <= fix.end <= len(text) and text[fix.start : fix.end] == fix.wrong:
        return fix.start, fix.end, fix.right
    # Offsets off but the wrong value unambiguous: still safe to fix.
    if fix.wrong and text.count(fix.wrong) == 1:
        at = text.index(fix.wrong)
        return at, at + len(fix.wrong), fix.right
    return None


def _guard(plans: list[_Plan], *, max_share: float) -> tuple[list[_Plan], bool]:
    """Too many flags make an answer unreadable; a person should look at it instead."""
    flagged = sum(p.action == Action.FLAG for p in plans)
    if len(plans) < 3 or flagged / len(plans) <= max_share:
        return plans, False
    held = [_keep(p, "held for review: ") if p.action == Action.FLAG else p for p in plans]
    return held, True


def _resolve_overlaps(plans: list[_Plan]) -> list[_Plan]:
    """Of two edits over the same characters only the first (in text order) applies."""
    out = list(plans)
    last: _Plan | None = None
    for i in sorted(range(len(out)), key=lambda i: (out[i].start, out[i].end)):
        p = out[i]
        if p.unit is None or p.action == Action.KEEP:
            continue
        if last is not None and p.start < last.end:
            out[i] = _keep(p, f"left unchanged: overlaps claim {last.checked.claim.id}; ")
        else:
            last = p
    return out


def _keep(plan: _Plan, prefix: str) -> _Plan:
    return replace(plan, action=Action.KEEP, replacement=None, reason=prefix + plan.reason)


def _review_reasons(plans: list[_Plan], *, over_correction: bool, high_stakes: bool) -> tuple[str, ...]:
    reasons = ["over_correction"] if over_correction else []
    if high_stakes and any(p.checked.verdict == Verdict.CONTRADICTED for p in plans):
        reasons.append("high_stakes_contradiction")
    if any(p.action == Action.REPLACE and p.checked.confidence < 0.5 for p in plans):
        reasons.append("low_confidence_replacement")
    return tuple(reasons)


def _result(p: _Plan) -> ClaimResult:
    c = p.checked
    return ClaimResult(
        id=c.claim.id,
        text=c.claim.text,
        start=c.claim.start,
        end=c.claim.end,
        verdict=c.verdict,
        judgement=c.judgement,
        similarity=c.similarity,
        evidence=c.evidence,
        reason=p.reason,
        action=p.action,
        replacement=p.replacement,
    )


# ---- editing -----------------------------------------------------------------------------------


def _apply(answer: str, plans: list[_Plan]) -> str:
    groups = _groups(plans)
    text = answer
    # From the end: a splice never moves the offsets of the groups before it.
    for i in reversed(range(len(groups))):
        floor = groups[i - 1].end if i else 0
        ceiling = groups[i + 1].start if i + 1 < len(groups) else len(answer)
        text = _splice(text, groups[i], floor=floor, ceiling=ceiling)
    return text


def _groups(plans: list[_Plan]) -> list[_Group]:
    placed = sorted(((p.unit, p) for p in plans if p.unit is not None), key=lambda up: up[0])
    groups: list[_Group] = []
    for (start, end), plan in placed:
        if groups and start < groups[-1].end:
            g = groups[-1]
            groups[-1] = _Group(g.start, max(g.end, end), (*g.plans, plan))
        else:
            groups.append(_Group(start, end, (plan,)))
    return groups


def _splice(text: str, group: _Group, *, floor: int, ceiling: int) -> str:
    if all(p.action == Action.KEEP for p in group.plans):
        return text
    if all(p.action == Action.REMOVE for p in group.plans):
        return _drop(text, group.start, group.end, floor=floor, ceiling=ceiling)
    new = _edit_unit(text[group.start : group.end], group)
    if not any(ch.isalnum() for ch in new):
        return _drop(text, group.start, group.end, floor=floor, ceiling=ceiling)
    return text[: group.start] + new + text[group.end :]


def _edit_unit(sentence: str, group: _Group) -> str:
    plans = sorted(group.plans, key=lambda p: (p.start, p.end))
    for p in reversed(plans):
        a, b = p.start - group.start, p.end - group.start
        if p.action == Action.REMOVE:
            lo = max((q.end - group.start for q in plans if q.end <= p.start), default=0)
            sentence = _remove_clause(sentence, a, b, lo=lo)
        elif p.action != Action.KEEP:
            sentence = sentence[:a] + (p.replacement or "") + sentence[b:]
    return sentence


def _remove_clause(s: str, a: int, b: int, *, lo: int) -> str:
    """Cut `s[a:b]` with the connector that ties it to its neighbour; `lo` bounds the look-back."""
    before = _BEFORE.search(s, lo, a)
    after = _AFTER.match(s, b)
    # A bare comma with no claim before it closes an introductory phrase ("In 2023, ..."): keep it.
    if before and (_strong(before.group()) or lo > 0 or not after):
        x, y = before.start(), b
    else:
        x, y = a, (after.end() if after else b)
    return _cut(s, x, y, capital=s[a:b][:1].isupper())


def _strong(connector: str) -> bool:
    return any(ch.isalpha() or ch == ";" for ch in connector)


def _cut(s: str, x: int, y: int, *, capital: bool) -> str:
    left, right = s[:x], s[y:]
    if not left.strip():
        right = right.lstrip(" \t,;")
        return left + (_capitalise(right) if capital else right)
    if left[-1].isspace() and (not right or right[0].isspace() or right[0] in _CLOSING):
        left = left.rstrip()
    return left + right


def _capitalise(s: str) -> str:
    for i, ch in enumerate(s):
        if ch.isalnum():
            return s[:i] + ch.upper() + s[i + 1 :]
    return s


def _drop(text: str, start: int, end: int, *, floor: int, ceiling: int) -> str:
    """Remove a whole sentence with its terminal punctuation and one side's whitespace."""
    while end < min(ceiling, len(text)) and text[end] in _TERMINAL:
        end += 1
    lead = start
    while lead > floor and text[lead - 1].isspace():
        lead -= 1
    trail = end
    while trail < len(text) and text[trail].isspace():
        trail += 1
    if lead == 0:
        return text[trail:]
    # Drop the space before the sentence, unless that would join two paragraphs.
    if trail == len(text) or "\n" not in text[lead:start]:
        return text[:lead] + text[end:]
    return text[:start] + text[trail:]

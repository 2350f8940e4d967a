"""Conditions dropped: "Tenants may sublet the flat" against "... only with the landlord's consent". Pure.

A claim that states plainly what its document allows only under a condition shares every word of the
document's sentence but the condition, so tier-1 similarity is high and the cross-encoder reads the
pair as support: "The medication is safe during pregnancy" against "... only in the second
trimester", "The warranty covers water damage" against "... unless the device was opened", "The
deposit is refundable" against "... provided that the tenant gives two months' notice" were all
VERIFIED. For a legal, financial or medical answer the condition is the point. Such a claim is
flagged here, never fixed (which condition to restore, and where, is more than the rules can tell).

A first version read any condition word after any claim; two review rounds of probes found it
flagging 85 of 129, then 73 of 131, correct answers ("shares rallied, only to fall back", "is
investigating the bank to see if rules were broken", "sales rose, if only slightly", "valid on buses
but trams only after 9.30 am", "unpopular, with an approval rating of 38%", "All prices include VAT
unless otherwise stated"). A third round tried the document's next sentence ("... may sublet the
flat. This requires the landlord's consent.") and found "This requires", "This is subject to"
as often a cost, a consequence or another item's condition (75 of 79 correct answers flagged), and
the claim's own sentence retrieved alone supports it anyway: it is not read. A fourth tried a
condition between commas among the claim's words ("Tenants may, with the landlord's consent,
sublet the flat") and found it flagging 42 of 73 correct answers (another clause's or list item's
condition, a credit "with permission from the Tate", a concession "if belated"): not read either.
So it reads narrowly:

- the claim states a standing permission, duty, eligibility or state (a modal, "is"/"are" not in
  progress, "covers", "applies", "requires" ...), told in no past tense, with no condition or hedge
  of its own ("if", "only", "most", "usually" ...: conditions against conditions are the model's);
- one clause of the window restates every content word and value of the claim with the claim's
  polarity (a permission word aside: "are allowed to sublet" for "may sublet"), and no other clause
  of the window restates them all without a condition;
- the condition follows the claim's last word at once (a word between is another subject's: "on
  buses but trams only after ..."): "only if", "only with", "only in" ..., "unless", "provided
  that", "subject to" what a permission waits on (an approval, a fee, terms), "except", "if"
  before a subject, a name or a state word ("needed", "approved"); after a comma, "if" never
  ("sensible, if a little late"; "within 48 hours, if needed by phone") and "only" only before
  "if", "with", "when" ... ("ahead, only by two points" is a degree); or it opens the clause ("If
  the landlord agrees, tenants may keep pets."; not "If anything,", "If slow,", nor one the main
  clause concedes: "tenants may still keep pets"); or the window says "may only <the claim's
  verb>" and the claim's words are followed by what the permission waits on ("if", "once", "with
  the landlord's consent");
- none says "otherwise" (a default: "unless otherwise stated") or gives a free choice ("if they
  wish", "as long as they like", "unless they prefer"); a verb of finding out before "if" makes it
  "whether" ("will decide if ..."); an opening condition or another clause that says it plainly
  counts only with the claim's polarity. "excluding" qualifies a figure's basis ("£20, excluding
  VAT"; "25 days, excluding bank holidays"), not a permission, and is not read;
- or "only" (or "solely", "exclusively") narrows one of the claim's groups with words the claim
  does not say ("Only full-time employees are eligible", "available only to new customers"):
  `stages.narrowing`, where what it reads and why is told.

Usage::

    window = Parsed.of("Tenants may sublet the flat only with consent.")
    [dropped] = dropped_conditions(Parsed.of("Tenants may sublet the flat."), window, segment=(0, 46))
    dropped.condition    # "only with consent"
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from workers.stages.align import Parsed
from workers.stages.clauses import negated
from workers.stages.exceptions import affirmed_read
from workers.stages.narrowing import names_other_part, narrowed_group
from workers.stages.slots import terms_match, values_match

__all__ = ["DroppedCondition", "denied_condition", "dropped_conditions"]

_NUMBER = r"(?:[\d.]|(?:one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+fraction)\b)"
_PREPOSITIONS = (
    rf"if|when|where|with|after|before|for|in|on|by(?!\s+{_NUMBER})|under|over|from|at|during|within|once"
    r"|until|upon|through|via|between|above|below|aged"
)
# What a permission waits on: "with the landlord's consent", "subject to a 1% fee".
_GATE = (
    r"approval|consent|conditions?|terms|availability|appeal|ratification|clearance|review|confirmation"
    r"|agreement|authori[sz]ation|permission|verification|a\s+permit|fees?|charges?|penalt(?:y|ies)|limits?"
    r"|exceptions?|restrictions?|eligibility|prescription|referral|licen[cs]e"
)
# Conditions in so many words, as they follow the claim's.
_MARK = (
    rf"only\s+(?:{_PREPOSITIONS})|but\s+not\s+if|unless|provided\s+that|providing\s+that"
    r"|provided\s+(?=(?:the|a|an|it|they|he|she|you|we|its|their|his|her|all|both|no|any)\b)"
    r"|so\s+long\s+as|as\s+long\s+as(?!\s+(?:(?:the|a|an)\s+\w+est|possible|necessary|needed|required|ever)\b)"
    r"|on\s+(?:the\s+)?condition\s+that|except(?:ing)?|barring|save\s+(?:where|when|if)"
    rf"|with\s+the\s+exception\s+of|subject\s+to\s+(?=(?:[\w%'’.-]+\s+){{0,3}}?(?:{_GATE})\b)"
    r"|conditional\s+(?:on|upon)|contingent\s+(?:on|upon)|in\s+the\s+event\s+(?:that|of)"
    # plain "if" before a subject or a state only: "if any", "if only slightly" are none
    r"|if\s+(?=(?:the|a|an|it|they|he|she|you|we|its|their|his|her|this|these|those|there|one|both|either"
    r"|needed|necessary|required|applicable|appropriate|requested|approved|prescribed|eligible)\b"
    r"|(?-i:[A-Z])\w)"
)
# Right after the claim's words (a comma between only before "only" or a condition in so many words):
# any word between is another subject's ("... on buses but trams only after 9.30 am").
_AFTER = re.compile(rf"\s*,?\s+(?:but\s+(?=only\b))?(?P<cond>(?:{_MARK})\b[^;:]*)", re.IGNORECASE)
# "may only sublet the flat with the landlord's consent": what the restriction waits on.
_AFTER_ONLY = re.compile(
    rf"\s+(?P<cond>(?:if|unless|when|once|after|upon|provided|with\s+(?:[\w'’]+\s+){{0,3}}?(?:{_GATE}))\b[^;:]*)",
    re.IGNORECASE,
)
# After a comma, "if" is a concession or an aside ("sensible, if a little late"; "within 48 hours,
# if needed by phone"), and "only" a degree ("ahead, only by two points") but before these.
_COMMA_ONLY = re.compile(r"only\s+(?:if|with|when|where|after|under|upon|once)\b", re.I)
_MODALS = r"may|can|could|must|shall|should|will|would"
_MODAL = rf"\b(?:{_MODALS})\s+"
# A condition that opens the clause; not a hedge ("If anything,"), nor an adjective alone ("If slow,").
_OPENING = re.compile(
    r"\s*(?!if\s+(?:anything|so|not|only|ever|any|nothing|you\s+ask|you\s+are\s+wondering)\b|if\s+\w+,)"
    r"(?P<cond>(?:only\s+)?(?:if|unless|provided\s+that|providing\s+that|except\s+(?:where|when|if)"
    rf"|subject\s+to\s+(?:[\w%'’.-]+\s+){{0,3}}?(?:{_GATE})|on\s+(?:the\s+)?condition\s+that|as\s+long\s+as"
    r"|so\s+long\s+as|in\s+the\s+event\s+(?:that|of)|only\s+with)\b[^,;:]*),\s*",
    re.IGNORECASE,
)
# A permission, duty, eligibility or standing state; "is"/"are" not in progress ("is investigating";
# "is binding", "is pending" are states).
_STANDING = re.compile(
    r"\b(?:may|can|cannot|could|must|shall|should|will|would|remains?|covers?|applies|apply|allows?"
    r"|permits?|requires?|entitles?|includes?|qualif(?:y|ies)|accrues?)\b|\b(?:is|are)\b"
    r"(?!\s+(?!(?:binding|outstanding|pending|ongoing|existing|remaining|missing|willing)\b)\w+ing\b)",
    re.IGNORECASE,
)
_PAST = re.compile(r"\b(?:was|were|had|did|been)\b", re.IGNORECASE)
# The claim's own condition or hedge: compared with the window's, it is the model's to read.
_OWN = re.compile(
    rf"\b(?:{_MARK}|only|if|even|whether|most|nearly|almost|many|some|several|few|generally|usually|often"
    rf"|typically|mostly)\b",
    re.IGNORECASE,
)
# A verb of finding out makes "if" "whether": "will decide if the merger proceeds".
_WHETHER = re.compile(
    r"\b(?:decides?|determines?|assess(?:es)?|asks?|knows?|sees?|establish(?:es)?|learns?|considers?"
    r"|investigates?|examines?|clarif(?:y|ies)|confirms?|wonders?|shows?|find\s+out|finds\s+out)\s*\Z",
    re.IGNORECASE,
)
# A free choice ("if they wish", "as long as the guests like") is no condition on the claim.
_FREE = re.compile(
    r"\A(?:if|unless|as\s+long\s+as|so\s+long\s+as|whenever)\s+(?:the\s+)?\w+(?:['’]d|\s+would|\s+so|\s+really)?"
    r"\s+(?:wish|wishes|want|wants|like|likes|choose|chooses|prefer|prefers|feel\s+like|feels\s+like|opt|opts)\b",
    re.IGNORECASE,
)
# An opening condition the main clause concedes: "If the landlord objects, tenants may still keep pets".
_CONCEDED = re.compile(r"\b(?:still|nevertheless|nonetheless|anyway|regardless|even\s+so)\b", re.IGNORECASE)
# Where a condition's text ends: a clause joined by a conjunction is not part of it.
_COND_END = re.compile(r",\s+(?:and|but|or|while|whereas|so|as|which|who)\b|,\s*\Z")
# A permission said in other words: "are allowed to sublet" for "may sublet".
_PERMISSION_STEMS = frozenset({"allow", "permitt", "permit", "able"})
_PERMISSION = re.compile(r"\b(?:may|can|allowed|permitted|able)\b", re.IGNORECASE)
# The claim's verb after its modal or permission words: "may sublet", "are allowed to sublet".
_CLAIM_VERB = re.compile(rf"\b(?:{_MODALS}|(?:allowed|permitted|able)\s+to)\s+(\w+)", re.IGNORECASE)


@dataclass(frozen=True)
class DroppedCondition:
    """The window's condition (`start`:`end` in the window) on what the claim states plainly."""

    start: int
    end: int
    condition: str
    other_part: bool = False  # the claim's group is the other part of the one "only" narrows


def dropped_conditions(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[DroppedCondition]:
    """The condition the window's clause `segment` puts on everything the claim says, when the claim
    says it without one and no other clause of the window says it plainly.

    >>> [d.condition for d in dropped_conditions(Parsed.of("The deposit is refundable."),
    ...     Parsed.of("The deposit is refundable unless the flat is damaged."), segment=(0, 53))]
    ['unless the flat is damaged']
    """
    if not _reads(claim):
        return []
    found = _condition(claim, ev, segment)
    if found is None or any(_plain(claim, ev, other) for other in ev.segments if other != segment):
        return []
    return [found]


def denied_condition(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> DroppedCondition | None:
    """The condition or narrowing of the window's clause `segment` that the claim without its "not"
    would drop: "Tenants may not sublet" against "... may sublet only with consent", "Part-time
    employees are not eligible" against "Only full-time employees are eligible". Removing the "not"
    would leave a claim as wrong as before, or make a right one wrong. `other_part` is set where the
    claim's group is the other part of the window's (the claim denied is then what the window says).

    >>> denied_condition(Parsed.of("Tenants may not sublet."),
    ...     Parsed.of("Tenants may sublet only with consent."), segment=(0, 37)).condition
    'only with consent'
    """
    read = affirmed_read(claim.text)
    if read is None:
        return None
    found = dropped_conditions(read, ev, segment=segment)
    other = bool(found) and names_other_part(read, ev, segment=segment)
    return replace(found[0], other_part=other) if found else None


def _reads(claim: Parsed) -> bool:
    """Whether the claim states a standing permission, duty or state plainly, in the present."""
    text = claim.text
    return (
        bool(claim.terms)
        and _STANDING.search(text) is not None
        and not _PAST.search(text)
        and not _OWN.search(text)
    )


def _condition(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> DroppedCondition | None:
    """The condition that opens the clause `segment`, follows the claim's words in it, or narrows
    one of them with "only"."""
    return _opening(claim, ev, segment) or _trailing(claim, ev, segment) or _narrowed(claim, ev, segment)


def _narrowed(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> DroppedCondition | None:
    """A group of the claim's that the window's clause narrows with "only" (`stages.narrowing`)."""
    found = narrowed_group(claim, ev, segment=segment)
    return None if found is None else _found(ev, found[0], ev.text[found[0] : found[1]])


def _opening(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> DroppedCondition | None:
    """A condition that opens the clause whose main part restates the claim: "If X, tenants may ..."."""
    m = _OPENING.match(ev.text, segment[0], segment[1])
    if m is None:
        return None
    colon = ev.text.find(":", m.end(), segment[1])  # "If X, Y: Z" says Z plainly
    main = (m.end(), segment[1] if colon < 0 else colon)
    end = _claim_end(claim, ev, main)
    if end is None or _CONCEDED.search(ev.text, *main) or _negated_otherwise(claim, ev, (main[0], end)):
        return None
    return _kept(ev, m.start("cond"), m.group("cond"))


def _trailing(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> DroppedCondition | None:
    """A condition right after the window's words for the claim's (or after "may only <verb> ...")."""
    end = _claim_end(claim, ev, segment)
    if end is None or _negated_otherwise(claim, ev, (segment[0], end)):
        return None
    return _after_claim(claim, ev, segment, end)


def _after_claim(claim: Parsed, ev: Parsed, segment: tuple[int, int], end: int) -> DroppedCondition | None:
    """The condition after `end`, where the window's clause `segment` has said the claim's words."""
    if _WHETHER.search(ev.text, segment[0], end):
        return None
    found = _following(ev, end, segment[1], _AFTER)
    if found is None and _only_before_verb(claim, ev, segment):
        found = _following(ev, end, segment[1], _AFTER_ONLY)
    return found


def _plain(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> bool:
    """Whether the window's clause `segment` restates the claim, with its polarity, and no condition."""
    end = _claim_end(claim, ev, segment)
    if end is None or _negated_otherwise(claim, ev, (segment[0], end)):
        return False
    return (
        _opening(claim, ev, segment) is None
        and _after_claim(claim, ev, segment, end) is None
        and _narrowed(claim, ev, segment) is None
    )


def _following(ev: Parsed, end: int, stop: int, pattern: re.Pattern[str]) -> DroppedCondition | None:
    """The condition `pattern` finds right after `end`; after a comma, never "if" (a concession or an
    aside) nor "only" as a degree."""
    m = pattern.match(ev.text, end, stop)
    if m is None:
        return None
    cond = m.group("cond")
    if "," in ev.text[end : m.start("cond")] and (cond.lower().startswith("if") or _degree(cond)):
        return None
    return _kept(ev, m.start("cond"), cond)


def _kept(ev: Parsed, start: int, said: str) -> DroppedCondition | None:
    """The condition, unless it is a free choice ("if they wish") or a default ("unless otherwise
    stated": the claim states the default)."""
    if _FREE.match(said) or "otherwise" in said.lower():
        return None
    return _found(ev, start, said)


def _degree(cond: str) -> bool:
    """Whether "only" after a comma tells a degree or a place, not a condition."""
    return cond.lower().startswith("only") and not _COMMA_ONLY.match(cond)


def _only_before_verb(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> bool:
    """Whether the window says "may only" right before the claim's verb ("may sublet", "are allowed
    to sublet")."""
    said = _CLAIM_VERB.search(claim.text)
    if said is None:
        return False
    pattern = rf"{_MODAL}only\s+{re.escape(said.group(1))}\b"
    return re.search(pattern, ev.text[segment[0] : segment[1]], re.IGNORECASE) is not None


def _claim_end(claim: Parsed, ev: Parsed, span: tuple[int, int]) -> int | None:
    """Where the window's `span` has said every one of the claim's words and values (the end of the
    last one, each found first), or None where it does not say them all."""
    terms = [t for t in ev.terms if span[0] <= t.start < span[1]]
    values = [v for v in ev.values if span[0] <= v.start < span[1]]
    ends: list[int] = []
    unsaid: list[str] = []  # permission words the window may say as "may" or "can"
    for word in (t.stem for t in claim.terms):
        term = next((t for t in terms if t.stem == word or terms_match(word, t.stem)), None)
        if term is None and word not in _PERMISSION_STEMS:
            return None
        ends.extend([term.end] if term else [])
        unsaid.extend([] if term else [word])
    for value in claim.values:
        slot = next((v for v in values if values_match(value, v)), None)
        if slot is None:
            return None
        ends.append(slot.end)
    if not ends or (unsaid and not _PERMISSION.search(ev.text, span[0], max(ends))):
        return None
    return max(ends)


def _negated_otherwise(claim: Parsed, ev: Parsed, span: tuple[int, int]) -> bool:
    """Whether the window's words for the claim's deny what the claim states, or the other way round:
    "The deposit is not refundable unless ..." is no plain "is refundable" with a condition dropped."""
    return negated(claim, (0, len(claim.text))) != negated(ev, span)


def _found(ev: Parsed, start: int, said: str) -> DroppedCondition:
    """The condition from `start`, cut where a joined clause begins, without its closing stop."""
    cut = _COND_END.search(said)
    text = (said[: cut.start()] if cut else said).rstrip(" .,")
    return DroppedCondition(start, start + len(text), text)

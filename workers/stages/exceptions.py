"""Exceptions: "The policy covers theft" against "... covers all losses excluding theft". Pure.

A claim that states of one item what its document states of everything else shares every word of
the document's sentence, so tier-1 similarity is high and the cross-encoder reads support: "The
warranty covers batteries" against "The warranty covers all parts except batteries and cables",
"Contractors are eligible for the scheme" against "All staff apart from contractors are eligible
for the scheme", "The policy covers theft" against "... covers accidental damage and fire but
excludes theft" were all VERIFIED. For an insurance, employment or medical answer the exception is
the point. The checker flags such a claim (`backends.shapes.exception_conflicts`), never fixes it.

Read, in one clause of the window: an exception ("except (for)", "excepting", "excluding", "other
than", "apart from", "aside from", "with the exception of", "but not", "excludes") whose list holds
the claim's item as a whole item (every word of it, and its bound words, the claim's: "the battery
charger" is no "battery", "infants under six months" no "infants over six months"), one word or
name of it said nowhere else in the sentence; the rest of the claim said in the rest of the part of
the clause, outside the group the item is taken from ("Ireland is an EU country" says only the
group of "All EU countries except Ireland are in Schengen"), with the claim's polarity and in no
past the claim does not tell. Or, in any clause, "<item> is/are excluded" (from nothing, or from
what the claim says), for a claim of cover, inclusion or eligibility (`_excluded_over` in the
checker lets it outrank another window's support that does not name the item).

Not read, each from a false flag of four review rounds (the first flagged 35 of 170 correct answers,
the second 22 of 347, the third and fourth none of 361): a condition, a time, a clause or a hedge
("except in an emergency", "except when", "apart from being cheap", "but not always"); "besides"
("Apart from Paris, the tour also visits Lyon": "apart from", "aside from" and "other than" only
from a group said with "all", "every" ..., and no marker in a clause saying "also" or "too"); a
figure's basis ("£999 excluding VAT"); a list run past "but", ", and it", ", including" or a comma
no list item follows, or cut at the item's own participle ("except bonds issued before 2000": a verb
ends the list only where the exception is in the subject); a clause right after the item that says a
word of the claim (", who travel free"); another sentence naming the item with a word of the claim's
predicate ("Theft is covered under a rider."); a clause that denies or bans ("No staff ... except
managers", "Parking is prohibited except for residents": the exception is then the case that holds);
an exclusion put back ("... excluded from the basic plan but included in the premium plan"); a claim
with its own exception, limit, hedge or negation; a sentence that reports, asks or plans; "apart"
that sets apart; a window whose other clause says the claim plainly. A claim that denies what the
window excepts ("The store does not accept American Express") is the window's statement, not a "not"
to remove (`denied_exception`).

Usage::

    window = Parsed.of("The policy covers all losses excluding theft and flood.")
    excepted(Parsed.of("The policy covers theft."), window, segment=(0, 55))
    # (29, 54): "excluding theft and flood"
"""

from __future__ import annotations

import itertools
import re
from functools import lru_cache

from workers.stages._text import SYMBOL_TOKEN, affirmed, is_verb, sentence_around, wordset
from workers.stages.align import Parsed, covered
from workers.stages.clauses import stems_between
from workers.stages.slot_types import Slot
from workers.stages.slots import terms_match, values_match
from workers.stages.terms import content_terms

__all__ = ["affirmed_read", "denied_exception", "excepted", "qualified"]

_MARKER = re.compile(
    r"(?<![\w'’-])(?:except(?:ing)?(?:\s+for)?|excluding|other\s+than|apart\s+from|aside\s+from"
    r"|with\s+the\s+exception\s+of|but\s+not|excludes?)(?![\w'’-])",
    re.IGNORECASE,
)
# What follows an exception that is a condition, a time, a clause or a hedge, not an item: "except in
# an emergency", "except when ...", "except that ...", "apart from being cheap", "but not always".
_NOT_ITEM = wordset(
    """in on at by with under after before during within through until once while when where if as that
    to because since unless whether what how which who whom this these those so than it they he she we
    you i there here being having always necessarily only quite entirely exclusively yet least just much
    fully completely wholly everywhere anywhere all every each both either"""
)
# Where an exception's list ends for certain: punctuation, "but", a joined or relative clause, ", including".
_LIST_STOP = re.compile(
    r"[;:.!?()\[\]]|\bbut\b|,\s*(?=(?:and|or|including|which|who|whom|whose|where|when|while|so|although"
    r"|though|as|unless|if|because|since|whereas|yet|then|provided|(?:in|for|on|at|by|from|with|during)"
    r"\s+which)\b)|\s(?=and\s+(?:it|they|he|she|we|its|their|to|in|for|on|at|with|also|is|are|was|were"
    r"|has|have)\b)",
    re.IGNORECASE,
)
# A comma inside a list: a short next item, then another comma or "and"/"or" ("batteries, cables and
# chargers"); any other comma ends the list.
_LIST_COMMA = re.compile(r",\s*[\w'’-]+(?:\s+[\w'’-]+){0,2}\s*(?:,|\s(?:and|or)\s)", re.IGNORECASE)
_VERBS = wordset(
    """is are was were be been being am may might can could must shall should will would do does did has have
    had remain remains qualify qualifies receive receives get gets need needs cover covers apply applies"""
)
# A clause that denies or forbids: the exception is then the case that holds ("No staff are eligible
# except managers", "Parking is prohibited except for residents").
_DENIES = re.compile(
    r"\b(?:not|never|no|none|nothing|nobody|no\s+one|neither|nor|without|cannot|nowhere|prohibit\w*"
    r"|forbid\w*|bann?(?:ed|s)?|barred|illegal|disallowed|closed|restricted|ineligible)\b|n['’]t\b",
    re.IGNORECASE,
)
# A claim with its own exception, limit, hedge or negation: compared with the window's, it is the model's.
_OWN = re.compile(
    r"\b(?:except(?:ing)?|excluding|other\s+than|apart\s+from|aside\s+from|exclud\w*|only|solely"
    r"|some|most|many|several|few|certain|selected|partly|partially|generally|usually|typically|if|unless)\b",
    re.IGNORECASE,
)
# A sentence that tells what someone says, believes, plans or asks: no standing exception.
_FRAMED = re.compile(
    r"\b(?:says?|said|claims?\s+that|claimed|argues?|believes?|thinks?|suggests?|rumou?rs?|myths?|propos(?:ed"
    r"|es|als?)|plans?\s+to|planned|whether|if|would)\b|\?",
    re.IGNORECASE,
)
# "Water damage and theft are excluded", "Theft is excluded from cover": what the clause excludes.
_EXCLUDED = re.compile(
    r"\b(?:is|are)\s+(?:also\s+|expressly\s+|specifically\s+|explicitly\s+)?excluded\b", re.IGNORECASE
)
# What a claim an exclusion denies says: cover, inclusion, eligibility, payment.
_INCLUDES = re.compile(
    r"\b(?:cover(?:s|ed)?|includ(?:e|es|ed)|insur(?:e|es|ed)|eligible|qualif(?:y|ies|ied)|reimburs\w*"
    r"|refund\w*|entitled|accepted)\b",
    re.IGNORECASE,
)
_PAST = re.compile(r"\b(?:was|were|had|did|used\s+to|until|formerly|previously|originally)\b", re.IGNORECASE)
# "stands apart from its rivals", "set apart from", "far from": no exception.
_SETS_APART = re.compile(
    r"\b(?:stands?|stood|sets?|kept|keeps?|far|lives?|lived|grow|grew|moved?)\s+\Z", re.I
)
_JOINS = re.compile(r";|:|,\s*(?:but|while|whereas|although|though|yet|which|where|so)\b", re.IGNORECASE)
_RELATIVE_AFTER = re.compile(
    r"\s*,\s*(?:who|whom|whose|which|where|when|(?:in|for|on|at|by|from|with|during)\s+which)\b",
    re.IGNORECASE,
)
_QUANTIFIER = re.compile(
    r"\b(?:all|every|each|any|everyone|everybody|everything|anyone|anybody|anything|the\s+whole|the\s+entire)\b",
    re.IGNORECASE,
)
# "apart from", "aside from", "other than" also mean "besides": an exception only from a group said
# with "all", "every" ...; "also", "too", "as well" make any marker "besides".
_BESIDES = re.compile(r"(?:apart|aside)\s+from|other\s+than", re.IGNORECASE)
_ALSO = re.compile(r"\b(?:also|too|as\s+well|additionally|in\s+addition)\b", re.IGNORECASE)
_RELATIVES = wordset("who that which whose whom where")
# "over", "under" in an item: "infants under six months" is no item for "infants over six months".
_BOUND_WORDS = re.compile(
    r"\b(?:over|under|above|below|more|less|fewer|older|younger|least|most|up\s+to)\b", re.I
)
# After "is excluded": nothing, or what from ("from cover", "under this policy"), whose words the claim
# says; a clause that puts the item back ("... but included in the premium plan", "for the first 12
# months") is not read.
_EXCLUDED_TAIL = re.compile(r"(?:\s+(?:from|under)\s+(?P<what>[^,;.:!?]{1,40}?))?\s*(?:[.;!]|\Z)")
_COVER_WORDS = wordset(
    "cover coverage insurance policy plan scheme contract agreement warranty benefit benefits this the"
)
_BOUND_DENIAL = re.compile(
    r"\b(?:no|not)\s+(?:more|less|fewer|greater|higher|lower|older|younger)\s+than\b", re.I
)
_ITEMS = re.compile(r",|\b(?:and|or)\b", re.IGNORECASE)


def excepted(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> tuple[int, int] | None:
    """(start, end) in the window of the exception in its clause `segment` that names what the claim
    states, where the rest of that clause says the rest of the claim, or of an exclusion in any of its
    clauses ("Theft is excluded."); None where there is none."""
    if _OWN.search(claim.text) or _DENIES.search(claim.text):
        return None
    found = [] if _FRAMED.search(ev.text, *segment) else _MARKER.finditer(ev.text, *segment)
    # an exclusion is a sentence of its own ("Theft is excluded."), wherever the window says it
    spans = itertools.chain(
        (_exception(claim, ev, segment, m) for m in found),
        (_excluded(claim, ev, s) for s in ev.segments if not _FRAMED.search(ev.text, *s)),
    )
    return next((s for s in spans if s is not None), None)


def _exception(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], marker: re.Match[str]
) -> tuple[int, int] | None:
    """The exception `marker` opens, where its list holds the claim's item and the rest of its part of
    the clause says the rest of the claim."""
    before = ev.text[segment[0] : marker.start()]
    if marker.group().lower().startswith(("apart", "aside")) and _SETS_APART.search(before):
        return None
    if _ALSO.search(ev.text, *segment):  # "Apart from Paris, the tour also visits Lyon": besides
        return None
    opens = not before.strip(" \"'“”‘’([")
    # a verb before the exception: it excepts from the object, and a verb in its list is the item's
    # own ("except bonds issued before 2000"); none: from the subject, whose verb ends the list
    said = SYMBOL_TOKEN.findall(before)
    subject = opens or not any(said[i].lower() in _VERBS or is_verb(said, i) for i in range(len(said)))
    end = _list_end(ev, marker.end(), segment[1], opens=opens, subject=subject)
    # "£999 excluding VAT" is a figure's basis; "apart from senior staff, who get 30 days" may say
    # what the claim says of the item
    if (
        end is None
        or _based(ev, marker.start())
        or _relative_says(claim, ev, (marker.end(), end), segment[1])
    ):
        return None
    rest = (
        (_part_start(ev, segment, marker.start()), marker.start()),
        (end, _part_end(ev, end, segment[1], opens)),
    )
    if any(_DENIES.search(ev.text, *span) for span in rest):
        return None
    if not _PAST.search(claim.text) and any(_PAST.search(ev.text, *span) for span in rest):
        return None
    group = _quantified(ev, rest, opens=opens)
    if group is None and _BESIDES.fullmatch(marker.group()):
        return (
            None  # "Other than software, the company sells hardware": besides, with no "all" to except from
        )
    if not _splits(claim, ev, (marker.end(), end), _outside(rest, group)):
        return None
    others = [(segment[0], rest[0][0]), (rest[1][1], segment[1])]
    return None if _said_plainly(claim, ev, segment, others) else (marker.start(), end)


def _quantified(ev: Parsed, rest: tuple[tuple[int, int], ...], *, opens: bool) -> tuple[int, int] | None:
    """The group the exception takes its item from: "all EU countries", "Every member of the band",
    "Everyone who works for the company" (up to its verb, or the whole part past a relative word):
    the nearest one before the exception, or the first after an exception that opens the clause."""
    lo, hi = rest[1] if opens else rest[0]
    found = list(_QUANTIFIER.finditer(ev.text, lo, hi))
    if not found:
        return None
    start = found[0 if opens else -1].start()
    words = list(SYMBOL_TOKEN.finditer(ev.text, start, hi))
    said = [w.group() for w in words]
    for i in range(1, len(said)):
        if said[i].lower() in _RELATIVES:
            return (start, hi)
        if _verb(said, i):
            return (start, words[i].start())
    return (start, hi)


def _outside(rest: tuple[tuple[int, int], ...], group: tuple[int, int] | None) -> tuple[tuple[int, int], ...]:
    """The spans of `rest` but `group`: where the claim's predicate must be said ("Ireland is an EU
    country" says only the group of "All EU countries except Ireland are in Schengen")."""
    if group is None:
        return rest
    cut = [(a, min(b, group[0])) for a, b in rest] + [(max(a, group[1]), b) for a, b in rest]
    return tuple((a, b) for a, b in cut if b > a)


def denied_exception(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> bool:
    """Whether the claim denies of an item just what the window excepts it from: "The store does
    not accept American Express" against "... accepts all major cards except American Express" is
    the window's own statement, not a "not" to remove. Read as `excepted` reads the claim said
    without its denial."""
    said = affirmed_read(claim.text)
    return (
        said is not None and not _DENIES.search(said.text) and excepted(said, ev, segment=segment) is not None
    )


@lru_cache(maxsize=256)
def affirmed_read(text: str) -> Parsed | None:
    """The claim read without its "not" (`_text.affirmed`), once per claim: the checker asks for it
    for every window."""
    said = affirmed(text)
    return None if said is None else Parsed.of(said)


def qualified(text: str) -> bool:
    """Whether `text` excepts or denies ("except", "excluding", "not", "no", "prohibited" ...): a bound
    inside it may be the case that holds ("recommended for everyone except children under 5")."""
    text = _BOUND_DENIAL.sub(" ", text)  # "no more than £151" is a bound, not a denial
    return _MARKER.search(text) is not None or _DENIES.search(text) is not None


def _relative_says(claim: Parsed, ev: Parsed, listed: tuple[int, int], stop: int) -> bool:
    """Whether a clause right after the list tells what holds of the item itself (", who travel free",
    ", in which he was injured") in a word of the claim's: the claim may say just that."""
    relative = _RELATIVE_AFTER.match(ev.text, listed[1])
    if relative is None:
        return False
    said = stems_between(ev, relative.end(), _part_end(ev, relative.end(), stop, False), values=True)
    listed_words = stems_between(ev, *listed, values=True)
    return any(covered([t.stem], said) and not covered([t.stem], listed_words) for t in claim.terms)


def _based(ev: Parsed, at: int) -> bool:
    """Whether a figure stands right before `at` ("£999 excluding VAT", "25 days, excluding ...")."""
    return any(v.end <= at and not ev.text[v.end : at].strip(" ,") for v in ev.values)


def _excluded(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> tuple[int, int] | None:
    """The subject of "<list> is/are excluded" in the clause `segment`, where it holds the claim's item
    and the rest of the window says the rest of a claim of cover, inclusion or eligibility ("The
    policy covers theft" against "The policy covers fire. Theft is excluded from cover.")."""
    m = _EXCLUDED.search(ev.text, *segment)
    if m is None or not _INCLUDES.search(claim.text):
        return None
    tail = _EXCLUDED_TAIL.match(ev.text, m.end(), segment[1] + 1)
    if tail is None or not _from_said(claim, tail.group("what") or ""):
        return None  # "excluded from the basic plan but included in the premium plan"
    joins = list(_JOINS.finditer(ev.text, segment[0], m.start()))
    subject = (joins[-1].end() if joins else segment[0], m.start())
    if _DENIES.search(ev.text, *subject):  # "Nothing is excluded", "No claims are excluded"
        return None
    rest = ((0, subject[0]), (subject[1], len(ev.text)))
    if not _splits(claim, ev, subject, rest):
        return None
    return None if _said_plainly(claim, ev, segment, []) else (subject[0], m.end())


def _from_said(claim: Parsed, what: str) -> bool:
    """Whether what the exclusion is from is cover in general, or what the claim says ("excluded
    from the standard rate" is not from "the higher premium")."""
    words = [w for w in re.findall(r"[\w'’-]+", what.lower()) if w not in _COVER_WORDS]
    return (
        covered([t.stem for t in content_terms(" ".join(words))], [t.stem for t in claim.terms]) == 1.0
        or not words
    )


def _list_end(ev: Parsed, start: int, stop: int, *, opens: bool, subject: bool) -> int | None:
    """Where the exception's list that begins at `start` ends: before punctuation, "but", a joined
    clause, a comma that is no list's, or, in a `subject`, a verb ("All staff apart from contractors
    are eligible"); at the first comma where the exception opens the clause ("Apart from
    contractors, all staff ..."). None where its first word is no item's (a condition, a time, a
    clause, a hedge)."""
    limit = _stop(ev.text, start, stop, opens=opens)
    words = list(itertools.islice(SYMBOL_TOKEN.finditer(ev.text, start, limit), 12))
    if words and words[0].group().lower() in ("the", "a", "an", "any"):
        words = words[1:]
    if not words or words[0].group().lower() in _NOT_ITEM:
        return None
    said = [w.group() for w in words]
    verb = next((i for i in range(1, len(said)) if _verb(said, i)), None) if subject else None
    return words[verb - 1].end() if verb else words[-1].end()


def _stop(text: str, start: int, stop: int, *, opens: bool) -> int:
    """Where a list from `start` must end: the first stop, or a comma that no list item follows."""
    hard = _LIST_STOP.search(text, start, stop)
    limit = hard.start() if hard else stop
    for comma in re.finditer(",", text[start:limit]):
        at = start + comma.start()
        if opens or not _LIST_COMMA.match(text, at, limit):
            return at
    return limit


def _verb(said: list[str], i: int) -> bool:
    """Whether the list's word `i` is the clause's verb: an auxiliary or one of a few verbs, or a past
    form (a final "-s" is as often a plural item: "batteries and cables")."""
    low = said[i].lower()
    return low in _VERBS or (is_verb(said, i) and not low.endswith("s"))


def _part_start(ev: Parsed, segment: tuple[int, int], at: int) -> int:
    joins = list(_JOINS.finditer(ev.text, segment[0], at))
    return joins[-1].end() if joins else segment[0]


def _part_end(ev: Parsed, end: int, stop: int, opens: bool) -> int:
    """Where the part after the list ends: at once where a clause of its own follows it (", who travel
    free"); past the comma where the exception opened the clause."""
    start = end + 1 if opens and ev.text.startswith(",", end) else end
    found = _LIST_STOP.search(ev.text, start, stop) or _JOINS.search(ev.text, start, stop)
    return found.start() if found else stop


def _splits(claim: Parsed, ev: Parsed, listed: tuple[int, int], rest: tuple[tuple[int, int], ...]) -> bool:
    """Whether the claim's words and values fall into its item (said in the list's `listed` span as a
    whole item, at least one of them nowhere else in its sentence: "Refunds are available on sale
    items" against "... on all items except sale items"; "; Smith voted against it" says what holds
    of the item) and the rest (each said in `rest`), with at least one of each."""
    lo, hi = sentence_around(ev.text, *listed)
    inside = stems_between(ev, *listed, values=True)
    elsewhere = stems_between(ev, lo, listed[0], values=True) + stems_between(ev, listed[1], hi, values=True)
    outside = [s for span in rest for s in stems_between(ev, *span, values=True)]
    stems = [t.stem for t in claim.terms]
    listed_words = [s for s in stems if covered([s], inside)]
    distinct = [s for s in listed_words if not covered([s], elsewhere)]
    others = [s for s in stems if s not in listed_words]
    values = [v for v in ev.values if any(a <= v.start < b for a, b in rest)]
    in_list = [v for v in ev.values if listed[0] <= v.start < listed[1]]
    if not all(_said(c, values) or _said(c, in_list) for c in claim.values):
        return False
    unlisted = [v for v in ev.values if lo <= v.start < hi and not listed[0] <= v.start < listed[1]]
    named = [c for c in claim.values if _said(c, in_list) and not _said(c, unlisted)]
    if not (distinct or named) or not others or covered(others, outside) < 1.0:
        return False
    unique = [w for w in distinct if not covered([w], outside)]
    return _whole_item(ev, listed, stems, claim.text) and not _own_rule(ev, (lo, hi), unique, others)


def _own_rule(ev: Parsed, sentence: tuple[int, int], item: list[str], others: list[str]) -> bool:
    """Whether another sentence names the item with a word of the claim's predicate: its own rule,
    which may be the claim's ("... except theft. Theft is covered under a rider.")."""
    for segment in ev.segments:
        if sentence[0] <= segment[0] < sentence[1]:
            continue
        said = stems_between(ev, *segment, values=True)
        if any(covered([w], said) for w in item) and any(covered([o], said) for o in others):
            return True
    return False


def _said(slot: Slot, values: list[Slot]) -> bool:
    return any(values_match(slot, v) for v in values)


def _whole_item(ev: Parsed, listed: tuple[int, int], stems: list[str], claim: str) -> bool:
    """Whether each item of the list that holds a word of the claim's holds no word the claim does not
    say ("the battery charger" is no "battery"; "two weeks in winter" no "winter"), nor a bound it
    does not ("infants under six months" is no item for "infants over six months")."""
    text = ev.text[listed[0] : listed[1]]
    for item in _ITEMS.split(text):
        words = [t.stem for t in content_terms(item)]
        if not any(covered([w], stems) for w in words):
            continue
        bounds = {b.lower() for b in _BOUND_WORDS.findall(item)}
        if covered(words, stems) < 1.0 or not bounds <= {b.lower() for b in _BOUND_WORDS.findall(claim)}:
            return False
    return True


def _said_plainly(claim: Parsed, ev: Parsed, segment: tuple[int, int], parts: list[tuple[int, int]]) -> bool:
    """Whether another clause of the window, or another part of the clause `segment` (", but
    batteries are covered by the retailer"), says every word of the claim with no exception and no
    denial: the claim is then stated itself."""
    spans = [s for s in ev.segments if s != segment] + [p for p in parts if p[1] > p[0]]
    return any(_plain(claim, ev, span) for span in spans)


def _plain(claim: Parsed, ev: Parsed, span: tuple[int, int]) -> bool:
    if _MARKER.search(ev.text, *span) or _DENIES.search(ev.text, *span) or _EXCLUDED.search(ev.text, *span):
        return False
    said = stems_between(ev, *span, values=True)
    return all(any(terms_match(t.stem, s) for s in said) for t in claim.terms)

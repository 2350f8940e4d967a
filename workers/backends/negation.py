"""Negations and quantifiers: when a "not" or an "all" makes a claim and a window disagree, and the fix.
Pure.

A claim and a window sentence that say the same words, one with "not" (never, n't, no) before them,
disagree; dropping the claim's "not" is then the fix, when the window speaks of the claim's subject.
A false fix says the opposite of a true claim ("Children under 2 should never be given aspirin"
against "Aspirin should be given to adults" became "should be given aspirin"), so the window must
restate what the negation denies (`_restated`: the first words it governs, in order, a word of its
clause before it, every figure and date of the claim). A negation the window does not restate is a
doubt: the rules abstain, neither support nor contradiction (`shapes.Conflict.doubt`).

A quantifier is read in the same scope (`quantifier_conflicts`): "Most patients recovered" against
"All patients recovered" is not found as stated; "All patients recovered" against "Most patients
recovered" is fixed with the window's, where the noun's number allows it.

Usage::

    [conflict] = polarity_conflicts(claim, ev, segment, shared, values_found=True)  # `align.Parsed`
    conflict.fixes    # (SlotFix(wrong="not ", right=""),) when the window restates the rest
"""

from __future__ import annotations

import re

from workers.backends.shapes import Conflict
from workers.messages import SlotFix
from workers.stages._text import FEW_WORDS, has_verb, same_case, words
from workers.stages.align import Parsed, covered
from workers.stages.modality import said_alike
from workers.stages.render import render_like
from workers.stages.slots import Slot, SlotKind, polarity, stem, terms_match

__all__ = [
    "negation_differs",
    "negation_fix",
    "polarity_conflicts",
    "quantifier_conflicts",
    "scoped",
    "stems",
]

# Quantifiers by strength; "every" and "each" take a singular noun.
_GRADE = {"existential": 0, "majority": 1, "universal": 2}
_GRADED = frozenset(_GRADE)
_ADVERBS = frozenset(
    {
        "always",
        "usually",
        "mostly",
        "sometimes",
        "typically",
        "generally",
        "often",
        "frequently",
        "commonly",
    }
)
_ONE = frozenset({"every", "each"})
# "Anyone with kidney disease" against "Some people with kidney disease": a pronoun is no determiner,
# so neither is written over the other ("Some with kidney disease").
_PRONOUNS = frozenset({"anyone", "anybody", "everyone", "everybody"})
# Quantifiers an answer hedges with in other words: weaker than the window's is no flag ("generally"
# for "always", "often" for "usually").
_HEDGES = frozenset({"many", "often", "frequently", "commonly", "typically", "generally"})
_CONTRACTIONS = {"can't": "can", "won't": "will", "shan't": "shall"}
# The first "any" word after a negation, before any punctuation; "any longer", "any more" and "anymore"
# speak of time or amount, and "any faster" compares: no "some" says what their positive does.
_NPI = re.compile(
    r"[^,;:.!?()]{0,60}?\b(?:(?P<idiom>anymore|any\s+(?:longer|more|further))"
    r"|(?P<any>any(?P<rest>one|body|thing|where)?))\b(?P<compared>\s+(?:better|worse|different|less|faster"
    r"|slower|larger|smaller|bigger|higher|lower|cheaper|easier|harder|safer|closer|sooner|later|greater)\b)?",
    re.IGNORECASE,
)
# Between a negation and its "any", a word that opens another clause, or another negation: the "any"
# is then not the one this negation licenses ("did not say whether any staff ...").
_CLAUSE_BREAK = re.compile(
    r"\b(?:and|but|or|nor|so|because|since|if|whether|that|which|who|whom|whose|where|when|while|as"
    r"|unlike|than|not|never|no)\b|n['’]t\b",
    re.IGNORECASE,
)
# How many content words after a negation it may govern.
_SCOPE = 3
# "not all", "not every", "does not work in all": true of some, so never the negation of "all".
_UNIVERSAL = re.compile(rf"{FEW_WORDS}\s+(?:all|every|everyone|everything|always|both|each)\b", re.IGNORECASE)
# Words that point back or frame a sentence, not its subject: "The first is not ...", "Additionally, ...".
_POINTERS = frozenset(
    stem(w)
    for w in ("first", "second", "third", "former", "latter", "other", "additionally", "also", "currently")
)
# Words a negation brings with it ("not ... any longer"): not what it denies.
_POLARITY_WORDS = frozenset(
    stem(w) for w in ("any", "anything", "anyone", "anybody", "anywhere", "ever", "either", "yet", "longer")
)


def polarity_conflicts(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], shared: set[str], *, values_found: bool
) -> list[Conflict]:
    """A "not" in one text and not the other, over the same statement: a conflict (with the claim's
    "not" dropped as its fix where the window names the claim's subject); a doubt where the other
    text does not restate what the negation denies, or `values_found` is false (a value of the claim
    the window does not state: "didn't raise rates in March" against "raised rates in June"), or the
    window's sentence has a "not" of its own, or says the claim's "not" in other words: a force
    ("mustn't contact" against "is prohibited from contacting", `stages.modality`), a bound ("never
    less than four weeks" against "a minimum of four weeks") or a failure ("If they don't" against
    "a landlord who fails to comply")."""
    whole = (0, len(claim.text))
    mine = scoped(claim, whole, shared, negations=True)
    theirs = scoped(ev, segment, shared, negations=True)
    if polarity(mine) == polarity(theirs):
        return []
    restated = all(_restated(claim, n, stems(ev, segment)) for n in mine) and all(
        _restated(ev, n, stems(claim, whole)) for n in theirs
    )
    if not (restated and values_found):
        said = (mine or theirs)[0].text
        return [Conflict(f"negation {said!r}: the other text does not say what it denies", 0.0, doubt=True)]
    if mine and _contrasting(claim.text, mine[0]):
        return [Conflict(f"negation {mine[0].text!r} sets one thing against another", 0.0, doubt=True)]
    if mine and (free := _free_of(claim, mine[0], ev)):
        return [Conflict(f"negation {mine[0].text!r}: the window says {free!r}", 0.0, doubt=True)]
    if mine and any(_own_not(ev, s, segment) for s in ev.slots):
        # the window's sentence denies something too ("Claimants with capital above £16,000 are not
        # eligible" for "you can't claim"): which words each "not" denies is more than words can tell
        return [Conflict(f"negation {mine[0].text!r}: the window's sentence denies too", 0.0, doubt=True)]
    if mine and said_alike(claim.text, mine[0].start, ev.text):
        # "mustn't contact" against "is prohibited from contacting": one force in other words
        return [Conflict(f"negation {mine[0].text!r}: the window says the same force", 0.0, doubt=True)]
    if mine and (_BOUND_AFTER.match(claim.text, mine[0].end) or _FAILING.search(ev.text, *segment)):
        # "never less than four weeks" is "a minimum of four weeks"; "If they don't" is "who fails to"
        return [
            Conflict(f"negation {mine[0].text!r} is a bound or a failure in other words", 0.0, doubt=True)
        ]
    if mine:
        # Dropping the "not" states the positive of the claim's subject: only when the window names it.
        named = _names_subject(claim, ev.text[segment[0] : segment[1]])
        fixes = negation_fix(claim.text, mine[0]) if len(mine) == 1 and named else ()
        return [Conflict(f"negation: claim says {mine[0].text!r}, evidence does not", 0.7, fixes)]
    if free := _free_of(ev, theirs[0], claim, segment):
        # "three penalty-free withdrawals" against "three withdrawals per year without penalty"
        return [Conflict(f"negation {theirs[0].text!r}: the claim says {free!r}", 0.0, doubt=True)]
    return [Conflict(f"negation: evidence says {theirs[0].text!r}, claim does not", 0.7)]


# "in Leipzig, not Stockholm, where ...", "(not the tenant)", "the landlord - not the tenant -": a
# "not" that sets one thing against another, with no verb of its own up to the next stop.
_CONTRAST = re.compile(r"(?:,|\(|\s[-–—])\s*\Z")
_UNTIL_STOP = re.compile(r"(?:(?!\s-\s)[^,;:.()–—])*")


def _contrasting(text: str, negation: Slot) -> bool:
    """Whether the claim's "not" contrasts two things ("in Leipzig, not Stockholm"), not denies its
    clause: dropping it would say both."""
    if negation.text.lower() != "not" or not _CONTRAST.search(text, 0, negation.start):
        return False
    rest = _UNTIL_STOP.match(text, negation.end)
    said = words(rest.group()) if rest is not None else []
    # one word is a contrast whatever it is: "charged, not waived,"
    return bool(said) and (len(said) == 1 or not has_verb(said))


# A clause of its own in the window's sentence ("refundable and does not expire"): its "not" is its own.
_OTHER_CLAUSE = re.compile(r"\b(?:and|but|while|whereas)\b|[;:]|,\s", re.IGNORECASE)


def _own_not(ev: Parsed, slot: Slot, segment: tuple[int, int]) -> bool:
    """A "not" of the window's sentence `segment` in its first clause: "Claimants with capital above
    £16,000 are not eligible", not "The fee is refundable and does not expire"."""
    lo, _ = segment
    inside = slot.kind is SlotKind.NEGATION and lo <= slot.start < segment[1]
    return inside and not _OTHER_CLAUSE.search(ev.text, lo, slot.start)


# A "not" that bounds a figure ("never less than four weeks", "not more than 10%": a minimum, a maximum),
# and a window that denies in other words ("a landlord who fails to comply", "once the donor lacks
# capacity", "is unable to work"): dropping the claim's "not" would say the opposite of both.
_BOUND_AFTER = re.compile(
    r"\s+(?:(?:less|more|fewer|greater|lower|higher|longer|shorter)\s+than|below|above|over|under|exceed)\b",
    re.IGNORECASE,
)
_FAILING = re.compile(
    r"\bfail(?:s|ed|ing)?\s+to\b|\bfailure\s+to\b|\black(?:s|ed|ing)?\b|\bunable\s+to\b", re.IGNORECASE
)

# "interest-free", "tax-free", "penalty-free": a word that denies its first part.
_FREE = re.compile(r"\b([A-Za-z]+)-free\b", re.IGNORECASE)
_FREE_SAYS = 0.5  # share of the claim's words the "X-free" sentence holds


def _free_of(
    denier: Parsed, negation: Slot, other: Parsed, span: tuple[int, int] | None = None
) -> str | None:
    """The other text's "X-free" where X is a word the `negation` of `denier` (in `span`, its whole
    text by default) governs, in a sentence that holds half the denier's other words: "You won't be
    charged interest on the first £250 of your overdraft" is what "The first £250 of your overdraft
    is interest-free" says, though the sentence before it says "We charge interest": no "not" to
    drop; nor is "three penalty-free withdrawals" denied by "three withdrawals without penalty".
    "Balance transfers are interest-free" says nothing of "The card does not charge interest on
    purchases"."""
    governed = _scope(denier, negation, span or (0, len(denier.text)))
    context = denier.context() if span is None else stems(denier, span)
    for m in _FREE.finditer(other.text):
        denied = any(terms_match(stem(m.group(1).lower()), g) for g in governed)
        if denied and covered(context, stems(other, other.segment_of(m.start()))) >= _FREE_SAYS:
            return m.group(0)
    return None


def _restated(read: Parsed, negation: Slot, other: list[str]) -> bool:
    """Whether the other text says what the negation denies: the two words it governs first, in
    order, any capitalised one of its next, and, where its clause says more before it, one of those
    words (whose statement it is).
    "Children under 2 should never be given aspirin" is not denied by "Aspirin should be given to
    adults", "The patient should not take ibuprofen" by "The patient may take paracetamol", nor "The
    company has not paid a dividend since 2015" by "The last dividend the company paid was in 2015"."""
    lo = read.segment_of(negation.start)[0]
    # Names are the aligner's and `_names_subject`'s business; "any" is the negation's own word.
    names = [s for s in read.values if s.kind is SlotKind.ENTITY]
    plain = [t for t in read.terms if not _in_name(t.start, names) and t.stem not in _POLARITY_WORDS]
    before = [t.stem for t in plain if lo <= t.start < negation.start and t.stem not in _POINTERS]
    after = [t for t in plain if t.start >= negation.end][:_SCOPE]
    if _UNIVERSAL.match(read.text, negation.end):  # "not all claims succeeded": true of "two of five"
        return False
    words = iter(other)
    in_order = all(any(terms_match(t.stem, o) for o in words) for t in after[:2])
    # A capitalised word names something ("in March"): the other text must say it too.
    named = all(any(terms_match(t.stem, o) for o in other) for t in after if read.text[t.start].isupper())
    return in_order and named and (not before or any(terms_match(w, o) for w in before for o in other))


def _in_name(pos: int, names: list[Slot]) -> bool:
    return any(s.start <= pos < s.end for s in names)


def negation_differs(claim: Parsed, ev: Parsed) -> bool:
    """Whether the claim and a sentence of the window say the same words, one with a "not" before
    them and one without, whether or not the rules could make a conflict of it ("He is not the son of
    Rupert Murdoch" against "... the younger son of media mogul Rupert Murdoch"): the calibrated
    decision then lets the model's contradiction on any window withhold SUPPORT (`stages.decide`).
    Only a negation whose following words the other text has all counts: "approved for adults" is
    not at odds with "not approved for children"."""
    whole = (0, len(claim.text))
    for segment in ev.segments:
        mine = [n for n in _negations(claim, whole) if _said(_scope(claim, n, whole), stems(ev, segment))]
        theirs = [n for n in _negations(ev, segment) if _said(_scope(ev, n, segment), stems(claim, whole))]
        if polarity(mine) != polarity(theirs):
            return True
    return False


def _negations(read: Parsed, span: tuple[int, int]) -> list[Slot]:
    return [s for s in read.slots if s.kind is SlotKind.NEGATION and span[0] <= s.start < span[1]]


def _scope(read: Parsed, negation: Slot, span: tuple[int, int]) -> list[str]:
    return [t.stem for t in read.terms if negation.end <= t.start < span[1]][:_SCOPE]


def _said(words: list[str], other: list[str]) -> bool:
    return bool(words) and all(any(terms_match(w, o) for o in other) for w in words)


def _names_subject(claim: Parsed, segment: str) -> bool:
    """Whether `segment` names what the claim is about, by the last word of its name ("Abe Weinberg"
    for "Abraham Weinberg"; a pronoun does not count), or the claim names nothing there. "X is not
    about rock groups" is not made "X is about rock groups" by "It is a documentary of rock groups",
    said of another film."""
    names = [s.text for s in claim.values if s.kind is SlotKind.ENTITY and claim.in_subject(s)]
    # The last word of a name is the one a window repeats ("Weinberg"), not its first ("United").
    words = {found[-1].lower() for name in names if (found := re.findall(r"[^\W\d_]{3,}", name))}
    return not words or any(re.search(rf"\b{re.escape(w)}\b", segment, re.IGNORECASE) for w in words)


def negation_fix(text: str, slot: Slot) -> tuple[SlotFix, ...]:
    """Dropping "not", "never" or "n't" reads as the positive statement; other negations have no such fix."""
    if slot.text.lower() in ("not", "never"):
        end = slot.end + (text[slot.end : slot.end + 1] == " ")
        return _licensed(text, SlotFix(start=slot.start, end=end, wrong=text[slot.start : end], right=""))
    if slot.text.lower() in ("n't", "n’t"):
        start = re.search(r"\w+\Z", text[: slot.start])
        begin = start.start() if start else slot.start
        word = text[begin : slot.end]
        right = _CONTRACTIONS.get(word.lower().replace("’", "'"), text[begin : slot.start])
        return _licensed(text, SlotFix(start=begin, end=slot.end, wrong=word, right=same_case(word, right)))
    return ()


def _licensed(text: str, dropped: SlotFix) -> tuple[SlotFix, ...]:
    """The dropped negation, and the "any" it licensed made "some": "was not a suspect in any slayings"
    -> "was a suspect in some slayings". Two fixes, so a value fix between them still applies. No fix
    for "not ... any longer" or "not any faster", whose positives the rules would only guess."""
    m = _NPI.match(text, dropped.end)
    word = "idiom" if m is not None and m.group("idiom") else "any"
    if m is None or _CLAUSE_BREAK.search(text, dropped.end, m.start(word)):
        return (dropped,)
    if m.group("idiom") or m.group("compared") or re.search(r"\bjust\s+\Z", text[: m.start("any")]):
        return ()
    some = same_case(m.group("any"), "some" + (m.group("rest") or "").lower())
    return dropped, SlotFix(start=m.start("any"), end=m.end("any"), wrong=m.group("any"), right=some)


def scoped(read: Parsed, span: tuple[int, int], shared: set[str], *, negations: bool) -> list[Slot]:
    """Negations (or quantifiers) in `span` governing a word the claim and evidence share."""
    kinds = {SlotKind.NEGATION, SlotKind.QUANTIFIER} if negations else {SlotKind.QUANTIFIER}
    found = [s for s in read.slots if s.kind in kinds and span[0] <= s.start < span[1]]
    if negations:
        found = [s for s in found if s.kind is SlotKind.NEGATION or s.value == "zero"]
    return [s for s in found if _governs(read, s, span, shared)]


def _governs(read: Parsed, slot: Slot, span: tuple[int, int], shared: set[str]) -> bool:
    following = [t.stem for t in read.terms if slot.end <= t.start < span[1]][:_SCOPE]
    return any(terms_match(word, s) for word in following for s in shared)


def stems(read: Parsed, span: tuple[int, int]) -> list[str]:
    """The content words of `read` in `span`, stemmed."""
    return [t.stem for t in read.terms if span[0] <= t.start < span[1]]


def quantifier_conflicts(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], shared: set[str]
) -> list[Conflict]:
    """The claim's quantifier ("all", "most", "always") said otherwise in the window's clause `segment`
    about the `shared` words: the window's is the fix; a weaker one than the window's, or one over a
    noun of another number, is not found as stated (`Conflict.unstated`)."""
    mine = [s for s in scoped(claim, (0, len(claim.text)), shared, negations=False) if s.value in _GRADED]
    theirs = [s for s in scoped(ev, segment, shared, negations=False) if s.value in _GRADED]
    # The claim's grade said any way in the clause agrees: "Patients usually recover" is "Most patients
    # recover, though older patients often take longer".
    if not mine or {s.value for s in theirs} & {mine[0].value}:
        return []
    # An adverb ("always", "usually") for an adverb, a determiner ("all", "most") for a determiner:
    # "all patients" is never made "usually patients".
    theirs = [s for s in theirs if _adverb(s) == _adverb(mine[0])]
    if not theirs:
        return []
    slot, other = mine[0], theirs[0]
    if _weaker(claim, slot, other):
        if {_last(slot), _last(other)} & _HEDGES:
            return []  # "Symptoms often improve" for "usually improve": a hedge in other words
        why = f"quantifier {slot.text!r} in claim, {other.text!r} in evidence: weaker, not stated as such"
        return [Conflict(why, 0.0, unstated=True)]
    if slot.text.lower() in _PRONOUNS or other.text.lower() in _PRONOUNS:
        why = f"quantifier {slot.text!r} in claim, {other.text!r} in evidence: a pronoun, not written over"
        return [Conflict(why, 0.6)]
    if (slot.text.lower() in _ONE) != (other.text.lower() in _ONE):
        # "every result is reviewed" is not made "most result is reviewed": the noun's number would change
        why = (
            f"quantifier {slot.text!r} in claim, {other.text!r} in evidence: not written over a noun's number"
        )
        return [Conflict(why, 0.0, unstated=True)]
    fix = SlotFix(start=slot.start, end=slot.end, wrong=slot.text, right=render_like(slot, other))
    return [Conflict(f"quantifier {slot.text!r} in claim, {other.text!r} in evidence", 0.6, (fix,))]


def _last(slot: Slot) -> str:
    return slot.text.split()[-1].lower()


def _adverb(slot: Slot) -> bool:
    return _last(slot) in _ADVERBS


def _weaker(claim: Parsed, mine: Slot, theirs: Slot) -> bool:
    """A weaker quantifier than the window's ("Most patients recovered" against "All patients
    recovered") is true only where the rest says the same, and "some" often means "not all" ("Some
    but not all approved"): not what the window states, and never made "All". "few" says "not many"
    and is never weaker; "a few" is."""
    few = mine.text.lower().endswith("few") and not claim.text[: mine.start].lower().endswith("a ")
    return not few and _GRADE[mine.value] < _GRADE[theirs.value]

"""One word of a closed set said as another: "on Tuesday" against "on Wednesday". Pure.

Some words name one of a few things that exclude each other: a weekday, how often ("twice daily",
"an annual fee"), a side in a case or a deal ("the plaintiff", "the seller"), a route or a result in
medicine ("given orally", "tested positive", "the left knee"), a kind of rate or charge ("a fixed
rate", "criminal charges"), what a person must, may or should do ("must take" against "may take";
"can" is "may", "shall" is "must"). A claim that says one where its document says another shares every
other word with it, so the rules found every value and the model read the pair as support
("The tablets are taken twice daily" against "once daily"; "The board approved the deal on Tuesday"
against "on Wednesday"; "Jane Doe, the chief financial officer" against "the chief executive
officer": all supported). Here the claim's word clashes with another of its set in the window's
clause only where:

- the window never says the claim's word, and the claim never says the window's;
- the words beside it are the same on both sides, where the claim's sentence goes on ("taken twice
  daily" and "taken once daily with food"; "on Tuesday." and "on Wednesday"), and neither word is
  part of a compound or a name;
- the part of the window's sentence the other word stands in (up to a comma or a joining word:
  "and", "while", "after" ...) holds every other word of the claim, figures too ("Metformin is
  taken two times a day, and the extended-release form once daily" says nothing against "Metformin
  is taken twice daily"), at the claim's times, and neither has a "not";
- the two words say different things: "annual" and "yearly", "defence" and "defense", "variable"
  and "floating" are one word here; and the window's clause says its word once ("once daily in the
  morning and once at night" is twice daily).

A figure the window gives nowhere may stand beside the claim's word ("10 mg twice daily" against "20
mg once daily"): the slot rules fix it, and where they do not, the word is left unfixed too
(`backends.spans.swaps_whole`), so "The minimum investment is $5,000" against "The maximum
investment is $1,000" is flagged, not made "The maximum investment is $5,000".

A word and its denial by a prefix are a set of two of their own ("The licence is transferable"
against "non-transferable", "The loan was secured" against "unsecured", "an irrevocable trust"
against "a revocable trust"): "non-" and "un-" before any word, "in-", "im-", "il-", "ir-" only
before an adjective's ending ("invalid", "inadmissible", "immaterial", "illegal"; never "invested",
"informed"), "dis-" before the few words it denies ("dishonest", "disqualified"; not "disclosed"),
but not the few whose prefix denies nothing ("inflammable", "invaluable"). A denial under a
condition ("non-binding until signed") is a flag: the claim's word is not what the window says,
and neither is the window's word alone.

An aside between the window's subject and its verb that only describes the subject is read past
(`stages.asides`: "The agreement, signed on 3 May 2021, is non-binding"), only of the claim's
subject, and a word found so is a flag, never a fix: the window may speak of another thing of the
same name ("The deposit, a holding fee of one week's rent, is non-refundable").

The window's word, written in the claim's case, is the fix; like every fix of the rules it stands
only where the model corroborates it (`stages.decide`), else the claim is flagged.

Usage::

    [swap] = swap_clashes(Parsed.of("The board met on Tuesday."),
                          Parsed.of("The board met on Wednesday."), segment=(0, 27))
    swap.word, swap.fix    # "Tuesday", "Wednesday"
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Literal

from workers.stages._text import (
    MONTHS,
    ORDINAL_WORDS,
    REPORTED,
    STOPWORDS,
    WEEKDAYS,
    content_words,
    in_compound,
    in_name,
    is_verb,
    same_case,
    wordset,
)
from workers.stages.align import Parsed
from workers.stages.asides import Reading, changed_later, said_of, without_asides
from workers.stages.clauses import negated, same_time
from workers.stages.slots import NUMBER_WORDS

__all__ = ["SwapClash", "denied_nearby", "swap_clashes"]

# Each set: words that exclude each other in one place of a sentence, a group of words that say the
# same ("annual", "yearly") separated by "/". A word may be in more than one set ("oral": a route,
# or an agreement not written down).
_ORDINAL_WORDS = " ".join(ORDINAL_WORDS[:10])
_SETS: tuple[tuple[frozenset[str], ...], ...] = tuple(
    tuple(frozenset(group.split("/")) for group in words.split())
    for words in (
        " ".join(WEEKDAYS),
        "once twice thrice",
        "hourly daily nightly weekly fortnightly monthly quarterly annually/yearly",
        "daily weekly fortnightly monthly quarterly annual/yearly",
        "morning afternoon evening/night",
        _ORDINAL_WORDS,
        "plaintiff defendant",
        "plaintiffs defendants",
        "buyer seller",
        "buyers sellers",
        "lessor lessee",
        "landlord tenant",
        "employer employee",
        "creditor debtor",
        "lender borrower",
        "licensor licensee",
        "appellant appellee/respondent",
        "prosecution defence/defense",
        "executive financial operating technology information marketing medical legal risk compliance",
        "oral intravenous subcutaneous intramuscular topical inhaled rectal",
        "orally intravenously subcutaneously intramuscularly topically",
        "oral written",
        "left right",
        "positive negative",
        "benign malignant",
        "acute chronic",
        "male female",
        "men women",
        "boys girls",
        "civil criminal",
        "federal state",
        "fixed variable/floating/adjustable",
        "secured unsecured",
        "gross net",
        "interim final",
        "domestic international/foreign",
        "public private",
        "full partial",
        "mandatory optional/voluntary",
        # what a person must, may or should do: "must take time off in lieu" against "may take"
        "must/shall may/can should",
        "temporary permanent",
        "minimum maximum",
        # "within 20 working days" is not 20 calendar days; "10 mmol per hour" is not per minute
        "calendar working/business/banking",
        "second minute hour day week month year",
        "seconds minutes hours days weeks months years",
        "before after",
        "inpatient outpatient",
        "north south east west",
        "northern southern eastern western",
    )
)
# A word denied by its prefix: "non-binding", "unsecured", "irrevocable", "unfit", "dishonest"; "dis-"
# only before the words listed ("disclosed" is not "not closed", nor "disease" "not at ease").
_DIS = (
    "honest loyal similar proportionate satisfied qualified allowed approved agreed agreeable continued "
    "connected orderly respectful obedient favourable favorable honourable honorable reputable courteous "
    "proved proven organised organized"
)
_DENIAL = re.compile(
    r"(?:non-?|un)(?P<any>[a-z]{4,}|fit|wed|met)"
    rf"|dis(?P<listed>{'|'.join(sorted(_DIS.split(), key=len, reverse=True))})"
    r"|(?:in(?=[ac-kn-oqs-z])|im(?=[bmp])|il(?=l)|ir(?=r))"
    r"(?P<adjective>[a-z]{3,}(?:able|ible|al|ent|ant|ive|ate|ect|id|ar|ure|ite|ete))"
)
# Words whose prefix denies nothing, or that only begin like a denial ("unless", "immediate").
_DENYING_NOTHING = wordset(
    "inflammable invaluable inhabitable unravel unloose unloosen uncover uncovered unveil unveiled unearth "
    "unearthed unleash unleashed unfold unfolded unpack unwrap nonprofit nonprofits non-profit non-profits "
    "unless untold unrest unseat immediate incorporate immigrant impatient indifferent impartial"
)
_ORDINALS = frozenset(_ORDINAL_WORDS.split())
_WORDS = frozenset(w for groups in _SETS for group in groups for w in group)
_WORD = re.compile(r"[A-Za-z][\w'’-]*|\d+(?:[.,]\d+)*")
# A superlative after an ordinal makes it a rank ("the third largest", "second most valuable").
_RANKED = re.compile(
    r"\s+(?:most\b|least\b|(?!(?:interest|test|rest|request|guest|quest|contest|protest|arrest|forest|harvest"
    r"|invest|honest|modest|chest|nest|west|pest|vest|crest|digest|manifest|suggest|behest|conquest|inquest)\b)"
    r"[a-z]+est\b)",
    re.IGNORECASE,
)
# A sentence's end, but not an abbreviation's ("Dr. Lee", "Acme Inc. said").
_END = re.compile(
    r"(?<!\bDr)(?<!\bMr)(?<!\bMs)(?<!\bMrs)(?<!\bSt)(?<!\bNo)(?<!\bInc)(?<!\bCo)(?<!\bLtd)(?<!\bJr)(?<!\bSr)[.!?](?:\s|\Z)"
)
_SCALES = wordset("hundred thousand million billion trillion bn mn m k per cent percent")
# Where a clause of the window's sentence begins: after a mark or a word that opens one.
_CLAUSE = re.compile(
    r"[,;:]|\b(?:but|while|whereas|although|though|because|that|which|who|when|if|unless|said|says|stated"
    r"|states|ruled|concluded|confirmed|noted|announced|reported)\b",
    re.IGNORECASE,
)
# Where a window's clause goes on to another part: a punctuation mark or a joining word. "Metformin
# is taken two times a day, and the extended-release form once daily": the "once" is another form's.
_JOIN = re.compile(
    r"[,;:()]|\b(?:and|but|while|whereas|though|although|after|before|because|since|when|as|with|then|than"
    r"|unlike|versus|vs|despite|except|excluding|unless)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class SwapClash:
    """The claim's word at [start, end), the window's word of the same set (`other`, in its case) and
    the fix: the window's word, or None where the window denies the claim's word under a condition (a
    flag: "The contract is valid" against "The contract, if signed, is invalid")."""

    start: int
    end: int
    word: str
    other: str
    fix: str | None


def swap_clashes(
    claim: Parsed, ev: Parsed, *, segment: tuple[int, int], fixed: Collection[int] = ()
) -> list[SwapClash]:
    """The claim's word of a closed set against another of the set in the window's clause `segment`,
    read as the window stands, then past its asides that only describe its subject (`stages.asides`);
    `fixed`: the starts of the claim's times other conflicts fix with the window's."""
    if not _readable(claim, ev, segment, fixed):
        return []
    said = _said(claim.text, 0, len(claim.text)), _said(ev.text, 0, len(ev.text))
    if found := _clashes(claim, Reading(ev), segment, said):
        return found
    # then the window read without its asides; their words still count as said (`said[1]`)
    bare = without_asides(ev)
    return _clashes(claim, bare, segment, said) if bare.ev is not ev else []


def _clashes(
    claim: Parsed, read: Reading, segment: tuple[int, int], said: tuple[frozenset[str], frozenset[str]]
) -> list[SwapClash]:
    """`swap_clashes` in one reading of the window; `said`: the claim's and the whole window's words."""
    ev, (lo, hi) = read.ev, segment
    said_mine, said_theirs = said
    denials = _denials(said_mine, _said(ev.text, lo, hi))
    in_clause = _words(ev.text, lo, hi, denials)
    theirs = [t for t in in_clause if t.group(0).lower() not in said_mine and _once(t, in_clause)]
    found = []
    for m in _words(claim.text, 0, len(claim.text), denials):
        if m.group(0).lower() in said_theirs:
            continue
        stands = ((t, _standing(claim, m, read, t, segment, said_theirs)) for t in theirs)
        other, how = next(((t, how) for t, how in stands if how), (None, None))
        if other is not None:
            word = same_case(m.group(0), other.group(0))
            found.append(SwapClash(m.start(), m.end(), m.group(0), word, word if how == "fix" else None))
    return found if len(found) == 1 else []  # two swapped words: the clause says something else


def _readable(claim: Parsed, ev: Parsed, segment: tuple[int, int], fixed: Collection[int]) -> bool:
    """Whether the claim has no "not" and the window's clause states its times (those `fixed` apart)."""
    return not negated(claim, (0, len(claim.text))) and same_time(claim, ev, segment, fixed=fixed)


def denied_nearby(
    claim: Parsed, ev: Parsed, *, segment: tuple[int, int], fixed: Collection[int] = ()
) -> bool:
    """Whether a word of the claim is denied by a prefix in a sentence of the window's clause that
    holds every other content word of the claim's part around it, though not in its place ("The loan
    is secured and was made in 2010" against "The loan, made on 2 May 2011, is unsecured"). Too loose
    to be a conflict ("The deposit will be returned to tenants who paid the non-refundable fee"), it
    only keeps other fixes from going in: a fixed year beside a word left wrong would pass. `fixed`:
    the starts of the claim's times and words other conflicts already fix."""
    if not _readable(claim, ev, segment, fixed):
        return False
    lo, hi = segment
    said_theirs = _said(ev.text, 0, len(ev.text))
    denials = _denials(_said(claim.text, 0, len(claim.text)), _said(ev.text, lo, hi))
    theirs = _words(ev.text, lo, hi, denials)
    return any(
        _denial(m.group(0), t.group(0))
        for m in _words(claim.text, 0, len(claim.text), denials)
        if m.group(0).lower() not in said_theirs and m.start() not in fixed
        for t in theirs
        if _nearby(claim, m, ev, t, segment)
    )


def _nearby(claim: Parsed, m: re.Match[str], ev: Parsed, t: re.Match[str], segment: tuple[int, int]) -> bool:
    """Whether the window's sentence around `t` holds every content word of the claim's part around `m`,
    with no "not" in `t`'s part and no report before it."""
    own = ev.segment_of(t.start())
    lo, hi = max(own[0], segment[0]), min(own[1], segment[1])
    if negated(ev, _own_part(claim, ev, t, segment)) or _reported(claim, ev, lo, t.start()):
        return False
    a, b = _part(claim.text, m, frozenset())
    others = {_article(w.lower()) for w in content_words(claim.text[a:b]) if not _is_value(w)}
    return others - {m.group(0).lower()} <= _said(ev.text, lo, hi)


def _standing(
    claim: Parsed,
    m: re.Match[str],
    read: Reading,
    t: re.Match[str],
    segment: tuple[int, int],
    window: frozenset[str],
) -> Literal["fix", "flag", None]:
    """Whether the window's word `t` stands in the claim's word's place: "fix". A "not" in the window's
    clause keeps a word of a set from being read; for a denial, only one in its own part does ("The
    policy is invalid because the premium was not paid" is read), and the word before it must be the
    claim's ("Interest income rose 8%" is not "lower non-interest income"). A window that reports
    what someone said or rejected says nothing ("The tribunal dismissed the claim that the dismissal
    was unlawful"), nor does a question or a sentence tagged as someone's word ("..., the buyer
    alleged": `stages.asides.said_of`). Read past an aside, the window's word must be said of the
    claim's subject and not after a condition, and is a "flag", never a fix. So is a denial under a
    condition anywhere in its sentence ("The offer is binding" against "The offer, until signed, is
    non-binding"), and a fix the window says changed later ("On appeal ...")."""
    a, b, ev = m.group(0), t.group(0), read.ev
    part, own = _own_part(claim, ev, t, segment), ev.segment_of(t.start())
    if _reported(claim, ev, max(own[0], segment[0]), t.start()) or said_of(claim.text, ev.text, t.end(), own):
        return None
    aside = read.past(own[0], t.start())
    if aside and not _ends_alike(claim, m, ev, t):
        return None
    denial = _denial(a, b)
    if not _in_its_place(claim, m, ev, t, part, window, segment, denial=denial):
        return None
    if (denial or aside) and not _same_subject(claim, m, ev, t):
        return None
    if denial and read.conditional(own, t.span()):
        return "flag"
    if read.past(own[0], t.start(), conditions=True):
        return None
    # past an aside the window may speak of another thing of that name ("The loan, made by HSBC in 2019")
    return "flag" if aside or changed_later(ev.text, own[1]) else "fix"


def _ends_alike(claim: Parsed, m: re.Match[str], ev: Parsed, t: re.Match[str]) -> bool:
    """Read past an aside, the window's word is followed by what follows the claim's, or both end their
    clause there: "The fee, however, is payable monthly by members on the hardship scheme" says
    nothing of the fee that "The fee is payable annually" is about."""
    return _neighbour(claim.text, m, 1) == _neighbour(ev.text, t, 1)


def _in_its_place(
    claim: Parsed,
    m: re.Match[str],
    ev: Parsed,
    t: re.Match[str],
    part: tuple[int, int],
    window: frozenset[str],
    segment: tuple[int, int],
    *,
    denial: bool,
) -> bool:
    """Whether the window's word stands where the claim's does (`_in_place`): a word of the claim's set
    with no "not" in the window's clause; a denial with none in its own part and the claim's word
    before it."""
    if denial:
        placed = not negated(ev, part) and _neighbour(claim.text, m, -1) == _neighbour(ev.text, t, -1)
    else:
        placed = _exclusive(m.group(0), t.group(0)) and not negated(ev, segment)
    return placed and _in_place(claim, m, ev, t, part, window)


def _denial(a: str, b: str) -> bool:
    return _denies(a.lower(), b.lower()) or _denies(b.lower(), a.lower())


def _reported(claim: Parsed, ev: Parsed, lo: int, hi: int) -> bool:
    """Whether the window reports or rejects what follows and the claim does not."""
    return REPORTED.search(ev.text, lo, hi) is not None and REPORTED.search(claim.text) is None


def _same_subject(claim: Parsed, m: re.Match[str], ev: Parsed, t: re.Match[str]) -> bool:
    """Whether the window's clause around `t` is about what the claim's is: the first word of its
    subject (its words before its first verb) is a word of the claim's ("The deposit is refundable"
    is not "the fee paid with the deposit is non-refundable", whose clause is about the fee; nor
    "the agency that placed the employee was paid", whose clause has no subject of its own), and
    the claim's holds every other word of it ("The loan guarantee was unsecured" is not the loan's)."""
    mine = _subject(claim.text, _clause_start(claim.text, 0, m.start()), m.start())
    lo = ev.segment_of(t.start())[0]
    theirs = _subject(ev.text, _clause_start(ev.text, lo, t.start()), t.start())
    # every word of the window's subject up to "due ..." ("The loan guarantee" is not "The loan")
    head = theirs[: theirs.index("due")] if "due" in theirs else theirs
    return not mine or (bool(theirs) and theirs[0] in mine and all(w in mine for w in head))


def _clause_start(text: str, lo: int, hi: int) -> int:
    """Where the clause that text[hi] stands in begins, from `lo` ("The tribunal ruled that the
    dismissal": the dismissal's)."""
    return max([lo, *(c.end() for c in _CLAUSE.finditer(text, lo, hi))])


def _subject(text: str, lo: int, hi: int) -> list[str]:
    """The content words of text[lo:hi] before its first verb, in order, without figures and dates
    ("The 5.25% senior notes due 2030": "senior", "notes", "due")."""
    ws = [w.group(0) for w in _WORD.finditer(text, lo, hi)]
    ws = [w for w in ws if not _is_value(w.lower()) and w.lower() not in _SCALES and w.lower() not in MONTHS]
    verb = next((i for i in range(len(ws)) if is_verb(ws, i)), len(ws))
    return [w.lower() for w in ws[:verb] if w.lower() not in STOPWORDS]


def _own_part(claim: Parsed, ev: Parsed, t: re.Match[str], segment: tuple[int, int]) -> tuple[int, int]:
    """The part of the window's sentence `t` stands in (`_part`), within the clause `segment`."""
    lo, hi = _part(ev.text, t, _joins(claim.text))
    own = ev.segment_of(t.start())  # never another sentence's words
    return max(lo, segment[0], own[0]), min(hi, segment[1], own[1])


def _in_place(
    claim: Parsed,
    m: re.Match[str],
    ev: Parsed,
    t: re.Match[str],
    part: tuple[int, int],
    window: frozenset[str],
) -> bool:
    """Whether the window's word stands where the claim's does: the same word on each side (or the
    claim's clause ends there), and every other word of the claim in the window's `part` around it
    (`_own_part`), those before the claim's word before the window's ("Acme paid the lender $5
    million" is not what "The borrower paid Acme $5 million" says)."""
    if any(_neighbour(claim.text, m, step) not in ("", _neighbour(ev.text, t, step)) for step in (-1, 1)):
        return False
    lo, hi = part
    # what comes after the claim's word may come first in the window ("In 2021 the defendant appealed")
    sides = ((0, m.start(), lo, t.start()), (m.end(), len(claim.text), lo, hi))
    return all(_placed(claim.text, a, b, _said(ev.text, c, d), window) for a, b, c, d in sides)


def _placed(text: str, lo: int, hi: int, part: frozenset[str], window: frozenset[str]) -> bool:
    """Whether every word of text[lo:hi] is in `part`. A figure the window gives nowhere is a value the
    slot rules fix ("10 mg twice daily" against "20 mg once daily"); one it gives elsewhere places the
    claim in another part ("Net revenue was $3 billion" against "Revenue after deductions was $3
    billion, and gross revenue was $4 billion")."""
    mine = {_article(w.group(0).lower()) for w in _WORD.finditer(text, lo, hi)}
    return all(w in part or (_is_value(w) and w not in window) for w in mine)


def _once(t: re.Match[str], words: list[re.Match[str]]) -> bool:
    """Whether the window's clause says the word once: "once daily in the morning and once at night"
    is twice daily."""
    return sum(w.group(0).lower() == t.group(0).lower() for w in words) == 1


def _is_value(word: str) -> bool:
    return word[:1].isdigit() or word in NUMBER_WORDS


def _joins(text: str) -> frozenset[str]:
    return frozenset(j.group(0).lower() for j in _JOIN.finditer(text))


def _part(text: str, t: re.Match[str], same: frozenset[str]) -> tuple[int, int]:
    """The part of the window's sentence `t` stands in: from the joining word or mark before it to the
    one after it, but those the claim has too ("Jane Doe, the chief executive officer, signed" is one
    part for "Jane Doe, the chief financial officer, signed") and `t` itself ("before", "after")."""
    joins = [j for j in _JOIN.finditer(text) if j.group(0).lower() not in same and j.start() != t.start()]
    lo = max((j.end() for j in joins if j.end() <= t.start()), default=0)
    after = next((j for j in joins if j.start() >= t.end()), None)
    end = _END.search(text, t.end())
    hi = min(after.start() if after else len(text), end.start() if end else len(text))
    return lo, hi


def _words(text: str, lo: int, hi: int, denials: frozenset[str]) -> list[re.Match[str]]:
    """The set words in text[lo:hi] (or of `denials`) that stand alone: not in a compound, a name or a
    rank ("the third largest bank" is `stages.ranks`')."""
    return [
        m
        for m in _WORD.finditer(text, lo, hi)
        if (m.group(0).lower() in _WORDS or m.group(0).lower() in denials)
        and not in_compound(text, m.start(), m.end())
        # a name's word ("West Virginia", "First Republic"); a weekday is always capitalised
        and (m.group(0).lower() in WEEKDAYS or not in_name(text, m.start(), m.end()))
        and not (m.group(0).lower() in _ORDINALS and _RANKED.match(text, m.end()))
    ]


def _said(text: str, lo: int, hi: int) -> frozenset[str]:
    """The words of text[lo:hi], lowercased, each also without its possessive ("employer's")."""
    words = [_article(m.group(0).lower()) for m in _WORD.finditer(text, lo, hi)]
    return frozenset(words) | {w[:-2] for w in words if w.endswith(("'s", "’s"))}


def _denials(mine: frozenset[str], theirs: frozenset[str]) -> frozenset[str]:
    """The words of the claim and of the window's clause, each the other's denial by a prefix."""
    pairs = [(a, b) for a in mine for b in theirs if _denial(a, b)]
    return frozenset(w for pair in pairs for w in pair)


def _denies(word: str, other: str) -> bool:
    """Whether `other` is `word` denied by a prefix: "non-binding", "unsecured", "irrevocable"."""
    m = _DENIAL.fullmatch(other)
    return m is not None and other not in _DENYING_NOTHING and word in m.groupdict().values()


def _exclusive(a: str, b: str) -> bool:
    """Whether two words are of one set and say different things ("annual" and "yearly" say one)."""
    a, b = a.lower(), b.lower()
    return any(
        any(a in g for g in groups)
        and any(b in g for g in groups)
        and not any(a in g and b in g for g in groups)
        for groups in _SETS
    )


def _neighbour(text: str, m: re.Match[str], step: int) -> str:
    """The word just before (`step` -1) or after (1) `m` in its clause; "" at a mark or the text's end."""
    if step < 0:
        before = re.search(r"([^\s.,;:!?()]+)\s*\Z", text[: m.start()])
        return _article(before.group(1).lower()) if before else ""
    after = re.match(r"\s*([^\s.,;:!?()]+)", text[m.end() :])  # "$5" is a word here, a mark none
    return _article(after.group(1).lower()) if after else ""


def _article(word: str) -> str:
    return "a" if word == "an" else word  # "an annual fee", "a monthly fee"

"""The period an amount of money or a dose is for, and the same amount said for another period. Pure.

"The rent is £1,200 per year" against "The monthly rent is £1,200, payable in advance"; "Support
staff are paid £12.50 a day" against "The hourly rate for support staff is £12.50"; "start on 7.5 mg
of methotrexate a day" against "The usual starting dose is 7.5 mg weekly": the amounts are one and
the claim's other words the window's, so the rules found the figure and the model read the pair as
support, yet the claim gives twelve times the rent, an eighth of the pay, seven times the dose.

An amount's period is read right after it ("£1,200 a month", "per annum", "annually", "p.a.",
"pcm", "10 mg once a day"; a dose after what it is of: "7.5 mg of methotrexate a day") or before it,
from the word that opens its noun phrase: "The monthly rent is £1,200", "an annual fee of £95", "the
hourly rate for support staff is £12.50" (the period word after an article, a possessive or the
clause's start, then at most five words with no figure and no "and", then "is", "are", "was", "of",
"at" or ":" right before the amount). "Rent is paid monthly and the deposit is £1,200" gives the
deposit no period; "£500 per year of service" is a ratio, not a period.

A clash needs the claim's amount (money, or a dose by mass or volume) to have a period, each amount
of the window with its value and unit to have one, the same one and another (so a window that names
the claim's period for it anywhere gives none), no "not" before either amount, and the window's
sentence that states it to hold half the other words of the claim's clause (up to a comma, semicolon
or full stop). The window's amount is read wherever it stands, since the clause the rules compare may
be another ("... taken once a week. The usual starting dose is 7.5 mg weekly"). The window's period,
in the claim's own form, is the fix: "per year" becomes "per month", "a day" "an hour", "annually"
"monthly", "an annual fee" "a monthly fee".

Not read: an amount per person or per night (no period of the calendar), a dose taken more than once
in its period ("5 mg twice daily": `stages.frequency` reads how often), the same amount said for
another period at its worth there ("£500 a month" against "£6,000 a year": no clash, and not found
as support either).

Usage::

    [clash] = period_clashes(Parsed.of("The rent is £1,200 per year."),
                             Parsed.of("The monthly rent is £1,200."))
    clash.word, clash.fix    # "per year", "per month"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from workers.stages._text import same_case
from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated
from workers.stages.frequency import PER_YEAR
from workers.stages.measures import PERIOD_UNITS, Period, period_after
from workers.stages.slot_types import Slot
from workers.stages.terms import stem, stems_before
from workers.stages.units import UNIT_INFO

__all__ = ["PeriodClash", "period_clashes", "periods"]

_PERIOD_WORDS = r"hourly|daily|weekly|fortnightly|monthly|quarterly|annual|annually|yearly"
# Before the amount: the period word nearest it that opens its noun phrase, up to a verb or "of" right
# before it ("On the monthly plan the annual fee is £95": the fee is annual).
_BEFORE = re.compile(
    r"(?:^|[,;:(]\s*|\b(?:the|a|an|its|their|your|our|his|her|this|that|each|whose|any)\s+)"
    rf"(?P<adjective>{_PERIOD_WORDS})\s+"
    # not a word of a compound that names a thing: "annual leave", "the daily living component"
    r"(?!(?:and|or|in|by|on|from|to|at|for|leave|report|review|general|meeting|accounts|return|statement"
    r"|living|telegraph|mail|express|conference|survey|results)\b)"
    # nor a verb between: "Annual leave is paid at £12.50", "The annual review confirmed ... £40"
    rf"(?:(?!(?:and|or|but|which|that|who|while|is|are|was|were|be|been|being|{_PERIOD_WORDS})\b)"
    r"(?![A-Za-z'’-]+ed\b)[A-Za-z'’-]+(?:\s+|(?=:))){1,5}?"
    r"(?:(?:is|are|was|were|will\s+be|of|at)\s+|:\s*)(?:(?:up\s+to|only|just|currently|now|set\s+at)\s+)?\Z",
    re.IGNORECASE,
)
# What a dose is of, one to three words ("of methotrexate", "of folic acid"), never a word that says
# how often ("of methotrexate three times a week": taken more than once, no period of the dose).
_NOT_DRUG = rf"(?:a|an|per|each|every|once|twice|thrice|times|one|two|three|four|five|six|{_PERIOD_WORDS})\b"
_OF_DRUG = re.compile(
    rf"\s+of\s+(?!{_NOT_DRUG})[A-Za-z-]+(?:\s+(?!{_NOT_DRUG})[A-Za-z-]+){{0,2}}", re.IGNORECASE
)
# The word after "of" in the claim's clause: what its amount is of ("a dose of prednisolone").
_OF_WORD = re.compile(r"\bof\s+(?:the\s+)?([A-Za-z-]{3,})", re.IGNORECASE)
# Where the amount's clause starts: a full stop, semicolon or comma before a space.
_CLAUSE_END = re.compile(r"[.;!?](?:\s|\Z)|,\s")
# After "monthly", a noun of money or dose it describes ("a £60 monthly fee", "a £60 monthly service
# charge"), not the rest of a verb's clause ("paid £60 monthly since 2020", "monthly in arrears").
_NOUN_NEXT = re.compile(
    r"[ \t]+(?:[a-z]+[ \t]+)?(?:fees?|charges?|payments?|premiums?|subscriptions?|instal?ments?|rent|bills?"
    r"|costs?|prices?|rates?|allowances?|salary|wages?|contributions?|repayments?|dividends?|interest"
    r"|amounts?|limits?|caps?|budgets?|pensions?|benefits?|stipends?|levy|tax|doses?|deposits?|membership)\b",
    re.IGNORECASE,
)
# How far back a period word may open the amount's noun phrase: five words and an article.
_LOOK_BACK = 90
_HOW_CLOSE = 0.5  # share of the claim's other words the window's clause holds
_FAMILIES = frozenset({"currency", "mass", "volume", "percent"})


@dataclass(frozen=True, slots=True)
class PeriodClash:
    start: int  # the claim's period words
    end: int
    word: str
    other: str
    fix: str


def _period_before(text: str, start: int) -> Period | None:
    lo = max(0, start - _LOOK_BACK)
    if lo:  # from a word's start, so "^" is no word's middle
        lo = text.find(" ", lo, start) + 1 or start
    clause = max((m.end() for m in _CLAUSE_END.finditer(text, lo, start)), default=lo)
    m = _BEFORE.search(text[clause:start])
    if m is None:
        return None
    word, at = m.group("adjective"), clause + m.start("adjective")
    return Period(PERIOD_UNITS[word.lower()], at, at + len(word), word, "adjective")


def periods(read: Parsed) -> dict[Slot, Period]:
    """Each amount of money or dose in `read` with the period said after or before it."""
    found = {}
    for slot in read.values:
        family = UNIT_INFO.get(slot.figure.unit or "", ("", 1.0))[0] if slot.figure else ""
        if family not in _FAMILIES:
            continue
        period = period_after(read.text, slot.end)
        # a rate's period only right after it: "the Monthly Saver is 5%", "the monthly interest
        # option is 4.45% AER" name a product or how interest is paid, not the rate's period
        if period is None and family != "percent":
            period = _period_before(read.text, slot.start)
        if period is None and family not in ("currency", "percent"):
            period = _after_drug(read.text, slot.end)
        if period is not None:
            found[slot] = period
    return found


def _after_drug(text: str, end: int) -> Period | None:
    """A dose's period after what it is a dose of: "7.5 mg of methotrexate a day"."""
    m = _OF_DRUG.match(text, end)
    return None if m is None else period_after(text, m.end())


def period_clashes(claim: Parsed, ev: Parsed) -> list[PeriodClash]:
    """The claim's amounts said for another period than every same amount of the window."""
    theirs, ours = periods(ev), periods(claim)
    clashes = []
    for slot, mine in ours.items():
        same = [s for s in ev.values if _same_amount(slot, s)]
        said = {theirs[s].unit for s in same if s in theirs}
        if not same or any(s not in theirs for s in same) or len(said) != 1 or mine.unit in said:
            continue
        if _denied(claim, [slot]) or _denied(ev, same) or _converted(slot, mine, ours):
            continue
        if any(_about_one_thing(claim, ev, slot, mine, s) for s in same):
            clashes.append(_clash(claim.text, mine, theirs[same[0]]))
    return clashes


def _converted(slot: Slot, mine: Period, ours: dict[Slot, Period]) -> bool:
    """Whether the claim gives another amount of its unit worth this one over its own period ("a service
    charge of £100 a month comes to £1,200 a year": the claim converts, the window's £1,200 is the rent)."""
    if slot.figure is None or mine.unit not in PER_YEAR:
        return False
    a_year = slot.figure.number * PER_YEAR[mine.unit]
    return any(
        other is not slot
        and other.figure is not None
        and other.figure.unit == slot.figure.unit
        and period.unit in PER_YEAR
        and abs(other.figure.number * PER_YEAR[period.unit] - a_year) <= 0.01 * a_year
        for other, period in ours.items()
    )


def _same_amount(slot: Slot, other: Slot) -> bool:
    a, b = slot.figure, other.figure
    if a is None or b is None or a.unit != b.unit:
        return False
    return abs(a.number - b.number) <= 1e-9 * max(1.0, abs(a.number))


def _denied(read: Parsed, slots: list[Slot]) -> bool:
    """Whether a "not" stands in the clause before one of the amounts."""
    return any(negated(read, (_clause_start(read.text, s.start), s.start)) for s in slots)


def _clause_start(text: str, start: int) -> int:
    return max((m.end() for m in _CLAUSE_END.finditer(text, 0, start)), default=0)


def _clause_end(text: str, end: int) -> int:
    m = _CLAUSE_END.search(text, end)
    return len(text) if m is None else m.start()


def _about_one_thing(claim: Parsed, ev: Parsed, slot: Slot, mine: Period, other: Slot) -> bool:
    """Whether the window's sentence holds half the other words of the claim's clause, the window every
    word the claim's clause says a thing is "of" ("a dose of prednisolone": not methotrexate's), and
    the claim's clause a word of the two before the window's amount ("the rent is £1,200", not the
    service charge's)."""
    spans = ((slot.start, slot.end), (mine.start, mine.end))
    lo, hi = _clause_start(claim.text, slot.start), _clause_end(claim.text, max(slot.end, mine.end))
    rest = [
        t.stem
        for t in claim.terms
        # a pronoun's contraction ("you'd") says nothing of what the amount is
        if lo <= t.start < hi and not any(a <= t.start < b for a, b in spans) and "'" not in t.stem
    ]
    segment = ev.segment_of(other.start)
    said = [t.stem for t in ev.terms if segment[0] <= t.start < segment[1]]
    of = [stem(m.group(1)) for m in _OF_WORD.finditer(claim.text, lo, hi)]
    before = stems_before(ev.terms, other.start, lo=segment[0])
    return (
        bool(rest)
        and covered(rest, said) >= _HOW_CLOSE
        and (not of or covered(of, [t.stem for t in ev.terms]) == 1.0)
        and (not before or covered(before, rest) > 0)
    )


def _clash(text: str, mine: Period, theirs: Period) -> PeriodClash:
    """The window's period written in the claim's form, capitalised as the claim's words."""
    if mine.form == "adjective":
        return _adjective_clash(text, mine, theirs)
    if mine.form == "adverb":
        # "a £60 monthly fee": the word after the amount opens a noun phrase, so it is an adjective
        noun = _NOUN_NEXT.match(text, mine.end) is not None
        fix = "annual" if noun and theirs.unit == "year" else _adverb(theirs.unit)
    else:
        prep = mine.text.split()[0] if mine.form == "prep" else "a"
        fix = f"{_article(prep, theirs.unit) if prep.lower() in ('a', 'an') else prep} {theirs.unit}"
    return PeriodClash(mine.start, mine.end, mine.text, theirs.text, same_case(mine.text, fix))


def _adjective_clash(text: str, mine: Period, theirs: Period) -> PeriodClash:
    """ "an annual fee" becomes "a monthly fee": the article before the adjective agrees."""
    fix = "annual" if theirs.unit == "year" else _adverb(theirs.unit)
    article = re.search(r"\b(an?)\s+\Z", text[max(0, mine.start - 4) : mine.start], re.IGNORECASE)
    if article is None:
        return PeriodClash(mine.start, mine.end, mine.text, theirs.text, same_case(mine.text, fix))
    start = mine.start - len(article.group())
    fix = f"{_article(article.group(1), fix)} {fix}"
    return PeriodClash(start, mine.end, text[start : mine.end], theirs.text, fix)


def _adverb(unit: str) -> str:
    return "annually" if unit == "year" else "daily" if unit == "day" else f"{unit}ly"


def _article(model: str, word: str) -> str:
    article = "an" if word[:1].lower() in "aeiou" or word.lower().startswith("hour") else "a"
    return article.capitalize() if model[:1].isupper() else article

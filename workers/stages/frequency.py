"""How often, said in phrases: "twice a year" against "quarterly", "each day" against "once a week". Pure.

A claim that gives another frequency than its document shares every other word with it, so the rules
found every value and the model read the pair as support: "Take one 70 mg tablet each day" against
"take one tablet once a week" (a weekly drug taken daily), "The fund pays out its income twice a
year" against "distributes income quarterly", "Premiums are collected annually" against "payable
monthly". `stages.swaps` reads one word against another ("twice daily" / "once daily"); this reads
what the phrases amount to, as times a year: "every six months" is "twice a year", "each day" is
"daily", "every 4 weeks" is not "monthly".

Read: "once|twice|N times a|per|each|every day|week|month|quarter|year", "once|twice|N times
daily|weekly|monthly|yearly|annually", "every (N|other) day(s)|week(s)|...", "each day|week|...",
and "daily", "weekly", "fortnightly", "monthly", "quarterly", "annually", "yearly", "semi-annually",
"half-yearly", "biannually" where they say how often something happens, not what kind of thing it
is: "a daily dose", "the monthly premium", "an annual fee" name a thing (another word follows), so
they are not read. Not read either: a rate after a figure ("£30,000 a year", "10 mg a day": no
"once" or "every", so no frequency here), "biweekly" and "bimonthly" (each means two things).

Two phrases within 3% of each other are one ("every 30 days", "monthly"; "every 4 weeks" is not). Not
read: a ratio ("for every 5 years of service", "for each day of delay"), an amount's rate ("up to 4 g
daily", "£30,000 annually"), a word inside a compound ("twice-yearly", "bi-weekly", "half yearly").

A clash needs the claim to say one frequency, the window's clause to say another (however often it
says it), the window to say the claim's nowhere (not even in "once-weekly" or "monthly direct
debit"), both to bound it alike ("at least once a year" against "every six months" is no clash), no
"not" before either, the last two content words before the phrases to share one (what happens so
often: "tablet each day" and "tablet once a week", not "atorvastatin daily" and "cholesterol
checked every 3 months"), and the window's clause to hold most of the other words of the claim's
clause (up to a comma or semicolon), so the two phrases are about one thing ("Performance reviews
take place twice a year ... Salary reviews are conducted once a year" against "Salary reviews are
held twice a year": the second sentence). The window's phrase is the fix.

Usage::

    [clash] = frequency_clashes(Parsed.of("The fund pays out its income twice a year."),
                                Parsed.of("The fund distributes income quarterly."), segment=(0, 38))
    clash.word, clash.fix    # "twice a year", "quarterly"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated
from workers.stages.slots import NUMBER_WORDS
from workers.stages.terms import stems_before

__all__ = ["PER_YEAR", "FrequencyClash", "frequencies", "frequency_clashes"]

# Times a year, by the calendar: "every 7 days" is "once a week", "every 90 days" "quarterly".
_YEAR = 365.25
PER_YEAR = {
    "day": _YEAR,
    "week": _YEAR / 7,
    "fortnight": _YEAR / 14,
    "month": 12.0,
    "quarter": 4.0,
    "year": 1.0,
}
_ADVERBS = {
    "daily": _YEAR, "weekly": _YEAR / 7, "fortnightly": _YEAR / 14, "monthly": 12.0, "quarterly": 4.0,
    "annually": 1.0, "yearly": 1.0, "semi-annually": 2.0, "half-yearly": 2.0, "biannually": 2.0,
}  # fmt: skip
# Two frequencies within this share of each other are one ("every 30 days" and "monthly"); "every 4
# weeks" is not "monthly" (8% apart).
_SAME = 0.03
_TIMES = {"once": 1, "twice": 2, "thrice": 3} | {word: n for n, word in enumerate(NUMBER_WORDS)}
_N = r"(?:\d+|one|two|three|four|five|six)"
_HOW_MANY = rf"(?P<times>once|twice|thrice|{_N}\s+times)"
_UNIT = r"(?P<unit>day|week|fortnight|month|quarter|year)s?"
_ADVERB = r"(?P<adverb>" + "|".join(sorted(_ADVERBS, key=len, reverse=True)) + ")"
_PHRASE = re.compile(
    # not inside a compound ("twice-yearly", "bi-weekly", "half yearly"): such a word is not read
    rf"(?<![\w-])(?<!half )(?<!semi )(?<!bi )(?:{_HOW_MANY}\s+(?:(?:a|per|each|every)\s+{_UNIT}|{_ADVERB})"
    rf"|(?P<every>every|each)\s+(?:(?P<n>{_N}|other|second)\s+)?(?P<eunit>day|week|fortnight|month|quarter|year)s?"
    rf"|(?P<alone>{'|'.join(sorted(_ADVERBS, key=len, reverse=True))}))\b(?!-)",
    re.IGNORECASE,
)
# "for every 5 years of service", "for each day of delay", "per day": a ratio, not how often; and an
# amount's rate ("up to 4 g daily", "£30,000 annually", "2 tablets daily").
_RATIO_BEFORE = re.compile(
    r"(?:\b(?:for|per)|\d[\d,.]*\s*(?:%|[^\W\d_]+)?|\b(?:one|two|three|four|five|six)\s+[^\W\d_]+)\s+\Z",
    re.IGNORECASE,
)
_RATIO_AFTER = re.compile(r"\s+of\b", re.IGNORECASE)
# "at least once a year", "up to 4 times a day": a bound on how often.
_BOUND = re.compile(
    r"\b(?P<b>at\s+least|at\s+most|up\s+to|no\s+more\s+than|not\s+more\s+than|no\s+less\s+than"
    r"|more\s+than|less\s+than|a\s+maximum\s+of|a\s+minimum\s+of|a\s+max(?:imum)?\s+of)\s+\Z",
    re.IGNORECASE,
)
# The words that say what happens so often: the last two content words before a phrase.
_ANCHOR_WORDS = 2
# After a lone adverb, what shows it says how often: the end, a stop, or a word that is no noun.
_ADVERBIAL_AFTER = re.compile(
    r"\s*(?:\Z|[.,;:!?)]|(?:by|in|on|at|with|from|for|and|or|to|until|after|before|when|if|unless|as|while"
    r"|but|thereafter|through|throughout|during|via|starting|until|so|the|a|an|its|their|his|her)\b)",
    re.IGNORECASE,
)
_HOW_CLOSE = 0.6  # share of the claim's other words the window's clause holds


@dataclass(frozen=True, slots=True)
class Frequency:
    start: int
    end: int
    text: str
    per_year: float


@dataclass(frozen=True, slots=True)
class FrequencyClash:
    start: int  # the claim's phrase
    end: int
    word: str
    other: str
    fix: str | None


def frequencies(text: str) -> list[Frequency]:
    """Every frequency phrase of `text`, with how many times a year it says."""
    found = []
    for m in _PHRASE.finditer(text):
        if _rate(text, m) or _RATIO_AFTER.match(text, m.end()):
            continue
        per_year = _per_year(m)
        if per_year is not None:
            found.append(Frequency(m.start(), m.end(), m.group(0), per_year))
    return found


def _rate(text: str, m: re.Match[str]) -> bool:
    """A ratio or an amount's rate: the phrase right after "for", "per" or an amount. Only a lone
    adverb or "a day" is an amount's ("4 g daily"); "one tablet twice a day" says how often."""
    before = _RATIO_BEFORE.search(text, max(0, m.start() - 24), m.start())
    if before is None:
        return False
    return before.group(0).split()[0].lower() in ("for", "per") or bool(m.group("alone"))


def _per_year(m: re.Match[str]) -> float | None:
    if m.group("alone"):
        if not _ADVERBIAL_AFTER.match(m.string, m.end()):
            return None  # "a daily dose", "the monthly premium": a kind of thing
        return _ADVERBS[m.group("alone").lower()]
    if m.group("every"):
        n = (m.group("n") or "1").lower()
        every = 2.0 if n in ("other", "second") else float(_count(n))
        return PER_YEAR[m.group("eunit").lower()] / every if every else None
    times = float(_count(m.group("times").lower().split()[0]))
    per = PER_YEAR[m.group("unit").lower()] if m.group("unit") else _ADVERBS[m.group("adverb").lower()]
    return times * per


def _count(word: str) -> int:
    return int(word) if word.isdigit() else _TIMES[word]


def frequency_clashes(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[FrequencyClash]:
    """The claim's one frequency against the other one of the window's clause `segment`."""
    mine, said = frequencies(claim.text), frequencies(ev.text)
    lo, hi = segment
    theirs = [f for f in said if lo <= f.start < hi]
    if len(mine) != 1 or not theirs or any(not _same(theirs[0], f) for f in theirs):
        return []
    [m], t = mine, theirs[0]
    # the window says the claim's own somewhere ("Premiums can be paid annually. ... may also pay
    # premiums monthly"), or each bounds it otherwise ("at least once a year" / "every six months")
    if _says_anywhere(ev.text, said, m) or _bound(claim.text, m) != _bound(ev.text, t):
        return []
    if (
        negated(ev, (lo, t.start))
        or negated(claim, (0, m.start))
        or not _about_one_thing(claim, ev, m, segment)
        or not _said_of_one_thing(claim, m, ev, t)
    ):
        return []
    return [FrequencyClash(m.start, m.end, m.text, t.text, t.text.lower())]


_WORD_OF = {_YEAR: "daily", _YEAR / 7: "weekly", _YEAR / 14: "fortnightly", 12.0: "monthly", 4.0: "quarterly"}


def _says_anywhere(text: str, said: Sequence[Frequency], mine: Frequency) -> bool:
    """Whether the window (`text`, its phrases `said`) says the claim's frequency anywhere, as a
    phrase or inside a word ("a once-weekly tablet", "by monthly direct debit", "annual" for once a
    year)."""
    if any(_same(mine, f) for f in said):
        return True
    word = next((w for n, w in _WORD_OF.items() if abs(n - mine.per_year) <= _SAME * n), None)
    if abs(mine.per_year - 1.0) <= _SAME:
        word = r"(?:annual|annually|yearly)"
    return word is not None and re.search(rf"{word}\b", text, re.IGNORECASE) is not None


def _same(a: Frequency, b: Frequency) -> bool:
    return abs(a.per_year - b.per_year) <= _SAME * max(a.per_year, b.per_year)


def _bound(text: str, f: Frequency) -> str | None:
    m = _BOUND.search(text, max(0, f.start - 24), f.start)
    return " ".join(m.group("b").lower().split()) if m else None


def _said_of_one_thing(claim: Parsed, mine: Frequency, ev: Parsed, theirs: Frequency) -> bool:
    """Whether the words right before the two phrases share one: what happens so often ("tablet each
    day" / "tablet once a week"), not "atorvastatin daily" / "cholesterol checked every 3 months"."""
    mine_before = stems_before(claim.terms, mine.start, n=_ANCHOR_WORDS)
    return bool(set(mine_before) & set(stems_before(ev.terms, theirs.start, n=_ANCHOR_WORDS)))


def _about_one_thing(claim: Parsed, ev: Parsed, mine: Frequency, segment: tuple[int, int]) -> bool:
    """Whether the window's clause holds most of the words of the claim's clause outside its frequency
    phrase (its clause: up to a comma or semicolon either side)."""
    text = claim.text
    lo = max(text.rfind(",", 0, mine.start), text.rfind(";", 0, mine.start)) + 1
    ends = [i for i in (text.find(",", mine.end), text.find(";", mine.end)) if i >= 0]
    hi = min(ends, default=len(text))
    rest = [t.stem for t in claim.terms if lo <= t.start < hi and not mine.start <= t.start < mine.end]
    said = [t.stem for t in ev.terms if segment[0] <= t.start < segment[1]]
    return bool(rest) and covered(rest, said) >= _HOW_CLOSE

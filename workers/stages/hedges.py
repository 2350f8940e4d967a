"""Hedged figures: approximations ("about 5,000"), bounds ("over 12,000", "no more than 8") and
ranges ("between 5,000 and 6,000"). Pure.

A hedged figure states a range, not a point, so against another figure it is one of three things:
the same (a bound at the very value, "up to 4 g" and "4 g", either way round; an approximation
within a twentieth, or a point of a percentage), broken (the window's figure lies outside it: "Over
12,000" against "11,000"; an approximation off by more than a tenth, or two points), or open:
consistent but not what the window states ("Over 12,000" against "12,500"; "at least 14 days"
against "30 days", which in a rule is another rule). An open pair is neither found nor a conflict:
the claim is flagged, never corrected. Two bounds of one direction are read exactly ("children
under 2" and "under 16" are two categories); a figure in a range is only ever found, never broken.

A fix of a broken figure replaces the claim's hedge too, and writes the window's: "Over 12,000"
against "11,000" becomes "11,000", never "over 11,000"; "About 5,000" against "more than 6,000"
becomes "More than 6,000"; a hedge of the claim's kind said otherwise leaves the claim's words
("over 270" against "more than 190": "over 190"). A claim with no hedge words of its own takes the
bare value ("10,000" against "more than 12,500": "12,500"), since words this module does not read
("As many as", "north of", "<") may stand before it. "no more than 8" is an upper bound, "not less
than 30" a lower one; "took over 2 rivals", "the above 3 criteria" and "over 3 years" hedge nothing.

Usage::

    hedge_before("Over 12,000 people", 5)           # Hedge(mode=">", words="Over ")
    relation(">", 12000, 1, "=", 11000, 1)           # False: the window's figure breaks the bound
    relation(">", 12000, 1, "=", 12500, 1)           # None: open
    rewritten(Hedge(">", "Over "), EXACT, "11,000", upper=True)  # (5, "11,000")
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

__all__ = ["APPROX", "EXACT", "Hedge", "HedgeMode", "hedge_before", "relation", "rewritten"]

# "~" about, "-" nearly (about, and below), ">" at least, "<" at most, "r" one end of a range.
HedgeMode = Literal["=", "~", "-", ">", "<", "r"]

# An approximation is the same figure within a twentieth and another one beyond a tenth: "about
# 5,000" is 4,900, not 4,200; 4,600 is left open. A percentage is read in points: "about 20%" is
# 19%, not 17%.
APPROX = 0.05
_APPROX_APART = 0.10
_POINTS_SAME = 1.0
_POINTS_APART = 2.0
_LOOK_BACK = 48
_MODIFIER = (
    r"(?:(?:just|well|slightly|far|much|way|a\s+little|a\s+bit|comfortably|considerably|significantly)\s+)?"
)
_WORDS: tuple[tuple[HedgeMode, str], ...] = (
    # Negated bounds first: "no more than 8" is at most 8, "not less than 30" at least 30.
    ("<", r"(?:no|not)\s+(?:more|greater|higher)\s+than|not\s+(?:exceeding|above|over|in\s+excess\s+of)"),
    (">", r"(?:no|not)\s+(?:fewer|less|lower)\s+than|not\s+(?:under|below)"),
    ("~", r"about|around|approximately|approx\.|roughly|circa|some|close\s+to|(?:an?\s+)?estimated"),
    ("-", r"nearly|almost"),
    (
        ">",
        r"over|more\s+than|above|at\s+least|exceeding|upwards\s+of|in\s+excess\s+of|greater\s+than"
        r"|higher\s+than|a\s+minimum\s+of",
    ),
    (
        "<",
        r"under|less\s+than|fewer\s+than|lower\s+than|below|up\s+to|at\s+most|a\s+maximum\s+of",
    ),
)
_HEDGES = tuple((mode, re.compile(rf"\b{_MODIFIER}(?:{w})\s+\Z", re.IGNORECASE)) for mode, w in _WORDS)
_TILDE = re.compile(r"~\s*\Z")
# A negation before a bound in its clause ("do not take more than 8", "Nobody works more than 40"):
# the bound is the other way round, or the claim says what it may not be; read as no hedge at all.
_NEGATION = re.compile(r"\b(?:not|never|no|cannot|nobody|none|neither|nor|without)\b|n['’]t\b", re.IGNORECASE)
_CLAUSE_END = re.compile(r"[.;:!?]\s")
_CLAUSE_LOOK = 200
# "over"/"under"/"above"/"below" as a preposition or an adjective: "took over 2 rivals", "the above
# 3 criteria", "over 3 years", "under 2 hrs".
_LOOSE = frozenset({"over", "under", "above", "below"})
_PHRASAL = re.compile(
    r"\b(?:the|took|take|takes|taking|taken|won|win|wins|winning|hand|handed|hands|turn|turned|turns|pass"
    r"|passed|ran|run|carried|carry|presided|preside|fought|argued|spread|chosen|picked|prevailed|triumphed"
    r"|victory|favou?red|ranked|listed|mentioned|shown|stated)\s+\Z",
    re.IGNORECASE,
)
# Where a loose word ("over", "up to", "exceeding") can only be a bound: opening its clause, or after
# a preposition, "has" or "is" ("in over 20 countries", "has over 400", "were up to 40% higher").
# Elsewhere it may be the verb's or a noun's ("repaid over 60 instalments", "went up to $45", "doses
# not exceeding 4 g"), so dropping it from a fix could garble the text.
_BOUND_PLACE = re.compile(
    r"\b(?:in|of|with|by|for|from|at|among|than|to|and|or|has|have|had|is|are|was|were|be|been|totall?ing"
    # verbs whose object is a count: "drew over 12,000", "employs over 300", "has written over 400"
    r"|drew|draws|attracted|attracts|employ|employs|employed|received|receives|raised|raises|sold|sells"
    r"|recorded|records|reported|reports|earned|earns|wrote|written|published|enrolled|treated|tested"
    r"|killed|injured|affected|displaced|evacuated|hosted|hosts|housed|houses|serves|served|contains"
    r"|contained|includes|included|numbered|reached|reaches|spent|spends|cost|costs)\s*\Z",
    re.IGNORECASE,
)
_DURATION = re.compile(
    r"\s*(?:years?|yrs?|months?|weeks?|days?|nights?|hours?|hrs?|minutes?|mins?|seconds?|secs?|decades?"
    r"|centuries|seasons?|quarters?|generations?|periods?)\b",
    re.IGNORECASE,
)
# "between 5,000 and 6,000": both ends.
_RANGE_OPEN = re.compile(r"\bbetween\s+\Z", re.IGNORECASE)
_RANGE_END = re.compile(r"\s+and\s+\S*\d")
_RANGE_CLOSE = re.compile(r"\bbetween\s+\S*\d[\d,.]*(?:\s*[a-z%]+)?\s+and\s+\Z", re.IGNORECASE)
# "50 or more", "18 years or older", "65 and over", "65+": a bound written after the figure; "The
# maximum fine is $25,000", "a minimum age of 18": one said by a word before it in its clause.
_AFTER = re.compile(
    r"(?:\s+\w+)?\s+(?:or\s+(?P<way>more|over|above|older|greater|higher|less|fewer|under|below|younger|lower)"
    r"|and\s+(?P<and>over|above|up|under|below))\b(?!\s+than)|(?P<plus>\+)",
    re.IGNORECASE,
)
_UP = frozenset({"more", "over", "above", "older", "greater", "higher"})
# ... within five words of the figure; "cap" only as a limit ("a cap of 5%", not "Under-21 cap Smith").
_WORDED = re.compile(
    r"\b(?:(?P<min>minimum|min\.)|maximum|max\.|limit(?:ed)?|capped|cap(?=\s+(?:of|is|was|at)\b)|ceiling)\b"
    r"(?=(?:\W+\w+){0,5}\W*\Z)",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Hedge:
    mode: HedgeMode = "="
    words: str = ""  # as written, with the space after: "Over ", "no more than "; never for a range
    # A bound said elsewhere than right before the figure ("50 or more", "The maximum fine is
    # $25,000"): against another kind of hedge open where it would be broken; a fix keeps the claim's.
    elsewhere: bool = False
    loose: bool = False  # "over", "up to" where it may be a preposition: open where it would be broken


EXACT = Hedge()
_RANGE = Hedge("r")


def hedge_before(text: str, start: int, end: int | None = None) -> Hedge:
    """The hedge of a figure at `start` (its end at `end`, to see what it counts and what follows)."""
    before = text[max(0, start - _LOOK_BACK) : start]
    if _RANGE_CLOSE.search(before) or (_RANGE_OPEN.search(before) and _follows(_RANGE_END, text, end)):
        return _RANGE
    after = _AFTER.match(text, end) if end is not None else None
    if after is not None:
        way = (after.group("way") or after.group("and") or "").lower()
        return Hedge(">" if after.group("plus") or way in _UP else "<", elsewhere=True)
    tilde = _TILDE.search(before)
    clause = _clause_start(text, start)
    hedge = Hedge("~", tilde.group(0)) if tilde else _before(text, start, end, clause)
    return _worded(text, start, clause) if hedge is EXACT else hedge


def _clause_start(text: str, start: int) -> int:
    """Where the figure's clause starts (a clause longer than `_CLAUSE_LOOK` is read from there)."""
    first = max(0, start - _CLAUSE_LOOK)
    return max((m.end() for m in _CLAUSE_END.finditer(text, first, start)), default=first)


def _worded(text: str, start: int, clause: int) -> Hedge:
    """A bound a word of the clause says ("The maximum fine is $25,000"), the nearest one."""
    word = next(reversed(list(_WORDED.finditer(text, clause, start))), None)
    if word is None or _NEGATION.search(text, clause, start):
        return EXACT
    return Hedge(">" if word.group("min") else "<", elsewhere=True)


def _follows(pattern: re.Pattern[str], text: str, end: int | None) -> bool:
    return end is not None and pattern.match(text, end) is not None


def _before(text: str, start: int, end: int | None, clause: int) -> Hedge:
    for mode, pattern in _HEDGES:
        m = pattern.search(text, max(clause, start - _LOOK_BACK), start)
        if m is None:
            continue
        head = m.group(0).split()[-1].lower()
        if head in _LOOSE and (_PHRASAL.search(text, clause, m.start()) or _follows(_DURATION, text, end)):
            return EXACT
        # A bound is undone by a negation anywhere before it in its clause, an approximation by "not".
        if _NEGATION.search(text, clause if mode in "<>" else max(clause, m.start() - 4), m.start()):
            return EXACT
        core = " ".join(m.group(0).lower().split()[-2:])
        loose = (head in _LOOSE and not core.startswith("not")) or core == "up to" or head == "exceeding"
        opens = not text[clause : m.start()].strip()
        loose = loose and not opens and not _BOUND_PLACE.search(text, clause, m.start())
        return Hedge(mode, m.group(0), loose=loose)
    return EXACT


def relation(
    mine: HedgeMode,
    value: float,
    step: float,
    theirs: HedgeMode,
    other: float,
    other_step: float,
    *,
    points: bool = False,
) -> bool | None:
    """Whether the claim's hedged figure (`mine`, `value`, half a `step` of precision) is the window's:
    True when they are the same, False when the window's breaks it, None when the hedges leave it
    open. Two unhedged figures are not this function's business (exact reading, `slots.values_match`)."""
    slack = max(step, other_step) / 2
    same = abs(value - other) <= slack
    if "r" in (mine, theirs):
        return True if same else None
    if mine in "<>" and theirs in "<>":
        return _bounds(mine, value, theirs, other, slack)
    if mine in "<>":
        return True if same and theirs == "=" else _kept(mine, value, other, slack, approx=theirs in "~-")
    if theirs in "<>":
        return True if same and mine == "=" else _kept(theirs, other, value, slack, approx=mine in "~-")
    # "nearly 3,000" is under 3,000: a window's 3,500 breaks it, whatever the tolerance.
    if (mine == "-" and other > value + slack) or (theirs == "-" and value > other + slack):
        return False
    return _near(value, other, slack, points=points)


def _bounds(mine: HedgeMode, value: float, theirs: HedgeMode, other: float, slack: float) -> bool | None:
    """Two bounds: one direction reads exactly; opposite ones conflict only when they cannot meet."""
    if mine == theirs:
        return abs(value - other) <= slack
    apart = other <= value + slack if mine == ">" else other >= value - slack
    return False if apart else None


def _kept(mode: HedgeMode, bound: float, other: float, slack: float, *, approx: bool) -> bool | None:
    """None when `other` lies on the bound's side (consistent, not stated), False when it breaks the
    bound (an approximate `other` by more than a twentieth)."""
    gap = other - bound if mode == ">" else bound - other
    if gap >= -slack or (approx and -gap <= APPROX * max(abs(bound), abs(other))):
        return None
    return False


def _near(value: float, other: float, slack: float, *, points: bool) -> bool | None:
    """An approximation: the same within a twentieth, another figure beyond a tenth, open between; a
    percentage within a point and beyond two as well ("about 1%" is not 0.2%, nor 2% 2.9%)."""
    gap, size = abs(value - other), max(abs(value), abs(other))
    same, apart = APPROX * size, _APPROX_APART * size
    if points:
        same, apart = min(same, _POINTS_SAME), min(apart, _POINTS_APART)
    if gap <= max(slack, same):
        return True
    return False if gap > max(slack, apart) else None


def rewritten(mine: Hedge, theirs: Hedge, value: str, *, upper: bool) -> tuple[int, str]:
    """A fix of a hedged figure: how many characters before the figure it replaces (the claim's hedge)
    and what it writes (the window's value, with the window's hedge), capitalised where the replaced
    text opens a sentence (`upper`). "about 5,000" against "4,200" keeps its "about"; "Over 12,000"
    against "11,000" becomes "11,000", "Nearly 3,000" against "3,500" "3,500"; "About 5,000" against
    "more than 6,000", "More than 6,000"; "up to 5 years" against "The maximum term is 7 years", "up
    to 7 years"; "10,000" against "more than 12,500", "12,500"."""
    # The claim keeps its words and takes the bare value where it has no hedge words of its own
    # ("launched over 10 years ago", read as exact, gains no "more than"), where its hedge is the
    # window's kind said otherwise ("over" and "more than"), an approximation against a plain
    # figure, or a bound the window states in other words ("limited to $1,000" gains no "up to").
    if (
        not mine.words
        or mine.mode == theirs.mode
        or (mine.mode == "~" and theirs.mode == "=")
        or theirs.elsewhere
    ):
        return 0, value
    words = theirs.words
    if words and value[1:].islower():  # a count in words after the hedge: "more than fifteen"
        value = value[:1].lower() + value[1:]
    text = words + value
    first = text[:1].upper() if upper else (text[:1].lower() if words else text[:1])
    return len(mine.words), first + text[1:]

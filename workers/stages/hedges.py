"""Hedged figures: approximations ("about 5,000", "in the region of 3,000"), bounds ("over 12,000",
"no more than 8", "<5%", "≥65") and ranges ("between 5,000 and 6,000", "5,000 to 6,000", "2-4 mg").
Pure.

A hedged figure states a range, not a point, so against another figure it is one of three things:
the same (a bound at the very value, "up to 4 g" and "4 g", either way round; an approximation
within a twentieth, or a point of a percentage), broken (the window's figure lies outside it: "Over
12,000" against "11,000"; an approximation off by more than a tenth, or two points), or open:
consistent but not what the window states ("Over 12,000" against "12,500"; "at least 14 days"
against "30 days", which in a rule is another rule). An open pair is neither found nor a conflict:
the claim is flagged, never corrected. Two bounds of one direction are read exactly ("children
under 2" and "under 16" are two categories), and so are the same ends of two ranges ("5 to 10
years" against "2 to 10 years"); an end of a range against any other figure is only ever found,
never broken, since a fix of one end would leave the other ("from 5,500 to 6,000" for "5,500"). A
change is no range: "rose from 4% to 5%" states two figures.

A fix of a broken figure replaces the claim's hedge too, and writes the window's: "Over 12,000"
against "11,000" becomes "11,000", never "over 11,000"; "About 5,000" against "more than 6,000"
becomes "More than 6,000"; a hedge of the claim's kind said otherwise leaves the claim's words
("over 270" against "more than 190": "over 190"). A claim with no hedge words of its own takes the
bare value ("10,000" against "more than 12,500": "12,500"), since words this module does not read
("in all", "a total of") may stand before it. "no more than 8" is an upper bound, "not less
than 30" a lower one; "took over 2 rivals", "the above 3 criteria" and "over 3 years" hedge nothing.

Usage::

    hedge_before("Over 12,000 people", 5)           # Hedge(mode=">", words="Over ")
    relation(">", 12000, 1, "=", 11000, 1)           # False: the window's figure breaks the bound
    relation(">", 12000, 1, "=", 12500, 1)           # None: open
    rewritten(Hedge(">", "Over "), EXACT, "11,000", upper=True)  # (5, "11,000")
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from workers.stages.units import SCALES

__all__ = ["APPROX", "EXACT", "Hedge", "HedgeMode", "hedge_before", "relation", "rewritten", "unread_second"]

# "~" about, "-" nearly (about, and below), ">" at least, "<" at most, "[" and "]" the low and high
# ends of a range, "(" and ")" the first and second figures of a change or a tally ("rose from 4% to
# 5%", "voted 3 to 9"): two facts, each read exactly, and compared only with the same place of a span.
HedgeMode = Literal["=", "~", "-", ">", "<", "[", "]", "(", ")"]

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
    (
        "<",
        r"(?:no|not)\s+(?:more|greater|higher|older)\s+than|not\s+(?:exceeding|above|over|in\s+excess\s+of)",
    ),
    (">", r"(?:no|not)\s+(?:fewer|less|lower|younger)\s+than|not\s+(?:under|below)"),
    # "greater than or equal to 65" before "than" alone.
    (">", r"(?:greater|more|higher)\s+than\s+or\s+equal\s+to"),
    ("<", r"(?:less|fewer|lower)\s+than\s+or\s+equal\s+to"),
    (
        "~",
        r"about|around|approximately|approx\.|roughly|circa|some|close\s+to|(?:an?\s+)?estimated"
        r"|(?:in|on|of)\s+the\s+(?:region|order)\s+of|something\s+like",
    ),
    ("-", r"nearly|almost"),
    (
        ">",
        r"over|more\s+than|above|at\s+least|exceeding|upwards?\s+of|in\s+excess\s+of|greater\s+than"
        r"|higher\s+than|older\s+than|a\s+minimum\s+of",
    ),
    (
        "<",
        # not "as many as": in a report it states the peak ("As many as 40 were hurt" against 32 is wrong)
        r"under|less\s+than|fewer\s+than|lower\s+than|younger\s+than|below|up\s+to|at\s+most|a\s+maximum\s+of",
    ),
)
_HEDGES = tuple((mode, re.compile(rf"\b{_MODIFIER}(?:{w})\s+\Z", re.IGNORECASE)) for mode, w in _WORDS)
_TILDE = re.compile(r"~\s*\Z")
# "<5%", "≥ 65", ">= 18": a bound in symbols; not an arrow ("->5", "=>"), nor a comparison of two
# figures ("2% < 4%", "12 in arm A > 9 in arm B"): a figure earlier in the clause.
_SYMBOL = re.compile(r"(?<![-=<>])(?P<sym><=|>=|[<>≤≥])[ \t]*\Z")
_DIGIT = re.compile(r"\d")
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
_AND_HIGH = re.compile(
    r"\s+and\s+(?:(?:US|A|C)?(?=\$))?(?P<cur>[$£€]?)(?P<num>\d[\d,]*(?:\.\d+)?)", re.IGNORECASE
)
_RANGE_CLOSE = re.compile(r"\bbetween\s+\S*\d[\d,.]*(?:\s*[a-z%]+)?\s+and\s+\Z", re.IGNORECASE)
# "5,000 to 6,000", "2%-3%", "$5–6 million", "from 2 to 4 years": a span of two figures; a range when
# the first is the smaller, in one currency or both percentages, and it is no change or tally (below);
# otherwise two facts ("won 3-2", "a 5-4 ruling", "3 to 1", "rose from 4% to 5%").
_SCALE_WORD = r"\s?(?:thousand|million|billion|trillion|bn|mn|m|k)\b"
_SCALE = rf"(?P<scale>{_SCALE_WORD})?"
_AMOUNT = r"(?P<cur>[$£€]?)(?P<num>\d[\d,]*(?:\.\d+)?)" + _SCALE
_TO = r"(?:[ \t]?[-–—][ \t]?|\s+to\s+)"
_SPAN_HIGH = re.compile(_TO + _AMOUNT + r"(?P<pct>\s?%)?", re.IGNORECASE)
# The low end may carry its unit too: "2 mg to 4 mg", "5 percent to 6 percent".
_SPAN_LOW = re.compile(
    r"(?<![\w.,])" + _AMOUNT + r"(?P<pct>\s?%)?(?:[ \t]?[^\W\d_]+\.?)?" + _TO + r"\Z", re.IGNORECASE
)
_SCALE_AFTER = re.compile(rf"(?P<scale>{_SCALE_WORD})", re.IGNORECASE)
_AMOUNT_AT = re.compile(r"(?:(?:US|A|C)?(?=\$))?" + _AMOUNT + r"(?P<pct>\s?%)?", re.IGNORECASE)
# A change ("rose from 4% to 5%", "cut rates 5% to 4%", "leapt 10% to 40%") or a tally ("voted 3 to 9",
# "lost 98 to 104", "odds of 1 to 5"): its figures are two facts, not a range. A change word stands
# within three words before the first figure, or anywhere earlier in the clause where "from" comes
# right before it ("rose sharply over the past decade from $5,000 to $7,000"). A span misread one way
# on one side and the other way on the other is still compared place by place; the reading matters
# only against a single figure (a range's end is then never fixed, a change's figure is).
_VERBS = (
    r"rose|rise|rises|rising|risen|f[ae]ll|falls|falling|fallen|grew|grows?|growing|grown|climb\w*|drop\w*"
    r"|declin\w*|jump\w*|surg\w*|slip\w*|slid\w*|soar\w*|plung\w*|plummet\w*|cuts?|cutting|went|goes"
    r"|going|gone|doubl\w*|tripl\w*|halv\w*|upgrad\w*|downgrad\w*|hik\w*|swung|edg\w*|swell\w*|swollen"
    r"|add|adds|added|adding|spik\w*|ticked|ticks|ticking|leap\w*|s[aiu]nk\w*|gain\w*|lost|lose|loses"
    r"|losing|eased|eases|easing|slump\w*|tumbl\w*|rall\w*|dipped|dips|dipping|firmed|firming|rebound\w*"
    r"|slowed|slowing|slows|shot|crash\w*|collaps\w*|shed|sheds|shedding|crept|creep\w*|inch\w*|balloon\w*"
    r"|pared|voted|votes?|voting|split|scored|beat\w*|won|wins?|winning|defeat\w*|odds|tally|tied|drew|draw|up|down"
)
_ADJECTIVES = (
    r"increas\w*|decreas\w*|rais\w*|lower\w*|reduc\w*|expand\w*|shr[aiu]nk\w*|mov\w*|chang\w*|improv\w*"
    r"|widen\w*|narrow\w*|revis\w*|boost\w*|lift\w*|trim\w*|swing\w*|shift\w*|adjust\w*|extend\w*"
    r"|shorten\w*|lengthen\w*|amend\w*|updat\w*|convert\w*|accelerat\w*|deepen\w*|strengthen\w*"
    r"|weaken\w*|soften\w*|recover\w*|escalat\w*|contracted|contracting|advanc\w*"
)
# Near the figure the other change words count in their verb forms: "raised 10% to 20%", not "Recovery
# usually takes 1 to 2 years" or "Changes take effect in 30 to 60 days".
_CHANGED = rf"(?=(?:{_ADJECTIVES})\b)\w+(?:ed|ing)"
_CHANGE_NEAR = re.compile(rf"\b(?:{_VERBS}|{_CHANGED})\b(?:\W+\w+){{0,3}}\W+\Z", re.IGNORECASE)
_CHANGE_FAR = re.compile(rf"\b(?:{_VERBS}|{_ADJECTIVES})\b", re.IGNORECASE)
_FROM = re.compile(r"\bfrom\s+\Z", re.IGNORECASE)
_TALLY_AFTER = re.compile(r"\s+(?:against|in\s+favou?r|votes?)\b", re.IGNORECASE)
# "50 or more", "18 years or older", "65 and over", "65+": a bound written after the figure (not "under
# 2 rivers and over 2 fault lines": the next figure's); "The
# maximum fine is $25,000", "a minimum age of 18": one said by a word before it in its clause.
_AFTER = re.compile(
    r"(?:\s+\w+)?\s+(?:or\s+(?P<way>more|over|above|older|greater|higher|less|fewer|under|below|younger|lower)"
    r"|and\s+(?P<and>over|above|up|under|below|older|younger))\b(?!\s+(?:than|[$£€]?\d))|(?P<plus>\+)",
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
    scale: float = 1.0  # the low end of "5 to 6 million" counts in the high end's millions
    lone: bool = False  # "18-65": no figure is read after an ASCII hyphen, so this end has no partner


EXACT = Hedge()
_LOW, _HIGH = Hedge("["), Hedge("]")
_FIRST, _SECOND = Hedge("("), Hedge(")")


def hedge_before(text: str, start: int, end: int | None = None) -> Hedge:
    """The hedge of a figure at `start` (its end at `end`, to see what it counts and what follows)."""
    before = text[max(0, start - _LOOK_BACK) : start]
    if _RANGE_CLOSE.search(before):
        return _HIGH
    if _RANGE_OPEN.search(before) and _follows(_RANGE_END, text, end):
        assert end is not None
        here, high = _AMOUNT_AT.match(text, start), _AND_HIGH.match(text, end)
        return _low(here, high) if here and high else _LOW
    span = _span(text, start, end)
    if span is not EXACT:
        return span
    after = _AFTER.match(text, end) if end is not None else None
    if after is not None:
        way = (after.group("way") or after.group("and") or "").lower()
        return Hedge(">" if after.group("plus") or way in _UP else "<", elsewhere=True)
    clause = _clause_start(text, start)
    hedge = _sign(text, start, clause) or _before(text, start, end, clause)
    return _worded(text, start, clause) if hedge is EXACT else hedge


def _sign(text: str, start: int, clause: int) -> Hedge | None:
    """ "~300 km", "<5%", "≥ 65": a hedge in symbols. A bound in symbols is loose: its fix would
    have to write it in words ("p<0.01" against "p = 0.03" is no "p0.03")."""
    before = text[max(clause, start - _LOOK_BACK) : start]
    if tilde := _TILDE.search(before):
        return Hedge("~", tilde.group(0))
    if (sign := _SYMBOL.search(before)) is None:
        return None
    if _DIGIT.search(text, clause, start - len(before) + sign.start()):
        return EXACT  # a comparison
    return Hedge("<" if sign.group("sym") in ("<", "<=", "≤") else ">", sign.group(0), loose=True)


def _span(text: str, start: int, end: int | None) -> Hedge:
    """The low or the high end of a span of figures ("5,000 to 6,000"), else `EXACT`."""
    if end is None:
        return EXACT
    high = _SPAN_HIGH.match(text, end)
    here = _AMOUNT_AT.match(text, start)
    if high is not None and here is not None:
        first = _low(here, high) if _ranges(here, high, text, start) else _FIRST
        return replace(first, lone=True) if text[end : high.start("num")] == "-" else first
    low = _SPAN_LOW.search(text, max(0, start - _LOOK_BACK), start)
    if low is not None and here is not None:
        return _HIGH if _ranges(low, here, text, low.start()) else _SECOND
    return EXACT


def unread_second(text: str, end: int) -> float | None:
    """The second figure of a span after an ASCII hyphen, which is no slot of its own ("18-65": 65;
    "$5-6 million": 6,000,000), for a first figure ending at `end`; None where there is none."""
    high = _SPAN_HIGH.match(text, end)
    return _amount(high) if high is not None and text[end : high.start("num")] == "-" else None


def _low(here: re.Match[str], high: re.Match[str]) -> Hedge:
    """The low end; in "5 to 6 million" and "between $5 and $6 million" it counts in millions too."""
    after = _SCALE_AFTER.match(high.string, high.end())
    scale = (after.group("scale") if after else high.groupdict().get("scale") or "").strip().lower()
    # not "$100 to $1 million" (the low end is the smaller number as written), nor "3 to 4 m" (metres)
    unscaled = float(high.group("num").replace(",", ""))
    metres = scale == "m" and not (here.group("cur") or high.group("cur"))
    if here.group("scale") or not scale or metres or _amount(here) >= unscaled:
        return _LOW
    return Hedge("[", scale=SCALES[scale])


def _ranges(low: re.Match[str], high: re.Match[str], text: str, first: int) -> bool:
    """Whether two amounts span a range: the first smaller, of one kind, neither a change nor a tally."""
    clause = _clause_start(text, first)
    if _CHANGE_NEAR.search(text, max(clause, first - _LOOK_BACK), first):
        return False
    if _FROM.search(text, clause, first) and _CHANGE_FAR.search(text, clause, first):
        return False
    if _TALLY_AFTER.match(text, high.end()):
        return False
    currencies = {m.group("cur") for m in (low, high)} - {""}
    if len(currencies) > 1 or (currencies and (low.group("pct") or high.group("pct"))):
        return False  # "$5 to €6", "4% to $5bn"
    if low.group("pct") and not high.group("pct"):
        return False  # "3% to 450 pence"; "2 to 3%" is a range
    return _amount(low) < _amount(high)


def _amount(m: re.Match[str]) -> float:
    scale = (m.groupdict().get("scale") or "").strip().lower()
    scale = "" if scale == "m" and not m.group("cur") else scale  # "4 m" is metres
    return float(m.group("num").replace(",", "")) * SCALES.get(scale, 1.0)


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
    spans = {mine, theirs} & set("[]()")
    if spans and {mine, theirs} <= set("[()]"):
        # two spans, range or change: the same place read exactly, "aged 12 to 17" against "6 to 12"
        # never 12 for 12
        return same if _place(mine) == _place(theirs) else None
    if spans & set("()"):
        return same  # a figure of a change is a fact
    if spans:
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


def _place(mode: HedgeMode) -> int:
    return 0 if mode in "[(" else 1


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

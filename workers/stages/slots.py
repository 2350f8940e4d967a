"""Slots: the checkable values of a sentence, for aligning a claim with its evidence. Pure.

A slot is a figure (with unit and scale), a percentage, a date or year, a named entity, a negation or a
quantifier, with a normalised value and its (start, end) in the text. Two slots of one kind with
different values are what a contradiction is made of.

Usage::

    slots = extract_slots("Revenue was $4.2 bn in 2023.")
    [(s.kind, s.value) for s in slots]          # [(FIGURE, "4200000000 USD"), (YEAR, "2023")]
    values_match(slots[0], other)               # True / False, None when not comparable
    # stages.render.render_like(slots[0], other): the other value written like "$4.2 bn": "$3.9 bn"
"""

from __future__ import annotations

import itertools
import re

from workers.stages._text import MONTH_NAMES, MONTHS, NUMBER_WORDS, WEEKDAYS
from workers.stages.clock import CLOCK, CLOCK_EITHER_HALF, CLOCKS, ClockTime, clock_times, same_time
from workers.stages.durations import durations
from workers.stages.hedges import hedge_before, relation
from workers.stages.kinds import head, names_another
from workers.stages.polarity import negations, polarity, quantifiers
from workers.stages.slot_types import Figure, Slot, SlotKind, When

# Re-exported: content words were split out of this module and are still imported from here.
from workers.stages.terms import Term, content_terms, stem, terms_match
from workers.stages.units import CURRENCY_CODES, SCALES, UNIT_INFO, canonical_unit

__all__ = [
    "NUMBER_WORDS",
    "Figure",
    "Slot",
    "SlotKind",
    "Term",
    "When",
    "content_terms",
    "extract_slots",
    "hedged",
    "left_open",
    "polarity",
    "same_unit",
    "stem",
    "terms_match",
    "values_match",
]


# ---- tables ------------------------------------------------------------------------------------


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_MONTHS = MONTHS
_MONTH_NUM = {m: i + 1 for i, m in enumerate(_MONTHS)} | {m[:3]: i + 1 for i, m in enumerate(_MONTHS)}
_MONTH_NUM["sept"] = 9
_CALENDAR = frozenset(_MONTH_NUM) | frozenset(WEEKDAYS)
_MONTH_FULL = MONTH_NAMES
_MONTH_RE = rf"(?:{_MONTH_FULL}|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\.?"
# A capitalised word right before a day-month date makes it part of a name ("Rocky 4 June").
_AFTER_NAME = re.compile(r"(?:^|[\s(])(?!(?:On|In|By|From|Since|Until|Before|After)\b)[A-Z][\w'’-]*\s+\Z")

# Currency codes written before or after an amount ("NOK 4.2 billion", "250 SEK"); after one, not
# before the next number ("In 2023 NOK 4 billion": the code is the 4 billion's).
_CODES = "|".join(CURRENCY_CODES)
_FIGURE = re.compile(
    r"(?<![\w.,$€£¥₹-])"
    rf"(?P<pre>(?:(?:US|A|C)?\$|€|£|¥|₹|{_CODES}|Rs\.?)[ \t\u00a0\u202f]?)?"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?P<scale>\s?(?:[Tt]housand|[Mm]illion|[Bb]illion|[Tt]rillion|lakh|crore|[Bb]n|mn|[Tt]rn?|[MmKkBb])(?!\w))?"
    r"(?P<unit>[\s-]?(?:square\s+(?:feet|foot|metres?|meters?|kilometres?|kilometers?|miles?)"
    r"|sq\.?\s?(?:ft|feet|foot|metres?|meters?|m|km|kilometres?|kilometers?|mi|miles?)|(?:ft|m|km)[2²]"
    r"|hectares?|ha|acres?|lbs?|oz"
    rf"|%|percent(?:age points?)?|per\s?cent|pct|(?:{_CODES})(?![ \t]?\d)|dollars?|euros?|rupees?"
    r"|yen|(?:milli|centi|kilo|micro)?(?:grams?|metres?|meters?)|mg|kg|g|mcg|µg|μg|ug|km|cm|mm|m|miles?|mi|tonnes?|tons"
    r"|(?:milli)?(?:litres?|liters?)|mL|ml|L)(?!\w))?"
    r"(?!\w)"
)
# A web address, an e-mail address or a DOI: its digits and names are parts of an identifier.
_ADDRESS = re.compile(
    r"\b(?:https?://|www\.)\S+|\b[\w.+-]+@[\w-]+\.[\w.-]+|\b(?:doi:\s?)?10\.\d{4,9}/\S+", re.IGNORECASE
)
# An act's or a licence's number: a year and three digits or more ("2023/915"), after "No" ("No
# 1881/2006"), or with a leading zero ("PL 04569/0321"); not "140/90 mmHg", "the 2023/24 tax year",
# "a 60/40 split", "01/05/2023".
_NUMBERED = re.compile(
    r"(?:(?<![\w/.,])(?:19|20)\d\d/\d{3,5}|(?<=No )\d{1,5}/\d{1,5}|(?<=No\. )\d{1,5}/\d{1,5}"
    # a reference with a leading zero ("PL 04569/0321")
    r"|(?<![\w/.,])(?:0\d{2,}/\d+|\d+/0\d{2,}))(?![\w/])"
)
# Counts read as figures: "zero" and "one" are left out (a pronoun, "one of", "one day" mean no count).
_COUNT_WORDS = {w: float(n) for n, w in enumerate(NUMBER_WORDS) if n >= 2} | {
    w: float(10 * n)
    for n, w in enumerate(("thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), 3)
}
_WORD_NAMES = {int(v): w for w, v in _COUNT_WORDS.items()}
# A count word before a lower-case word ("three managers", "six new stars"), with a scale word after it
# ("twenty thousand employees": 20,000), not in a range ("six to seven", "two or three",
# "two-thirds"; "up to six" is a bound, and read), not a part of a larger number ("one hundred and
# twenty": read as none) nor leading a name ("Three Gorges Dam").
_SCALE_WORDS = {"hundred": 100.0, "thousand": 1e3, "million": 1e6, "billion": 1e9, "trillion": 1e12}
_COUNT = re.compile(
    r"(?<![\w-])(?:(?<=\bup to )|(?<!\bto ))(?<!\bor )"
    r"(?<!hundred )(?<!thousand )(?<!hundred and )(?<!thousand and )"
    r"(?P<num>"
    + "|".join(_COUNT_WORDS)
    + r")(?:\s+(?P<scale>"
    + "|".join(_SCALE_WORDS)
    + r"))?(?=\s+(?!to\b|or\b|and\b|"
    + r"\b|".join(_SCALE_WORDS)
    + r"\b)(?-i:[a-z]))",
    re.IGNORECASE,
)
_DATES = (
    (
        re.compile(
            rf"\b(?P<mon>{_MONTH_RE})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?(?:\s?,)?\s+(?P<year>\d{{4}})\b"
        ),
        "mdy",
    ),
    (
        re.compile(
            rf"\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_RE})(?:\s?,)?\s+(?P<year>\d{{4}})\b"
        ),
        "dmy",
    ),
    (re.compile(r"\b(?P<year>\d{4})-(?P<mon>\d{2})-(?P<day>\d{2})\b"), "iso"),
    (re.compile(rf"\b(?P<mon>{_MONTH_RE})(?:\s?,)?\s+(?P<year>\d{{4}})\b"), "my"),
    (re.compile(rf"\b(?P<mon>{_MONTH_RE})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s?,?\s*\d)"), "md"),
    # "from 23 January to polling day, 22 May": British order without a year is a date too, not a
    # bare 23 beside a month nobody reads. Full month names only, not after a capitalised word and
    # not before one: "2 Jan Kowalski", "Rocky 4 June", "Chapter 12 March of the Penguins" are names.
    (
        re.compile(
            rf"(?<![\d.,])\b(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?(?P<mon>{_MONTH_FULL})(?![\w-])"
            rf"(?!\s?,?\s*\d)(?!\s+[A-Z])"
        ),
        "dm",
    ),
)
_YEAR_BEFORE = re.compile(
    r"\b(?:in|since|by|from|until|till|to|of|during|year|fiscal|FY|early|late|mid|the|and|or|before|after|between"
    r"|through|circa|c\.|around|as)\s+\Z|[-–(]\Z",
    re.IGNORECASE,
)
_YEAR_AFTER = re.compile(r"\s*(?:[,.;:)!?–-]|\Z|(?:and|to|through|when|while|with|as|after|before)\b)")
_WORD = re.compile(r"[A-Za-z][\w'’&-]*")
_CONNECTORS = frozenset({"of", "de", "da", "del", "van", "von", "la", "le", "&"})
# "and" and "for" join one name only where it ends as a body's name does and its first part does not
# ("Securities and Exchange Commission", "Centers for Disease Control and Prevention"); elsewhere they
# join two ("Morgan Stanley and Lazard", "Harvard University and Yale University"). A fix taken from
# half a name said something no document does ("issued by the Securities and Human Services").
_SOFT_CONNECTORS = frozenset({"and", "for"})
_JOINING = _CONNECTORS | _SOFT_CONNECTORS
_AFTER_THE = re.compile(r"\bthe\s+\Z", re.IGNORECASE)
_BODY_ENDS = _words(
    """administration agency authority board bureau commission committee corporation council department
    development excellence foundation fund institute institution ministry office organization
    organisation prevention service services society association trust university college centre
    center tribunal network act company"""
)
_NOT_ACRONYMS = frozenset({"USD", "EUR", "GBP", "INR", "JPY", "AM", "PM", "OK", "II", "III", "IV"})
_ABBREVIATIONS = frozenset(
    {"dr", "mr", "mrs", "ms", "st", "prof", "inc", "co", "ltd", "jr", "sr", "vs", "no"}
)
# Capitalised at a sentence start or as a title, but never the start of a name.
_LEADING = _ABBREVIATIONS | _words(
    """the a an this that these those in on at for from by with as to of it its he she they we our their his
    her but and or if when while after before during since although however also yes no"""
)


# ---- extraction --------------------------------------------------------------------------------


def extract_slots(text: str) -> tuple[Slot, ...]:
    """Every slot in `text`, by position; figures never overlap dates, entities overlap neither."""
    taken: list[Slot] = []
    used = bytearray(len(text))
    for m in _ADDRESS.finditer(text):  # no value of its own: "abs/2012.15730" is no figure to correct
        used[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    for m in _NUMBERED.finditer(text):  # "Regulation (EU) 2023/915": a number, not two figures
        used[m.start() : m.end()] = b"\x01" * (m.end() - m.start())
    for finder in (_dates, _clocks, _durations, _figures, _entities, negations, quantifiers):
        for slot in finder(text):
            if not any(used[slot.start : slot.end]):
                taken.append(slot)
                used[slot.start : slot.end] = b"\x01" * (slot.end - slot.start)
    return tuple(sorted(taken, key=lambda s: (s.start, s.end)))


def _overlaps(slot: Slot, others: list[Slot]) -> bool:
    return any(slot.start < o.end and o.start < slot.end for o in others)


def _dates(text: str) -> list[Slot]:
    found: list[Slot] = []
    for pattern, style in _DATES:
        for m in pattern.finditer(text):
            slot = _date_slot(m, style)
            if slot is not None and not _overlaps(slot, found):
                found.append(slot)
    return found


def _date_slot(m: re.Match[str], style: str) -> Slot | None:
    if style == "dm" and _AFTER_NAME.search(m.string, 0, m.start()):
        return None  # "Rocky 4 June", "Chapter 12 March": a number that is part of a name
    groups = m.groupdict()
    mon = groups["mon"]
    key = mon.rstrip(".").lower()
    month = int(mon) if mon.isdigit() else _MONTH_NUM.get(key) or _MONTH_NUM[key[:3]]
    day = int(groups["day"]) if groups.get("day") else None
    year = int(groups["year"]) if groups.get("year") else None
    if not 1 <= month <= 12 or (day is not None and not 1 <= day <= 31):
        return None
    when = When(year, month, day, style)
    return Slot(SlotKind.DATE, _when_value(when), m.start(), m.end(), m.group(0), when=when)


def _when_value(when: When) -> str:
    parts = [f"{when.year:04d}" if when.year is not None else "????"]
    parts += [f"{p:02d}" for p in (when.month, when.day) if p is not None]
    return "-".join(parts)


def _clocks(text: str) -> list[Slot]:
    """Times of day, one figure each in minutes after midnight (`stages.clock`)."""
    return [_clock_slot(text, t) for t in clock_times(text)]


def _clock_slot(text: str, t: ClockTime) -> Slot:
    unit = CLOCK_EITHER_HALF if t.either_half else CLOCK
    figure = Figure(float(t.minutes), unit, 0, 1.0, "", "", False)
    return Slot(SlotKind.FIGURE, t.value, t.start, t.end, text[t.start : t.end], figure=figure)


def _durations(text: str) -> list[Slot]:
    """ "two hours and 41 minutes" as one count of minutes, "2:20:31" as one time (`stages.durations`)."""
    found = []
    for d in durations(text):
        hedge = hedge_before(text, d.start, d.end)
        decimals = len(d.text.rpartition(".")[2]) if d.unit and "." in d.text else 0  # "1:54.62"
        figure = Figure(d.number, d.unit, decimals, 1.0, "", "", False, hedge=hedge)
        found.append(Slot(SlotKind.FIGURE, _figure_value(figure), d.start, d.end, d.text, figure=figure))
    return found


def _figures(text: str) -> list[Slot]:
    found = [slot for m in _FIGURE.finditer(text) if (slot := _figure_slot(text, m)) is not None]
    return found + [_count_slot(m) for m in _COUNT.finditer(text)]


def _count_slot(m: re.Match[str]) -> Slot:
    scale = _SCALE_WORDS[m.group("scale").lower()] if m.group("scale") else 1.0
    number, hedge = _COUNT_WORDS[m.group("num").lower()] * scale, hedge_before(m.string, m.start(), m.end())
    suffix = f" {m.group('scale')}" if m.group("scale") else ""
    figure = Figure(number, None, 0, scale, "", suffix, False, spelled=True, hedge=hedge)
    return Slot(SlotKind.FIGURE, _figure_value(figure), m.start(), m.end(), m.group(0), figure=figure)


def _figure_slot(text: str, m: re.Match[str]) -> Slot | None:
    pre, num, scale_raw, unit_raw = (m.group(g) or "" for g in ("pre", "num", "scale", "unit"))
    scale_word = scale_raw.strip()
    if scale_word == "m" and not pre and not unit_raw:  # "5 m" is metres; "$5m" is millions
        scale_raw, unit_raw, scale_word = "", scale_raw, ""
    value = float(num.replace(",", ""))
    if not (pre or scale_word or unit_raw) and _is_year(text, m.start(), m.end(), num):
        when = When(int(num), None, None, "y")
        return Slot(SlotKind.YEAR, num, m.start(), m.end(), m.group(0), when=when)
    unit = canonical_unit(pre.strip() or unit_raw.strip(" -"))  # "2.4-metre" is metres
    scale = SCALES.get(scale_word.lower(), 1.0) if scale_word else 1.0
    decimals = len(num.partition(".")[2])
    hedge = hedge_before(text, m.start(), m.end())
    scale = hedge.scale if scale == 1.0 else scale  # "5 to 6 million": the low end's millions
    figure = Figure(value * scale, unit, decimals, scale, pre, scale_raw + unit_raw, "," in num, hedge=hedge)
    kind = SlotKind.PERCENT if unit == "%" else SlotKind.FIGURE
    return Slot(kind, _figure_value(figure), m.start(), m.end(), m.group(0), figure=figure)


def _is_year(text: str, start: int, end: int, num: str) -> bool:
    """A bare four-digit number is a year after "in", "since", "the"... or standing alone; "1200 patients"
    is a count."""
    if not re.fullmatch(r"(1[0-9]|20)\d\d", num):
        return False
    if _YEAR_BEFORE.search(text, max(0, start - 16), start):
        return True
    return _YEAR_AFTER.match(text, end) is not None


def _figure_value(figure: Figure) -> str:
    number = f"{figure.number:.12g}"
    return f"{number} {figure.unit}" if figure.unit and figure.unit != "%" else number + (figure.unit or "")


# ---- named entities ----------------------------------------------------------------------------


def _entities(text: str) -> list[Slot]:
    return [slot for run in _capitalised_runs(text) if (slot := _entity_slot(text, run)) is not None]


def _capitalised_runs(text: str) -> list[list[re.Match[str]]]:
    """Capitalised words joined by single spaces (or "of", "de", ...); months and weekdays break runs."""
    runs: list[list[re.Match[str]]] = [[]]
    prev_end = -1
    for m in _WORD.finditer(text):
        word = m.group(0)
        capital = word[0].isupper() and word.lower() not in _CALENDAR
        gap = text[prev_end : m.start()]
        joined = bool(runs[-1]) and (gap == " " or (gap == " & " and capital))  # "Procter & Gamble"
        if joined and (capital or word.lower() in _JOINING):
            runs[-1].append(m)
        else:
            runs.append([m] if capital else [])
        prev_end = m.end()
    return [trimmed for run in runs for part in _split_soft(run) if (trimmed := _trim(part))]


def _trim(run: list[re.Match[str]]) -> list[re.Match[str]]:
    """Without trailing connectors ("Bank of" is "Bank"; leading words go in `_entity_slot`)."""
    while run and run[-1].group(0).lower() in _JOINING:
        run = run[:-1]
    return run


def _split_soft(run: list[re.Match[str]]) -> list[list[re.Match[str]]]:
    """The run as one name where its "and"/"for" join one (`_SOFT_CONNECTORS`), else cut at each."""
    run = _trim(run)
    cuts = [i for i, m in enumerate(run) if m.group(0).lower() in _SOFT_CONNECTORS]
    parts = [run[a + 1 : b] for a, b in itertools.pairwise([-1, *cuts, len(run)])]
    return [run] if not cuts or _one_body(run, parts) else parts


def _one_body(run: list[re.Match[str]], parts: list[list[re.Match[str]]]) -> bool:
    """Whether "and"/"for" join one body's name (`parts`: the run cut at each): after "the", ending in
    a body's word that no part before a cut ends in, and no lone acronym before a cut ("the Food and
    Drug Administration"; not "Exxon and Mobil Corporation", "the FDA and Federal Trade Commission",
    "Harvard University and Yale University"; "the UK Competition and Markets Authority" is one)."""
    after_the = run[0].group(0) == "The" or _AFTER_THE.search(run[0].string, 0, run[0].start()) is not None
    before = [[m.group(0) for m in part if m.group(0) != "The"] for part in parts[:-1]]
    return (
        after_the
        and run[-1].group(0).lower() in _BODY_ENDS
        and not any(part and part[-1].lower() in _BODY_ENDS for part in before)
        and not any(len(part) == 1 and _is_acronym(part[0]) for part in before)  # "UK Competition" is one
    )


def _entity_slot(text: str, run: list[re.Match[str]]) -> Slot | None:
    at_start = _sentence_start(text, run[0].start())
    while run and run[0].group(0).lower() in _LEADING:
        run = run[1:]
    if not run:
        return None
    start, end = run[0].start(), _strip_possessive(text, run[-1].end())
    surface = text[start:end]
    single = len(run) == 1
    # A sentence's capitalised first word is a name only where "born"/"based" and a name follow ("Mumbai
    # born Neha Sharma"); "Children born after 2010" and "Cloud based storage" name nothing.
    at_start = at_start and not _PLACE_OF.match(text, end)
    if single and not _is_acronym(surface) and (at_start or len(surface) < 2):
        return None
    if single and surface.upper() == surface and surface in _NOT_ACRONYMS:
        return None
    value = " ".join(w.lower() for w in surface.replace("’", "'").split())
    return Slot(SlotKind.ENTITY, value, start, end, surface)


_PLACE_OF = re.compile(r" (?:born|based) (?=[A-Z])")


def _strip_possessive(text: str, end: int) -> int:
    for tail in ("'s", "’s", "'", "’"):
        if text[:end].endswith(tail):
            return end - len(tail)
    return end


def _is_acronym(word: str) -> bool:
    letters = [c for c in word if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def _sentence_start(text: str, pos: int) -> bool:
    before = text[max(0, pos - 40) : pos]  # enough to see the end of the previous sentence
    head = before.rstrip(" \t\r\n\"'“‘([*-•")
    if not head or "\n" in before[len(head) :]:
        return True
    if head[-1] not in ".!?:":
        return False
    word = re.search(r"(\w+)\.?\Z", head)
    return not (head[-1] == "." and word is not None and word.group(1).lower() in _ABBREVIATIONS)


# ---- comparison and rendering ------------------------------------------------------------------


def values_match(a: Slot, b: Slot) -> bool | None:
    """Whether two slots hold the same value; None when they cannot be compared (different kinds).

    Figures agree when equal at the coarser of their two precisions ("4.2 bn" == "4,213,000,000").
    """
    if a.when is not None and b.when is not None:
        return _when_match(a.when, b.when)
    if a.figure is not None and b.figure is not None and CLOCKS & {a.figure.unit, b.figure.unit}:
        return same_time(a.figure.unit, a.figure.number, b.figure.unit, b.figure.number)
    if a.figure is not None and b.figure is not None and a.kind is b.kind:
        return _figures_match(a.figure, b.figure)
    if a.kind is not b.kind:
        return None
    if a.kind is SlotKind.ENTITY:
        return _entities_match(a.value, b.value)
    return a.value == b.value


def _when_match(a: When, b: When) -> bool | None:
    pairs = [(x, y) for x, y in ((a.year, b.year), (a.month, b.month), (a.day, b.day)) if None not in (x, y)]
    return all(x == y for x, y in pairs) if pairs else None


def _figures_match(a: Figure, b: Figure) -> bool | None:
    based = _in_base(a, b)
    if not isinstance(based, tuple):
        return based
    va, step_a, vb, step_b = based
    if {a.hedge.mode, b.hedge.mode} in ({"[", "]"}, {"(", ")"}, {"[", ")"}, {"(", "]"}):
        return None  # the first figure of one span is no value for the second of another
    if a.hedge.mode != "=" or b.hedge.mode != "=":
        return bool(_hedged(a, b, based))
    half, tiny = max(step_a, step_b) / 2, 1e-9 * max(abs(va), abs(vb), 1.0)
    if abs(abs(va - vb) - half) <= tiny:
        # At the very middle of the coarser one's step: "6.5%" may round "6.45%", but a one-digit "7%"
        # for "6.5%", "$3 billion" for "$2.5 billion" or "$1 million" for "$500,000" says another value
        return _digits(a if step_a >= step_b else b) >= 2
    return abs(va - vb) <= half + tiny


def _digits(figure: Figure) -> int:
    """Significant digits as written: "7%" 1, "6.5%" 2, "$1.50 million" 2 (trailing zeros say none)."""
    return len(str(round(abs(figure.number) / (10.0**-figure.decimals * figure.scale))).rstrip("0"))


def _hedged(a: Figure, b: Figure, based: tuple[float, float, float, float]) -> bool | None:
    """`hedges.relation` of two figures. Against another kind of hedge, a bound said elsewhere ("50 or
    more", "the maximum fine is") or a word that may be a preposition ("repaid over 60 instalments")
    is never broken, only open: the fix would have to drop or garble words it cannot read."""
    va, step_a, vb, step_b = based
    found = relation(a.hedge.mode, va, step_a, b.hedge.mode, vb, step_b, points=a.unit in ("%", "pp"))
    if found is not False or a.hedge.mode == b.hedge.mode:
        return found
    return None if a.hedge.elsewhere or b.hedge.elsewhere or a.hedge.loose or b.hedge.loose else found


def _in_base(a: Figure, b: Figure) -> tuple[float, float, float, float] | bool | None:
    """Both figures in their family's base unit, each with the step of its last digit; None when they
    measure different things, False for two currencies."""
    fa, fb = UNIT_INFO.get(a.unit or ""), UNIT_INFO.get(b.unit or "")
    if fa and fb and fa[0] != fb[0]:
        return None
    if fa and fb and fa[0] == "currency" and a.unit != b.unit:
        return False
    ka, kb = (fa[1], fb[1]) if fa and fb else (1.0, 1.0)
    return a.number * ka, 10.0**-a.decimals * a.scale * ka, b.number * kb, 10.0**-b.decimals * b.scale * kb


def left_open(a: Slot, b: Slot) -> bool:
    """Whether hedges leave two figures undecided: "12,000" against "more than 11,000" (`stages.hedges`)."""
    if a.figure is None or b.figure is None or "=" == a.figure.hedge.mode == b.figure.hedge.mode:
        return False
    based = _in_base(a.figure, b.figure)
    if not isinstance(based, tuple):
        return False
    return _hedged(a.figure, b.figure, based) is None


def hedged(slot: Slot) -> bool:
    """Whether a figure is hedged ("about", "over", a range): a range, not a point."""
    return slot.figure is not None and slot.figure.hedge.mode not in "=()"


def same_unit(a: Slot, b: Slot) -> bool:
    """Whether two slots may be told apart as values of one thing: figures only in the same unit, or both
    bare. "540 km" and "2.4 metres" or a bare "2.4" are different measurements, never a wrong value.
    A year against a full date is the date's year ("in 2001" against "on 30 December 1996": "in 1996");
    a full date is never made from a year alone."""
    if a.kind is SlotKind.YEAR and b.when is not None and b.when.year is not None:
        return True
    if a.figure is None or b.figure is None:
        return a.kind is b.kind
    return a.figure.unit == b.figure.unit


def _entities_match(a: str, b: str) -> bool:
    if _singular(a) == _singular(b):
        return True
    ta, tb = set(a.split()) - {"the"}, set(b.split()) - {"the"}
    if ta <= tb or tb <= ta:
        return not names_another(a, b)
    return _initials_match(a, b)


def _singular(name: str) -> str:
    """The name with a kind word that ends it made singular (`kinds.head`): "World Cups" names what
    "World Cup" does; "Court of Appeals" and "Court of Appeal", or "Serena Williams", stay as written."""
    if " " not in name or not name.endswith("s"):  # most names: no kind word to look up
        return name
    kind = head(name)
    return name[:-1] if kind is not None and name.endswith(f"{kind}s") else name


def _initials_match(a: str, b: str) -> bool:
    """Whether one name is the other's initials, whole or, for three letters or more, of the part after
    its first "of" or its last "and" where that part has three words or more ("HHS", "the Department of
    Health and Human Services"; "ACA", "the Patient Protection and Affordable Care Act"; not "EC" for
    "the Securities and Exchange Commission")."""
    short, long = (a.replace(".", ""), b) if len(a) <= len(b) else (b.replace(".", ""), a)
    parts = [long.split(" of ", 1)[-1], long.rsplit(" and ", 1)[-1]]
    tails = [p for p in parts if p != long and len(p.split()) >= 3] if len(short) >= 3 else []
    return short in {_initials(long), *(_initials(p) for p in tails)}


def _initials(name: str) -> str:
    return "".join(w[0] for w in name.split() if w not in _JOINING and w != "the")

"""Movements and results said the other way round: "The Fed raised rates" against "The Fed cut rates",
"a profit of $2 million" against "a loss of $2 million". Pure.

One word decides what the sentence says, and every other word agrees, so tier-1 similarity is high
and the cross-encoder reads the pair as support ("The drug reduced the risk of stroke by 30%"
against "increased the risk", "The dosage should be increased" against "reduced", "reported a
profit" against "a loss": all verified). Here the claim's word of movement (`stages.movements`) or
result clashes with the other way in the window's clause only where:

- a part of the claim's clause says one way and a part of the window's only the other way, each
  kind on its own scale (amounts, "rose"; qualities, "improved", since "pain improved" is "pain
  fell"; strength, "weakened"; speed, "slowed"; results, "profit"). Both clauses are cut into parts
  at ", while", "but", ", and", at "and", "as" or "while" before another movement ("Corn prices
  fell, while wheat prices rose" says two things), at "after", "because", "when" ... before one
  ("Blood pressure fell after the dose was doubled"), and after a leading clause with one ("After
  the dose was doubled,"), so each part of "Revenue rose as costs fell" is read, and fixed, on its
  own. Neither word stands in a relative
  clause ("Smith, who was raised in Ohio, ..."); no part states the claim's own way about its words
  ("Earlier reports said costs rose, but audited figures show costs fell", at the claim's time), nor
  does a part whose subject is a pronoun or left out and which says nothing more, with the claim's
  figure ("..., but it lost $5 million as charges mounted"; not "..., but it fell in Europe");
- the window's part, with the clauses under it, restates every other content word of the claim's
  part and every year and date the claim gives (`stages.clauses`; a part without its own is dated
  by its clause, and a clause's opening phrase, "In March,", frames every part), and what moves in
  the claim, its words before the movement (after "According to X," or "X said"), comes before the
  window's too (anywhere in the part for a passive, "Rates were cut by the Fed"; in the part
  before it where its subject is left out, "Revenue rose in 2023 but fell in 2024"): the same thing
  moved, at the same time ("Costs fell" is no clash with "Revenue rose"; "rose in 2023" none with
  "fell in 2022"; "She was raised in Ohio" none with "Ohio's population fell");
- what the movement acts on is the same: the claim's object ("raised concerns", "raised $50
  million") is among the window's ("cut the recommended dose" is about a dose; "rose 20%" is
  "decreased by 20%"), and a comparison is not turned round ("higher in 2023 than in 2022" against
  "lower in 2022 than in 2023"; "Compared with 2021, visits were higher in 2022" is "higher in 2022
  than in 2021");
- no "not" or refusal ("declined to approve") stands in either clause ("Revenue did not rise"
  agrees with "Revenue fell"), and the
  window's part is no expectation ("Analysts expected revenue to rise") unless the claim is a
  forecast too;
- the word is a movement at all (`movements.movement_words`: no name, season, other verb or kind).

The fix is the window's word, where it is the only such word of the claim's part and of the
window's, and it fits the claim's grammar (`movements.fits`; a result of the same number, "profit"
-> "loss", "profits" -> "losses"); otherwise the claim is flagged, not edited, and none of its
values is fixed either (`backends/checker.py`). Where the window's movement is
of something the claim's subject owns ("The patient gained 10 pounds" against "the patient's weight
fell 10 pounds", the same figure) the claim is flagged, never fixed.

Usage::

    [clash] = direction_clashes(Parsed.of("The Fed raised rates in March."),
                                Parsed.of("In March the Fed cut rates."), segment=(0, 27))
    clash.word, clash.fix    # "raised", "cut"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from workers.stages._text import DETERMINERS, STOPWORDS, same_case, wordset
from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated, restated, same_time, stems_between
from workers.stages.movements import Form, Grammar, as_noun, fits, movement_words, usage, way
from workers.stages.parts import ELIDED, Find, clause_of, elided, parts
from workers.stages.slots import SlotKind
from workers.stages.terms import content_terms, terms_match

__all__ = ["DirectionClash", "direction_clashes"]

_PROFIT, _LOSS = wordset("profit profits surplus surpluses"), wordset("loss losses deficit deficits")
_RESULT = re.compile(r"\b(?:" + "|".join(sorted(_PROFIT | _LOSS)) + r")\b", re.IGNORECASE)
_SINGULAR = wordset("profit surplus loss deficit")
_WORD = re.compile(r"[$€£]?[\w'’.%-]+|[,;:]")
# A part that tells what someone expected or believed, not what happened: "Analysts expected revenue
# to rise", "Many investors believed revenue rose".
_EXPECTED = re.compile(
    r"\b(?:expect\w*|believ\w*|forecast\w*|predict\w*|project(?:s|ed|ing)?|anticipat\w*|hop(?:e|es|ed|ing)"
    r"|fear\w*|assum\w*|think\w*|thought|claim\w*|alleg\w*|rumou?r\w*|estimat\w*|plan(?:s|ned|ning)?"
    r"|intend\w*|would)\b",
    re.IGNORECASE,
)
# "The retailer said holiday sales fell": who said it is not what moved.
_SAID = re.compile(
    r"\b(?:said|says|reported|reports|stated|announced|noted|found|showed)\s+(?:that\s+)?", re.IGNORECASE
)
_REFUSAL = re.compile(r"\b(?:declin|refus|fail)(?:e|es|ed|ing|s)?\s+to\s+[a-z]", re.IGNORECASE)
# "lower in the treatment group than": a comparison after the movement, within its clause.
_THAN = re.compile(r"[^,;]*?(?<!-)\bthan\b(?!-)")
# A clause's opening phrase that frames every part of it: "In March,", "During the third quarter,".
_OPENING = re.compile(
    r"\s*(?:in|during|for|over|after|since|by|at|on|across|throughout|between)\b[^,;]*,", re.IGNORECASE
)
# "Compared with 2021,", "relative to placebo": a comparison like "than", wherever it stands.
_COMPARED_WITH = re.compile(r"\b(?:compared\s+(?:with|to)|relative\s+to|versus|vs\.?)\s+", re.IGNORECASE)
_COMPARED_AFTER = re.compile(r",?\s*" + _COMPARED_WITH.pattern, re.IGNORECASE)
# A part whose subject is a pronoun: ", but it", "while they", "and she still" (or left out: `ELIDED`).
_PRONOUN = re.compile(
    r"[\s,;]*(?:(?:and|but|while|as|yet|so|then)\s+)?(?:it|they|he|she|we)\s+(?:\w+ly\s+|still\s+|also\s+)?",
    re.IGNORECASE,
)
_BECAUSE = re.compile(
    r"\b(?:as|because|after|before|when|while|since|despite|following|due)\b|,", re.IGNORECASE
)
# A figure and what it counts: "3 percentage points of ", "$2 billion in ", "10 pounds of ".
_OF = re.compile(r"\s+(?:by\s+)?[$€£]?[\d.,]+\s*(?:%|[a-z]+(?:\s+points?)?)?\s+(?:of|in)\s+", re.IGNORECASE)
_AGAINST = re.compile(r"\bagainst\s+(?:the\s+|a\s+)?((?:[A-Za-z][\w'’-]*\s*){1,2})", re.IGNORECASE)
_FUTURE = re.compile(r"\b(?:will|shall|going to)\b", re.IGNORECASE)
Fit = Callable[[str, str, Grammar | None, Form | None], bool]
Side = Callable[[str], int]


@dataclass(frozen=True, slots=True)
class DirectionClash:
    """The claim's word at [start, end), the window's other way (`other`), and the fix (None: flag)."""

    start: int
    end: int
    word: str
    other: str
    fix: str | None


def direction_clashes(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[DirectionClash]:
    """The claim's movements or results said the other way in parts of the window's clause `segment`:
    one clash at most for each part of the claim's clause ("Revenue rose as costs fell" against
    "Revenue fell as costs rose": two). Where another part of the claim is left open (neither said
    the same way nor the other, nor with a clash of another kind), no clash is fixed: half a
    sentence fixed reads as a whole one."""
    if _denied(claim, (0, len(claim.text))) or _against_another(claim, ev, segment):
        return []
    read: list[tuple[tuple[int, int], DirectionClash | str | None]] = []
    for kind in _KINDS:
        window = parts(ev, segment, kind[0])  # the window's parts, read against every part of the claim
        for clause in claim.segments:
            cut = parts(claim, clause, kind[0])
            read += [(span, _clash_of(claim, ev, (span, cut), (segment, window), kind)) for span in cut]
    clashes = [r for _, r in read if isinstance(r, DirectionClash)]
    settled = [span for span, _ in read if any(span[0] <= c.start < span[1] for c in clashes)]
    open_ = [span for span, r in read if r == "open" and span not in settled]
    return [replace(c, fix=None) for c in clashes] if open_ else clashes


@dataclass(frozen=True, slots=True)
class _Said:
    """A part of the claim's clause, its words of one kind, and the words that name what moved where
    its subject is left out ("The stock fell on Monday and rose on Tuesday": "The stock")."""

    span: tuple[int, int]
    words: list[re.Match[str]]
    named: tuple[int, int] | None = None


def _clash_of(
    claim: Parsed,
    ev: Parsed,
    where: tuple[tuple[int, int], list[tuple[int, int]]],
    theirs: tuple[tuple[int, int], list[tuple[int, int]]],
    kind: tuple[Find, Side, Fit],
) -> DirectionClash | Literal["agrees", "open"] | None:
    """The clash of the claim's part (`where`: it and its clause's parts) with a part of the window's
    clause (`theirs`: the clause and its parts), for one kind of word; "agrees" where a part says it
    the claim's way, "open" where none settles it; None where the part has no word of the kind."""
    (span, cut), (segment, window), (find, side, fit) = where, theirs, kind
    words = find(claim, *span)
    if not words:
        return None
    mine = _Said(span, words, elided(claim, span, words[0], cut, find))
    if len({side(m.group(0)) for m in mine.words}) != 1:
        return "open"
    told = [p for p in window if not _expected(claim, ev, p, find)]
    if any(_agrees(claim, ev, (p, segment), mine, find=find, side=side) for p in told):
        return "agrees"
    clashes = (
        _clash(claim, ev, (part, segment, window), mine=mine, find=find, side=side, fit=fit) for part in told
    )
    return next(filter(None, clashes), "open")


def _against_another(claim: Parsed, ev: Parsed, segment: tuple[int, int]) -> bool:
    """Whether the claim and the window measure a movement against different things, so each says who
    moved the other way: "The pound slid against the dollar" is what "against the pound, the dollar
    climbed" says. Against the same thing ("the US dollar", "the dollar"), or a year ("against 2019"),
    both are read as before."""
    mine, theirs = _measured_against(claim, (0, len(claim.text))), _measured_against(ev, segment)
    return (bool(mine) or bool(theirs)) and not mine & theirs


def _measured_against(read: Parsed, span: tuple[int, int]) -> frozenset[str]:
    """The words of what a movement is measured against ("against the US dollar": "us", "dollar")."""
    words = (w.lower() for m in _AGAINST.finditer(read.text, *span) for w in m.group(1).split())
    return frozenset(w for w in words if w not in STOPWORDS)


def _denied(read: Parsed, span: tuple[int, int]) -> bool:
    """A "not" in `span`, or a refusal that says as much ("the FDA declined to approve it")."""
    return negated(read, span) or _REFUSAL.search(read.text, *span) is not None


def _expected(claim: Parsed, ev: Parsed, part: tuple[int, int], find: Find) -> bool:
    """Whether the part's movement is what someone expected or believed ("Analysts expected revenue to
    rise"), where the claim's is not ("lower than expected" is a fact)."""
    moved = find(ev, *part)
    before = _EXPECTED.search(ev.text, part[0], moved[0].start() if moved else part[1])
    return before is not None and _EXPECTED.search(claim.text) is None and _FUTURE.search(claim.text) is None


def _agrees(
    claim: Parsed,
    ev: Parsed,
    where: tuple[tuple[int, int], tuple[int, int]],
    mine: _Said,
    *,
    find: Find,
    side: Side,
) -> bool:
    """Whether a part of the window's clause says the claim's way about the claim's words, at its time:
    "Earlier reports said costs rose, but audited figures show costs fell" states "Costs fell";
    "Revenue rose 5% in 2023 but fell in 2024" does not state "Revenue rose in 2024"."""
    part, segment = where
    word = mine.words[0]
    same_way = [m for m in find(ev, *part) if side(m.group(0)) == side(word.group(0))]
    if any(_pronoun_says(claim, ev, mine, where, m) for m in same_way):
        return True
    said = restated(claim, ev, part, at=word.start(), unsaid=_comparing(claim), within=mine.span)
    return (
        said
        and same_time(claim, ev, _dated(ev, part, segment), within=mine.span)
        and any(_subject(claim, ev, mine, (part, (part[0], m.start())), m) == "same" for m in same_way)
    )


def _pronoun_says(
    claim: Parsed, ev: Parsed, mine: _Said, where: tuple[tuple[int, int], tuple[int, int]], m: re.Match[str]
) -> bool:
    """Whether a part whose subject is a pronoun or left out says what the claim's part says, nothing
    more, with its figure and at its time: "..., but it lost $5 million" may be "The company lost $5
    million in 2023", "... deteriorated at first but improved" "The condition improved"; "..., but
    it fell in Europe" is not "Revenue fell in 2023", nor "..., but they rose in 2022" "... in 2023"."""
    part, segment = where
    subject = _PRONOUN.fullmatch(ev.text, part[0], m.start()) or ELIDED.fullmatch(ev.text, part[0], m.start())
    if not subject or not same_time(claim, ev, _dated(ev, part, segment), within=mine.span):
        return False
    why = _BECAUSE.search(ev.text, m.end(), part[1])  # "... as charges mounted", "..., analysts said"
    more = stems_between(ev, m.end(), why.start() if why else part[1])
    figure = _figure(claim, mine.words[0].end(), mine.span[1])
    same_figure = figure is None or figure == _figure(ev, m.end(), part[1])
    return (not more or covered(more, stems_between(claim, *mine.span)) == 1.0) and same_figure


def _clash(
    claim: Parsed, ev: Parsed, where: tuple[tuple[int, int], tuple[int, int], list[tuple[int, int]]], *,
    mine: _Said, find: Find, side: Side, fit: Fit,
) -> DirectionClash | None:  # fmt: skip
    """The clash of the claim's word with the other way in `part` of the window's clause `segment`
    (cut into `window`)."""
    part, segment, window = where
    theirs = find(ev, *part)
    word = mine.words[0]
    if {side(m.group(0)) for m in theirs} != {-side(word.group(0))} or _denied(ev, part):
        return None
    other = theirs[0]
    framed = _OPENING.match(ev.text, segment[0], part[0]) if part[0] > segment[0] else None
    named = elided(ev, part, other, window, find) or (part[0], other.start())
    around = [framed.span()] if framed else []
    around += [p for p in parts(ev, clause_of(ev, part, segment), find) if p != part and not find(ev, *p)]
    if not restated(
        claim, ev, part, at=word.start(), framed=[*around, named], unsaid=_comparing(claim), within=mine.span
    ) or not same_time(claim, ev, _dated(ev, part, segment), within=mine.span):
        return None
    subject = _subject(claim, ev, mine, (part, named), other)
    if subject is None or (subject == "same" and not _same_object(claim, mine, ev, other, part)):
        return None
    alone = (
        subject == "same"
        and len(mine.words) == 1
        and len(theirs) == 1
        and fit(word.group(0), other.group(0), *usage(claim.text, word))
    )
    fix = same_case(word.group(0), other.group(0)) if alone else None
    return DirectionClash(word.start(), word.end(), word.group(0), other.group(0), fix)


def _dated(ev: Parsed, part: tuple[int, int], segment: tuple[int, int]) -> tuple[int, int]:
    """The part, or its whole clause where the part gives no year or date: "In March, spreads widened
    while stock prices dropped 9%" dates the drop too; a comparison after it is its own ("Visits
    were higher in 2022, compared with 2021")."""
    times = (SlotKind.YEAR, SlotKind.DATE)
    if not any(s.kind in times and part[0] <= s.start < part[1] for s in ev.slots):
        return segment
    compared = _COMPARED_AFTER.match(ev.text, part[1], segment[1])
    return (part[0], segment[1]) if compared else part


def _subject(
    claim: Parsed,
    ev: Parsed,
    mine: _Said,
    where: tuple[tuple[int, int], tuple[int, int]],
    other: re.Match[str],
) -> Literal["same", "flag"] | None:
    """Whether what moves in the claim, its content words before the movement (after a leading
    "According to the company,"), is what moves in the window: named before the window's movement
    (anywhere in the part for a passive; a noun's is after it, and restated; "The retailer said" is
    not part of it). "flag": named there, but as the owner of something else that moved ("The
    patient gained 10 pounds" against "the patient's weight fell"; "The company gained market share"
    against "the company's market share fell"), a clash no word can fix. "She was raised in Ohio"
    names nothing that moved; "The population of Ohio fell" is not about her. `where`: the part,
    and the words that name what moved in it (before its movement, or in the part before it)."""
    part, named = where
    word = mine.words[0]
    if as_noun(claim.text, word):  # "A fall of 5% in revenue": what fell comes after it
        return "same"
    lo = max(mine.span[0], claim.text.rfind(",", 0, word.start()) + 1)
    said_by = [m.end() for m in _SAID.finditer(claim.text, lo, word.start())]
    before = stems_between(claim, said_by[-1], word.start()) if said_by else []
    # "reported losses": the reporter is the subject
    before = before or stems_between(claim, lo, word.start())
    if not before and mine.named:  # "... and rose on Tuesday": the stock of the part before
        before = stems_between(claim, *mine.named)
    if usage(claim.text, word) == ("transitive", "participle"):
        return "same" if before and covered(before, stems_between(ev, *part)) == 1.0 else None
    said = stems_between(ev, *named)
    if not before or covered(before, said) < 1.0:
        return None
    owned = [
        t.stem
        for t in ev.terms
        if named[0] <= t.start < named[1] and ev.text[t.start : t.end].endswith(("'s", "’s"))
    ]
    head = said[-1] if said else ""
    if covered(owned, before) == 0.0 or any(terms_match(head, b) for b in before):
        return "same"
    return "flag" if _owner_moved(claim, ev, mine, (part, said), other) else None


def _owner_moved(
    claim: Parsed, ev: Parsed, mine: _Said, where: tuple[tuple[int, int], list[str]], other: re.Match[str]
) -> bool:
    """Whether what the claim's subject gained is what the window says moved, of something it owns:
    its object there ("gained market share" against "the company's market share fell"), or the same
    figure ("gained 10 pounds" against "the patient's weight fell 10 pounds")."""
    (part, said), word = where, mine.words[0]
    objects = _object(claim.text, word.end(), mine.span[1]), _object(ev.text, other.end(), part[1])
    figures = _figure(claim, word.end(), mine.span[1]), _figure(ev, other.end(), part[1])
    same = objects[0] == objects[1] == ["#"] and figures[0] == figures[1]
    counted = _OF.match(claim.text, word.end(), mine.span[1]) if objects[0] == ["#"] else None
    if counted:  # "gained 3 percentage points of market share": what moved is named after the figure
        objects = _object(claim.text, counted.end(), mine.span[1]), objects[1]
    return same or (objects[0] != ["#"] and bool(objects[0]) and covered(objects[0], said) == 1.0)


def _figure(read: Parsed, lo: int, hi: int) -> object:
    """The value of the first figure or percentage in read.text[lo:hi] ("lost $5 million"), if any."""
    kinds = (SlotKind.FIGURE, SlotKind.PERCENT)
    return next((s.value for s in read.slots if s.kind in kinds and lo <= s.start < hi), None)


def _same_object(claim: Parsed, said: _Said, ev: Parsed, other: re.Match[str], part: tuple[int, int]) -> bool:
    """Whether the movement acts on the same thing: the claim's object words (up to the first function
    word) among the window's, a figure against a figure, and a comparison with the same thing."""
    lo, hi = part
    word = said.words[0]
    mine, theirs = _object(claim.text, word.end(), said.span[1]), _object(ev.text, other.end(), hi)
    if mine and mine[0] == "#" and theirs[:1] != ["#"]:
        return False
    if mine and mine[0] != "#" and not any(terms_match(a, b) for a in mine for b in theirs):
        return False
    mine_c, theirs_c = _compared(claim, word, lo=said.span[0]), _compared(ev, other, lo=lo)
    if mine_c is None and theirs_c is not None and not _THAN.match(ev.text, other.end(), hi):
        # "fell 30% versus 5% in the unvaccinated": the claim need not say with what; unless it is
        # what the claim is about ("lower with placebo compared with the drug")
        return covered(theirs_c[1], stems_between(claim, *said.span, values=True)) == 0.0
    if mine_c is None or theirs_c is None:
        return mine_c is None and theirs_c is None
    (mine_pre, mine_post), (their_pre, their_post) = mine_c, theirs_c
    return not _moved_across(mine_post, their_pre, their_post) and not _moved_across(
        mine_pre, their_post, their_pre
    )


def _object(text: str, start: int, hi: int) -> list[str]:
    """The stems of the words a movement acts on, up to the first function word: ["#"] for a figure,
    [] for none ("rose sharply", "fell by 5%")."""
    words = [w.lower() for w in _WORD.findall(text[start:hi])]
    while words and (words[0] in DETERMINERS or words[0].endswith("ly")):
        words = words[1:]
    if words[:1] == ["by"] and words[1:2] and words[1].lstrip("$€£")[:1].isdigit():
        return ["#"]  # "decreased by 20%" is "fell 20%"
    if words and words[0].lstrip("$€£")[:1].isdigit():
        return ["#"]
    taken = []
    for w in words:
        if w in STOPWORDS or not w[:1].isalpha():
            break
        taken.append(w)
    return [t.stem for t in content_terms(" ".join(taken))]


def _compared(
    read: Parsed, word: re.Match[str], *, lo: int | None = None
) -> tuple[list[str], list[str]] | None:
    """A comparison in the movement's clause: its other words and what it is compared with, after
    "than" ("lower in the treatment group than in the placebo group": [..., "treatment", "group"],
    ["placebo", "group"]; "than analysts expected": ["analyst", "expect"]) or "compared with"
    anywhere in the clause ("Compared with 2021, visits were higher in 2022": [..., "2022"], ["2021"])."""
    start, end = read.segment_of(word.start())
    start = start if lo is None else lo
    than = _THAN.match(read.text, word.end(), end)
    if than is not None:
        return stems_between(read, start, than.end(), values=True), _against(read.text, than.end(), end)[0]
    phrase = _COMPARED_WITH.search(read.text, start, end)
    if phrase is None:
        return None
    post, stop = _against(read.text, phrase.end(), end)
    pre = stems_between(read, start, phrase.start(), values=True) + stems_between(
        read, stop, end, values=True
    )
    return pre, post


def _comparing(read: Parsed) -> list[int]:
    """Where a comparison's own word stands ("compared", "relative"): no content the window must hold."""
    return [m.start() for m in _COMPARED_WITH.finditer(read.text)]


def _against(text: str, lo: int, hi: int) -> tuple[list[str], int]:
    """The stems of what something is compared with, from `lo` to the first function word or comma
    after its first content word, and where it ends."""
    taken: list[re.Match[str]] = []
    for m in _WORD.finditer(text, lo, hi):
        w = m.group(0).lower()
        if w in ",;:" or (w in STOPWORDS and taken):
            break
        if w not in STOPWORDS:
            taken.append(m)
    stop = taken[-1].end() if taken else lo
    return [t.stem for t in content_terms(" ".join(m.group(0) for m in taken))], stop


def _moved_across(words: list[str], there: list[str], here: list[str]) -> bool:
    """Whether a word of one side of the claim's comparison is on the other side in the window's only:
    "higher in 2023 than in 2022" against "lower in 2022 than in 2023" turns the comparison round."""
    return any(covered([w], there) == 1.0 and covered([w], here) < 1.0 for w in words)


def _fits(mine: str, theirs: str, used: Grammar | None, form: Form | None) -> bool:
    return fits(mine, theirs, used=used, form=form)


def _on_scale(scale: int) -> Find:
    """Words of movement on one scale, outside relative clauses: 1 amounts ("rose"), 2 qualities
    ("improved": "pain improved" is "pain fell"), 3 strength ("weakened"), 4 speed ("slowed")."""

    def find(read: Parsed, lo: int, hi: int) -> list[re.Match[str]]:
        return [m for m in _movements(read, lo, hi) if abs(way(m.group(0))) == scale]

    return find


def _movements(read: Parsed, lo: int, hi: int) -> list[re.Match[str]]:
    return [m for m in movement_words(read.text, lo, hi) if not _relative(read, m.start())]


def _results(read: Parsed, lo: int, hi: int) -> list[re.Match[str]]:
    return [m for m in _RESULT.finditer(read.text, lo, hi) if not _relative(read, m.start())]


def _relative(read: Parsed, at: int) -> bool:
    """Whether `at` stands in a relative clause opened after a comma and not yet closed by one."""
    return any(s < at and "," not in read.text[e:at] for s, e in read.relatives)


def _result_way(word: str) -> int:
    return 1 if word.lower() in _PROFIT else -1


def _same_number(mine: str, theirs: str, _used: Grammar | None, _form: Form | None) -> bool:
    return (mine.lower() in _SINGULAR) == (theirs.lower() in _SINGULAR)


# The kinds of word read, each on its own scale: amounts, qualities ("improved"), strength, speed,
# results ("profit").
_KINDS: tuple[tuple[Find, Side, Fit], ...] = (
    *((_on_scale(scale), way, _fits) for scale in (1, 2, 3, 4)),
    (_results, _result_way, _same_number),
)

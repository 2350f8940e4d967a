"""Movements and results said the other way round: "The Fed raised rates" against "The Fed cut rates",
"a profit of $2 million" against "a loss of $2 million". Pure.

One word decides what the sentence says, and every other word agrees, so tier-1 similarity is high
and the cross-encoder reads the pair as support ("The drug reduced the risk of stroke by 30%"
against "increased the risk", "The dosage should be increased" against "reduced", "reported a
profit" against "a loss": all verified). Here the claim's word of movement (`stages.movements`) or
result clashes with the other way in the window's clause only where:

- the claim's words of that kind all go one way and a part of the window's clause only the other
  way (a clause is cut at ", while", "but", ", and", and at "and", "as" or "while" before another
  movement: "Corn prices fell, while wheat prices rose" says two things); neither word stands in a
  relative clause ("Smith, who was raised in Ohio, ..."); no part states the claim's own way about
  its words ("Earlier reports said costs rose, but audited figures show costs fell");
- that part restates every other content word of the claim's clause and every year and date the
  claim gives (`stages.clauses`; a part without its own is dated by its clause, and a clause's
  opening phrase, "In March,", frames every part), and what moves in
  the claim, its words before the movement (after "According to X," or "X said"), comes before the
  window's too (anywhere in the part for a passive, "Rates were cut by the Fed"): the same thing
  moved, at the same time ("Costs fell" is no clash with "Revenue rose"; "rose in 2023" none with
  "fell in 2022"; "She was raised in Ohio" none with "Ohio's population fell");
- what the movement acts on is the same: the claim's object ("raised concerns", "raised $50
  million") is among the window's ("cut the recommended dose" is about a dose; "rose 20%" is
  "decreased by 20%"), and a comparison is not turned round ("higher in 2023 than in 2022" against
  "lower in 2022 than in 2023");
- no "not" or refusal ("declined to approve") stands in either clause ("Revenue did not rise"
  agrees with "Revenue fell"), and the
  window's part is no expectation ("Analysts expected revenue to rise") unless the claim is a
  forecast too;
- the word is a movement at all (`movements.movement_words`: no name, season, other verb or kind).

The fix is the window's word, where it is the claim's only such word, the window's part has one,
and it fits the claim's grammar (`movements.fits`; a result of the same number, "profit" -> "loss",
"profits" -> "losses"); otherwise the claim is flagged, not edited. Where the window's movement is
of something the claim's subject owns ("The patient gained 10 pounds" against "the patient's weight
fell 10 pounds") the claim is flagged, never fixed.

Usage::

    [clash] = direction_clashes(Parsed.of("The Fed raised rates in March."),
                                Parsed.of("In March the Fed cut rates."), segment=(0, 27))
    clash.word, clash.fix    # "raised", "cut"
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from workers.stages._text import DETERMINERS, STOPWORDS, same_case, wordset
from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated, restated, same_time, stems_between
from workers.stages.movements import DIRECTION, Form, Grammar, fits, movement_words, usage, way
from workers.stages.slots import SlotKind
from workers.stages.terms import content_terms, terms_match

__all__ = ["DirectionClash", "direction_clashes"]

_PROFIT, _LOSS = wordset("profit profits surplus surpluses"), wordset("loss losses deficit deficits")
_RESULT = re.compile(r"\b(?:" + "|".join(sorted(_PROFIT | _LOSS)) + r")\b", re.IGNORECASE)
_SINGULAR = wordset("profit surplus loss deficit")
# "and", "as" or "while" that starts another movement, of the same subject or another: "increased the
# risk and lowered the dose", "revenue rose and costs fell", "margin declined as costs climbed".
_AND_MOVING = re.compile(
    r"\s+(?:and|as|even as|while|whereas)\s+(?=(?:[\w'’$%.-]+\s+){0,3}" + DIRECTION.pattern + ")",
    re.IGNORECASE,
)
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
_THAN = re.compile(r"[^,;]*?\bthan\b")
# A clause's opening phrase that frames every part of it: "In March,", "During the third quarter,".
_OPENING = re.compile(
    r"\s*(?:in|during|for|over|after|since|by|at|on|across|throughout|between)\b[^,;]*,", re.IGNORECASE
)
_FUTURE = re.compile(r"\b(?:will|shall|going to)\b", re.IGNORECASE)
Find = Callable[[Parsed, int, int], list[re.Match[str]]]
Fit = Callable[[str, str, Grammar | None, Form | None], bool]


@dataclass(frozen=True, slots=True)
class DirectionClash:
    """The claim's word at [start, end), the window's other way (`other`), and the fix (None: flag)."""

    start: int
    end: int
    word: str
    other: str
    fix: str | None


def direction_clashes(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> list[DirectionClash]:
    """The claim's movement or result said the other way in a part of the window's clause `segment`."""
    for find, side, fit in ((_movements, way, _fits), (_results, _result_way, _same_number)):
        mine = find(claim, 0, len(claim.text))
        if len({side(m.group(0)) for m in mine}) != 1 or _denied(claim, (0, len(claim.text))):
            continue
        parts = [p for p in _parts(ev, segment) if not _expected(claim, ev, p, find)]
        if any(_agrees(claim, ev, p, mine[0], find=find, side=side) for p in parts):
            continue
        for part in parts:
            clash = _clash(claim, ev, (part, segment), mine=mine, find=find, side=side, fit=fit)
            if clash is not None:
                return [clash]
    return []


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
    part: tuple[int, int],
    word: re.Match[str],
    *,
    find: Find,
    side: Callable[[str], int],
) -> bool:
    """Whether a part of the window's clause says the claim's way about the claim's words: "Earlier
    reports said costs rose, but audited figures show costs fell" states "Costs fell"."""
    mine = side(word.group(0))
    return restated(claim, ev, part, at=word.start()) and any(
        side(m.group(0)) == mine and _subject(claim, ev, word, part, m) == "same" for m in find(ev, *part)
    )


def _clash(
    claim: Parsed, ev: Parsed, where: tuple[tuple[int, int], tuple[int, int]], *, mine: list[re.Match[str]],
    find: Find, side: Callable[[str], int], fit: Fit,
) -> DirectionClash | None:  # fmt: skip
    """The clash of the claim's word with the other way in `part` of the window's clause `segment`."""
    part, segment = where
    theirs = find(ev, *part)
    word = mine[0]
    if {side(m.group(0)) for m in theirs} != {-side(word.group(0))} or _denied(ev, part):
        return None
    other = theirs[0]
    framed = _OPENING.match(ev.text, segment[0], part[0]) if part[0] > segment[0] else None
    opening = framed.span() if framed else None
    if not restated(claim, ev, part, at=word.start(), framed=opening) or not same_time(
        claim, ev, _dated(ev, part, segment)
    ):
        return None
    subject = _subject(claim, ev, word, part, other)
    if subject is None or (subject == "same" and not _same_object(claim, word, ev, other, part)):
        return None
    alone = (
        subject == "same"
        and len(mine) == 1
        and len(theirs) == 1
        and fit(word.group(0), other.group(0), *usage(claim.text, word))
    )
    fix = same_case(word.group(0), other.group(0)) if alone else None
    return DirectionClash(word.start(), word.end(), word.group(0), other.group(0), fix)


def _dated(ev: Parsed, part: tuple[int, int], segment: tuple[int, int]) -> tuple[int, int]:
    """The part, or its whole clause where the part gives no year or date: "In March, spreads widened
    while stock prices dropped 9%" dates the drop too."""
    times = (SlotKind.YEAR, SlotKind.DATE)
    return part if any(s.kind in times and part[0] <= s.start < part[1] for s in ev.slots) else segment


def _parts(ev: Parsed, segment: tuple[int, int]) -> list[tuple[int, int]]:
    """The window's clause cut where another clause or another movement joins it."""
    lo, hi = segment
    moving = [
        m.start() for m in _AND_MOVING.finditer(ev.text, lo, hi) if DIRECTION.search(ev.text, lo, m.start())
    ]
    cuts = sorted({s for s, _ in ev.joins if lo < s < hi} | set(moving))
    return list(zip([lo, *cuts], [*cuts, hi], strict=True))


def _subject(
    claim: Parsed, ev: Parsed, word: re.Match[str], part: tuple[int, int], other: re.Match[str]
) -> Literal["same", "flag"] | None:
    """Whether what moves in the claim, its content words before the movement (after a leading
    "According to the company,"), is what moves in the window: named before the window's movement
    (anywhere in the part for a passive; a noun's is after it, and restated; "The retailer said" is
    not part of it). "flag": named there, but as the owner of something else that moved ("The
    patient gained 10 pounds" against "the patient's weight fell"; "The company gained market share"
    against "the company's market share fell"), a clash no word can fix. "She was raised in Ohio"
    names nothing that moved; "The population of Ohio fell" is not about her."""
    if _noun(claim.text, word):  # "A fall of 5% in revenue": what fell comes after it
        return "same"
    lo = max(claim.segment_of(word.start())[0], claim.text.rfind(",", 0, word.start()) + 1)
    said_by = [m.end() for m in _SAID.finditer(claim.text, lo, word.start())]
    before = stems_between(claim, said_by[-1], word.start()) if said_by else []
    before = before or stems_between(
        claim, lo, word.start()
    )  # "reported losses": the reporter is the subject
    if usage(claim.text, word) == ("transitive", "participle"):
        return "same" if before and covered(before, stems_between(ev, *part)) == 1.0 else None
    said = stems_between(ev, part[0], other.start())
    if not before or covered(before, said) < 1.0:
        return None
    owned = [
        t.stem
        for t in ev.terms
        if part[0] <= t.start < other.start() and ev.text[t.start : t.end].endswith(("'s", "’s"))
    ]
    head = said[-1] if said else ""
    if covered(owned, before) == 0.0 or any(terms_match(head, b) for b in before):
        return "same"
    # what the claim's subject gained is what the window says moved: its object there, or a figure
    mine, theirs = _object(claim.text, word.end(), len(claim.text)), _object(ev.text, other.end(), part[1])
    moved = mine == theirs == ["#"] or (mine != ["#"] and bool(mine) and covered(mine, said) == 1.0)
    return "flag" if moved else None


def _noun(text: str, word: re.Match[str]) -> bool:
    """A word of movement after a determiner is a noun: "a fall of 5%", "the rise in prices"."""
    before = text[: word.start()].split()[-1:]
    return bool(before) and before[0].lower() in DETERMINERS


def _same_object(
    claim: Parsed, word: re.Match[str], ev: Parsed, other: re.Match[str], part: tuple[int, int]
) -> bool:
    """Whether the movement acts on the same thing: the claim's object words (up to the first function
    word) among the window's, a figure against a figure, and a comparison with the same thing."""
    lo, hi = part
    mine, theirs = _object(claim.text, word.end(), len(claim.text)), _object(ev.text, other.end(), hi)
    if mine and mine[0] == "#" and theirs[:1] != ["#"]:
        return False
    if mine and mine[0] != "#" and not any(terms_match(a, b) for a in mine for b in theirs):
        return False
    mine_c, theirs_c = _compared(claim, word), _compared(ev, other, lo=lo)
    if mine_c is None or theirs_c is None:
        return mine_c is theirs_c
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
    """A comparison after the movement, in its clause: the words before "than" (from the clause's
    start) and what it is compared with ("lower in the treatment group than in the placebo group":
    [..., "treatment", "group"], ["placebo", "group"]; "than analysts expected in the quarter":
    ["analyst", "expect"])."""
    start, end = read.segment_of(word.start())
    found = _THAN.match(read.text, word.end(), end)
    if found is None:
        return None
    words = [w for w in _WORD.findall(read.text[found.end() : end]) if w not in ",;:"]
    while words and words[0].lower() in STOPWORDS:
        words = words[1:]
    taken = " ".join(words[: next((i for i, w in enumerate(words) if w.lower() in STOPWORDS), len(words))])
    before = stems_between(read, start if lo is None else lo, found.end(), values=True)
    return before, [t.stem for t in content_terms(taken)]


def _moved_across(words: list[str], there: list[str], here: list[str]) -> bool:
    """Whether a word of one side of the claim's comparison is on the other side in the window's only:
    "higher in 2023 than in 2022" against "lower in 2022 than in 2023" turns the comparison round."""
    return any(covered([w], there) == 1.0 and covered([w], here) < 1.0 for w in words)


def _fits(mine: str, theirs: str, used: Grammar | None, form: Form | None) -> bool:
    return fits(mine, theirs, used=used, form=form)


def _movements(read: Parsed, lo: int, hi: int) -> list[re.Match[str]]:
    """Words of movement in read.text[lo:hi], outside relative clauses."""
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

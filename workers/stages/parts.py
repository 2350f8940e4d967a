"""A clause cut into parts, each saying one thing: "Revenue rose as costs fell", "Blood pressure fell
after the dose was doubled", "Revenue rose 5% in 2023 but fell in 2024". Pure.

A word of movement said the other way round (`stages.directions`) is about one part of a sentence,
not the whole: the parts are where the sentence joins another clause (", while", "but", ", and"),
where "and", "as" or "while" starts another movement, where "after", "because", "when" ... opens a
clause with a movement of the kind read, and after a leading clause with one ("After the dose was
doubled,"); never before a participle, whose subject is the clause's ("rose 3% after falling 2%"
says both of one thing).

Usage::

    read = Parsed.of("Revenue rose as costs fell.")
    moving = lambda read, lo, hi: movement_words(read.text, lo, hi)
    [read.text[lo:hi] for lo, hi in parts(read, (0, 27), moving)]   # ["Revenue rose", " as costs fell."]
"""

from __future__ import annotations

import re
from collections.abc import Callable

from workers.stages._text import STOPWORDS
from workers.stages.align import Parsed
from workers.stages.movements import DIRECTION, as_noun

__all__ = ["ELIDED", "Find", "clause_of", "elided", "opening_name", "parts"]

Find = Callable[[Parsed, int, int], list[re.Match[str]]]

# "and", "as" or "while" that starts another movement, of the same subject or another: "increased the
# risk and lowered the dose", "revenue rose and costs fell", "margin declined as costs climbed"; and
# ", having" before one, what happened before ("rose 4% on Monday, having lost 10% last week"): a part
# of its own in a window, and one left open in a claim (its subject is the clause's).
_AND_MOVING = re.compile(
    r"\s+(?:and|as|even as|while|whereas|having)\s+(?=(?:[\w'’$%.-]+\s+){0,3}" + DIRECTION.pattern + ")",
    re.IGNORECASE,
)
# Words that open a clause under another: "after the dose was doubled".
_UNDER = "after|before|when|because|following|despite|once|until|since"
_UNDER_MOVING = re.compile(
    r"\s+(?:" + _UNDER + r")\s+"
    r"(?=(?:[\w'’$%.-]+\s+){0,4}(?P<moved>" + DIRECTION.pattern + "))",
    re.IGNORECASE,
)
# A leading clause: "After the court narrowed the rule,", "Since costs rose,".
_LEADING = re.compile(
    r"\s*(?:" + _UNDER + r"|as|while|although|though|if)\b"
    r"[^,;]*,",
    re.IGNORECASE,
)
# A part whose subject is left out: ", but fell in 2024", "and then rose" (not "as" or "while", which
# open a clause of their own: "as fell" is no English).
ELIDED = re.compile(r"[\s,;]*(?:and|but|yet)\s+(?:then\s+|later\s+|\w+ly\s+)?", re.IGNORECASE)
# A part whose subject is a pronoun: ", but it", "and they".
_PRONOUN = re.compile(
    r"[\s,;]*(?:(?:and|but|yet)\s+)?(?:it|they)\s+(?:then\s+|later\s+|also\s+|\w+ly\s+)?", re.I
)
# The name a clause opens with, before its verb: "Acme Corp reported ...", "The Federal Reserve said";
# not an opening phrase ("In March"), an owner ("Acme's revenue") or two names ("Acme and Beta").
_OPENING_NAME = re.compile(
    r"\s*(?:[Tt]he\s+)?(?P<name>[A-Z][\w&.-]*(?:\s+(?:of\s+)?[A-Z][\w&.-]*)*)(?=\s+(?!(?:and|or|of)\b)[a-z])",
)


def elided(
    ev: Parsed, part: tuple[int, int], other: re.Match[str], cut: list[tuple[int, int]], find: Find
) -> tuple[int, int] | None:
    """Where the window names what moved in a part whose subject is left out (`other` its movement,
    `cut` the clause's parts): the words before the movement of the last part before it with one
    ("Revenue rose 5% in 2023, but fell in 2024": "Revenue"), else the name the clause opens with; for
    "it" or "they", only that name ("Acme reported weak sales, and it lowered its forecast": "Acme")."""
    subject = ev.text[part[0] : other.start()]
    pronoun = _PRONOUN.fullmatch(subject)
    if not pronoun and not ELIDED.fullmatch(subject):
        return None
    for lo, hi in reversed([p for p in cut if p[1] <= part[0]]):  # "fell in January and February but rose"
        moved = find(ev, lo, hi)
        # "Analysts at Acme expected a cut, but they raised ...": "they" are not what a noun moves
        if moved and not (pronoun and as_noun(ev.text, moved[0])):
            return lo, moved[0].start()
        if moved:
            break
    return opening_name(ev, cut[0][0]) if cut and cut[0][1] <= part[0] else None


def opening_name(read: Parsed, at: int) -> tuple[int, int] | None:
    """The name a clause starting at `at` opens with, before its verb ("Acme Corp reported weak sales,
    and it lowered its forecast": "Acme Corp"), if it opens with one."""
    m = _OPENING_NAME.match(read.text, at)
    if m is None or m.group("name").split()[0].lower() in STOPWORDS:  # "In March, ..."
        return None
    return m.span("name")


def clause_of(ev: Parsed, part: tuple[int, int], segment: tuple[int, int]) -> tuple[int, int]:
    """The window's clause that holds `part`: cut only where another clause joins it, so a clause under
    it without a movement of its own is there to restate the claim ("After staffing was reduced,
    prison conditions worsened" states "Staffing was increased before prison conditions worsened")."""
    cuts = sorted({s for s, _ in ev.joins} | {m.start() for m in _AND_MOVING.finditer(ev.text, *segment)})
    lo = max((c for c in cuts if segment[0] < c <= part[0]), default=segment[0])
    hi = min((c for c in cuts if part[0] < c < segment[1]), default=segment[1])
    return lo, hi


def parts(read: Parsed, segment: tuple[int, int], find: Find) -> list[tuple[int, int]]:
    """A clause (the claim's or the window's) cut where another clause or another movement joins it,
    before a clause under it with a movement of `find`'s kind ("Blood pressure fell after the dose was
    doubled") and after a leading one ("After the dose was doubled, blood pressure fell"); not before
    a participle, whose subject is the clause's ("rose 3% after falling 2%" says both of one thing)."""
    lo, hi = segment
    moving = [m.start() for m in _AND_MOVING.finditer(read.text, lo, hi)]
    moving += [m.start() for m in _UNDER_MOVING.finditer(read.text, lo, hi) if _under(read, m, find)]
    lead = _LEADING.match(read.text, lo, hi)
    if lead and _under(read, lead, find):
        moving.append(lead.end())
    starts = [at for at in moving if DIRECTION.search(read.text, lo, at)]
    cuts = sorted(c for c in {s for s, _ in read.joins} | set(starts) if lo < c < hi)
    return list(zip([lo, *cuts], [*cuts, hi], strict=True))


def _under(read: Parsed, m: re.Match[str], find: Find) -> bool:
    """Whether the clause `m` opens holds a movement of `find`'s kind that is not a participle right
    after its opening word ("after falling 2%")."""
    moved = find(read, m.start(), m.end() if m.re is _LEADING else m.end("moved"))
    return bool(moved) and not (moved[0].group(0).lower().endswith("ing") and _opens(read, m, moved[0]))


def _opens(read: Parsed, m: re.Match[str], word: re.Match[str]) -> bool:
    """Whether `word` is the first word after the word that opens the clause `m`."""
    return len(read.text[m.start() : word.start()].split()) <= 1

"""A clause cut into parts, each saying one thing."""

from __future__ import annotations

import re

from workers.stages.align import Parsed
from workers.stages.movements import movement_words
from workers.stages.parts import clause_of, elided, opening_name, parts


def _moving(read: Parsed, lo: int, hi: int) -> list[re.Match[str]]:
    return movement_words(read.text, lo, hi)


def _parts(text: str) -> list[str]:
    read = Parsed.of(text)
    return [text[lo:hi].strip(" ,.") for lo, hi in parts(read, (0, len(text)), _moving)]


def test_a_clause_is_cut_where_another_movement_or_clause_joins_it() -> None:
    assert _parts("Revenue rose as costs fell.") == ["Revenue rose", "as costs fell"]
    assert _parts("Blood pressure fell after the dose was doubled.") == [
        "Blood pressure fell",
        "after the dose was doubled",
    ]
    assert _parts("After the court narrowed the rule, filings dropped.") == [
        "After the court narrowed the rule",
        "filings dropped",
    ]
    # a participle's subject is its clause's; a clause under it without a movement is not cut off
    assert _parts("Sales rose 3% in the fourth quarter after falling 2%.") == [
        "Sales rose 3% in the fourth quarter after falling 2%"
    ]
    assert _parts("Revenue rose after the merger.") == ["Revenue rose after the merger"]


def test_a_part_whose_subject_is_left_out_is_named_by_the_part_before_it() -> None:
    text = "Revenue rose 5% in 2023 but fell in 2024."
    read = Parsed.of(text)
    cut = parts(read, (0, len(text)), _moving)
    fell = _moving(read, *cut[1])[0]
    named = elided(read, cut[1], fell, cut, _moving)
    assert named is not None and text[named[0] : named[1]].strip() == "Revenue"
    assert clause_of(read, cut[1], (0, len(text))) == cut[1]


def test_a_part_whose_subject_is_a_pronoun_or_left_out_takes_the_name_its_clause_opens_with() -> None:
    moving = _moving
    text = "Acme Corp reported weak sales on Tuesday, and it lowered its forecast."
    read = Parsed.of(text)
    cut = parts(read, (0, len(text)), moving)
    [other] = moving(read, *cut[-1])
    assert [text[slice(*s)] for s in [elided(read, cut[-1], other, cut, moving) or (0, 0)]] == ["Acme Corp"]
    assert opening_name(read, 0) == (0, 9)
    # an opening phrase, an owner, two names: no name to take
    assert opening_name(Parsed.of("In March, Acme cut costs."), 0) is None
    assert opening_name(Parsed.of("Acme's rival cut costs."), 0) is None
    assert opening_name(Parsed.of("Acme and Beta cut costs."), 0) is None
    assert opening_name(Parsed.of("The Federal Reserve cut rates."), 0) == (4, 19)

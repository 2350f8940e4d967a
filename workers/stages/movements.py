"""Words of movement: which way each goes, and in what grammar it can stand in for another. Pure.

"Revenue rose", "the Fed cut rates", "costs were higher": a word of rising or falling decides what
a figure means and is the whole point of many finance and health sentences. Each word here has a way
(up or down) and its readings: a grammar and a form. A rule may put one word in another's place only
where the sentence stays the same sentence (`fits`): "rose" for "fell" (both intransitive, past),
"cut" for "raised" (both transitive), "decreased" for either ("increase" and "decrease" go both
ways), never "fell" for "raised" ("The Fed fell rates"), nor "rose" for "cut" where "cut" may be a
present tense ("will cut" is not "will rose"). `usage` reads what the sentence makes of a word
the word alone cannot say.

Not every such word is a movement (`movement_words`): not in a name ("Niagara Falls", "Rose
Byrne"), not a season ("the fall of 2019"), not accidents ("the risk of falls"), not another verb
("dropped out", "fell through", "fell ill", "cut off", "declined to comment", "doubled down", "lost
the appeal": "lost" only of an amount; "contracted" only of an economy and with nothing it acts on,
"The economy contracted 2%", not "contracted pneumonia" or "Nurses contracted by the hospital"), not
in a compound ("double-blind", "cost-cutting"), not an adjective ("a narrow margin", "double
digits", "a slow recovery") or a description between a determiner and its noun ("the expanded
plan"), not the name of a kind ("sunk costs", "accelerated approval"), and a comparative only where
it is said of something ("costs were higher", "worse than expected"), not where it names a kind
("higher education", "the lower court", "at higher doses"). Forms that are mostly other words are
never read: "contract", "sink", "spike" and "rebound" ("a spike in cases", "rebound headaches");
"expanding" only after "before", "after", "is" ... ("before expanding by 5%", not "expanding
suburbs").

Getting better or worse ("improved", "worsened", "deteriorated", "better", "worse") is a scale of
its own (`way` 2 and -2): "pain improved" says what "pain fell" says, so those words clash only
with each other. So are strength (3: "the euro strengthened", "weakened", "stronger") and speed (4:
"growth accelerated", "slowed", "faster"): "growth slowed" is no fall, "the dollar weakened" none.

Usage::

    way("slashed"), way("climbs"), way("rates")   # -1, 1, 0
    fits("raised", "cut"), fits("raised", "fell")  # True, False
    fits("dropped", "rose", used="intransitive", form="past")   # "Levels dropped after the injection"
    [m.group(0) for m in movement_words("Higher doses rose in the fall of 2019.")]   # ["rose"]
"""

from __future__ import annotations

import re
from typing import Literal

from workers.stages._text import DETERMINERS, MONTHS, in_compound, in_name, wordset

__all__ = ["DIRECTION", "UP", "Form", "Grammar", "as_noun", "fits", "forms", "movement_words", "usage", "way"]

Grammar = Literal["intransitive", "transitive", "both", "comparative"]
Form = Literal["base", "s", "past", "participle", "ing", "comparative"]

_FORMS: tuple[Form, ...] = ("base", "s", "past", "participle", "ing")
# (grammar, way, base / third person / past / participle / -ing)
_VERBS: tuple[tuple[Grammar, int, str], ...] = (
    ("intransitive", 1, "rise rises rose risen rising"),
    ("intransitive", -1, "fall falls fell fallen falling"),
    ("intransitive", 1, "climb climbs climbed climbed climbing"),
    ("intransitive", 1, "jump jumps jumped jumped jumping"),
    ("intransitive", 1, "surge surges surged surged surging"),
    ("intransitive", 1, "soar soars soared soared soaring"),
    ("intransitive", -1, "plunge plunges plunged plunged plunging"),
    ("intransitive", -1, "tumble tumbles tumbled tumbled tumbling"),
    ("intransitive", -1, "slump slumps slumped slumped slumping"),
    ("transitive", 1, "raise raises raised raised raising"),
    ("transitive", 1, "boost boosts boosted boosted boosting"),
    ("transitive", 1, "hike hikes hiked hiked hiking"),
    ("transitive", -1, "cut cuts cut cut cutting"),
    ("transitive", -1, "lower lowers lowered lowered lowering"),
    ("transitive", -1, "reduce reduces reduced reduced reducing"),
    ("transitive", -1, "slash slashes slashed slashed slashing"),
    ("both", 1, "increase increases increased increased increasing"),
    ("both", -1, "decrease decreases decreased decreased decreasing"),
    ("both", 1, "grow grows grew grown growing"),
    ("both", -1, "shrink shrinks shrank shrunk shrinking"),
    ("both", 1, "gain gains gained gained gaining"),
    ("both", -1, "drop drops dropped dropped dropping"),
    ("both", -1, "decline declines declined declined declining"),
    ("both", 1, "double doubles doubled doubled doubling"),
    ("both", -1, "halve halves halved halved halving"),
    ("both", 1, "widen widens widened widened widening"),
    ("both", -1, "narrow narrows narrowed narrowed narrowing"),
    ("both", -1, "lose loses lost lost losing"),
    ("intransitive", -1, "dip dips dipped dipped dipping"),
    ("intransitive", -1, "plummet plummets plummeted plummeted plummeting"),
    ("intransitive", 1, "skyrocket skyrockets skyrocketed skyrocketed skyrocketing"),
    ("both", 1, "triple triples tripled tripled tripling"),
    ("both", 1, "expand expands expanded expanded expanding"),
    # "-": a form that is mostly another word, never read as a movement: "a contract", "the kitchen
    # sink", "a spike in cases" (a noun in the part of the movement it explains), "rebound headaches",
    # "Infections contracted in hospitals"
    ("intransitive", 1, "- - spiked spiked spiking"),
    ("intransitive", 1, "- - rebounded rebounded -"),
    ("intransitive", -1, "- - sank sunk -"),
    ("both", -1, "- - contracted contracted -"),
    # "a slide deck", "the slip of paper", "quantitative easing", "a rally in Washington": past forms
    # only; "eased", "slipped", "slid" only before an amount or where it went (`_SOFT`)
    ("intransitive", -1, "- - slid slid -"),
    ("intransitive", -1, "- - slipped slipped -"),
    ("both", -1, "- - eased eased -"),
    ("intransitive", 1, "- - rallied rallied -"),
    # a quality, not an amount: "pain improved" is "pain fell", so these clash only with each other
    ("both", 2, "improve improves improved improved improving"),
    ("both", -2, "worsen worsens worsened worsened worsening"),
    ("intransitive", -2, "deteriorate deteriorates deteriorated deteriorated deteriorating"),
    # strength and speed: "the euro weakened" is no fall, "growth slowed" none; each its own scale too
    ("both", 3, "strengthen strengthens strengthened strengthened strengthening"),
    ("both", -3, "weaken weakens weakened weakened weakening"),
    ("both", 4, "accelerate accelerates accelerated accelerated accelerating"),
    ("both", -4, "decelerate decelerates decelerated decelerated decelerating"),
    ("both", -4, "slow slows slowed slowed slowing"),
)
_COMPARATIVES = (
    ("higher", 1),
    ("lower", -1),
    ("better", 2),
    ("worse", -2),
    ("stronger", 3),
    ("weaker", -3),
    ("faster", 4),
    ("slower", -4),
)
_BE = wordset("be is are was were been being get gets got")
_HAVE = wordset("has have had having")
_MODALS = wordset("will would shall should can could may might must")
_BASE_BEFORE = _MODALS | wordset("to do does did")
# Before a comparative said of something: "were higher", "much lower".
_DEGREE = wordset(
    "much far slightly significantly substantially considerably markedly somewhat even no any little a bit"
)
# Words after a movement that leave it without an object: "rose by 5%", "fell to $3", "rose sharply".
_UNBOUND = wordset("by to from in on at after during over under since below above for until as than and")
# The next word, or a figure ("$4.2", "5%"), or nothing more in the clause.
_NEXT = re.compile(r"\s*(?:(?P<word>[$€£]?\w[\w'’.-]*)|[,.;:!?)]|\Z)")  # "contracted." ends its clause
# "the fall of 2019", "in fall 2020", "last fall": a season.
_SEASON_AFTER = re.compile(r"\s+(?:of\s+)?(?:19|20)\d\d\b|\s*(?:[,.;:!?)]|\Z)")
_SEASON_BEFORE = wordset("last next this early late that")
# "dropped out", "cut off", "fell ill": another verb than a movement.
_PHRASAL = re.compile(
    r"\s+(?:out|off|away|apart|through|behind|ill|sick|asleep|silent|victim|prey|short)\b", re.IGNORECASE
)
# A measure before a comparative: "40% lower", "2-fold higher", "three times higher".
_MEASURE = re.compile(r"[$€£]?[\d.,]+%?|\w+-fold|times|points?|percent")
# "declined to comment", "declined to hear the case": a refusal, not a fall ("declined to 3%" is one).
_REFUSED = re.compile(r"\s+to\s+(?!(?:the|its|their|his|her|a|an|lowest|record|levels?)\b)[a-z]")
_ACCIDENTS_BEFORE = wordset("of from fewer more prevent prevents preventing prevented")
# Adjectives as often as verbs ("a double dose", "a narrow margin", "to double digits"): movements only
# after "will", "would", "may" ...
_ADJECTIVES_TOO = wordset("double narrow triple slow")
_COUNTED = wordset("both two")
# "lost 5%", "lost $2 billion", "lost weight": an amount; "lost the appeal", "lost consciousness", "a
# losing streak" are not.
_LOST_AMOUNT = re.compile(
    r"\s+(?:by\s+)?(?:(?:about|nearly|almost|over|roughly|around|some|more\s+than)\s+)?(?:[$€£]?\d"
    r"|(?:weight|ground|value|momentum|money|market\s+share)\b)",
    re.IGNORECASE,
)
# Names of a kind, not movements: "sunk costs", "accelerated approval", "an expanded access program".
_KIND_NAMES = re.compile(
    r"(?:sunk\s+costs?|accelerated\s+(?:approval|depreciation|vesting|amorti[sz]ation|filers?)"
    r"|expanded\s+access\s+programs?)\b",
    re.IGNORECASE,
)
# "contracted with a supplier", "contracted pneumonia", "Consultants contracted by the agency": no
# movement; "the economy contracted 2%", "GDP contracted by 1.2% in the second quarter" are: only of
# what an economy makes or trades, or after "has".
_CONTRACTED_OTHERWISE = re.compile(r"\s+(?:with|out|to\s+[a-z])", re.IGNORECASE)
_SHRINKS = wordset(
    "economy economies gdp output sector activity manufacturing industry market markets margin margins "
    "exports imports sales revenue revenues pmi spending lending credit production"
)
# After these, "contracted" is a movement only before a figure or "by": "has contracted 2%", not "has
# contracted 500 nurses" (a count the figure's noun would tell).
_SHRANK_AFTER = wordset("has have had then also")
_BY_FIGURE = re.compile(r"\s+(?:by\s+)?[$€£]?\d[\d.,]*\s*(?:%|percent|per\s+cent)|\s+by\b", re.IGNORECASE)
# "expanding" only where it tells a change: "before expanding by 5%", "is expanding", not "expanding
# suburbs" or "Companies expanding in Asia hired 5,000 workers".
_EXPANDING_AFTER = wordset(
    "before after while since when by is are was were been be being keep keeps kept continue continues "
    "continued"
)
# A participle between a determiner and its noun is a description: "the expanded plan", "its expanded
# credit facility", "the tripled dose".
_PARTICIPLES = wordset(
    "expanded tripled plummeting skyrocketing spiking weakening strengthening slowing accelerating"
)
# "eased", "slipped" and "slid" are movements only before an amount, where it went or when ("eased to
# 3.1%", "slid 4%", "slipped sharply below $70", "eased in the second quarter", "slid on Monday"),
# not "eased restrictions", "Concerns eased after ...", "slipped on the stairs".
_SOFT = wordset("eased slipped slid")
_SOFT_MOVED = re.compile(
    r"\s+(?:\w+ly\s+)?(?:(?:by|to|from|below|under|toward|towards|back|lower|further)\b|[$€£]?\d"
    r"|(?:in|on|during|over|for)\s+(?:the\s+)?(?:(?:first|second|third|fourth|last|latest|past|previous|same)\s+)?"
    r"(?:quarter|half|month|year|week|session|day|trading|(?:19|20)\d\d|Q[1-4]|"
    + "|".join(MONTHS)
    + r"|monday|tuesday|wednesday|thursday|friday)\b)",
    re.IGNORECASE,
)
# "doubled down on its strategy": a stance, not an amount.
_DOUBLED_DOWN = re.compile(r"\s+down\b", re.IGNORECASE)


def _readings() -> dict[str, tuple[int, frozenset[tuple[Grammar, Form]]]]:
    table: dict[str, tuple[int, set[tuple[Grammar, Form]]]] = {}
    for grammar, direction, forms in _VERBS:
        for word, form in zip(forms.split(), _FORMS, strict=True):
            if word == "-":
                continue
            table.setdefault(word, (direction, set()))[1].add((grammar, form))
    for word, direction in _COMPARATIVES:
        table.setdefault(word, (direction, set()))[1].add(("comparative", "comparative"))
    return {w: (d, frozenset(r)) for w, (d, r) in table.items()}


_READINGS = _readings()
UP = frozenset(w for w, (d, _) in _READINGS.items() if d == 1)
DIRECTION = re.compile(r"\b(?:" + "|".join(sorted(_READINGS)) + r")\b", re.IGNORECASE)


def way(word: str) -> int:
    """1 for a word of rising, -1 for one of falling, 2 and -2 for getting better or worse (a scale
    of its own: "pain improved" is "pain fell"), 3 and -3 for strength, 4 and -4 for speed, 0 for any
    other word."""
    found = _READINGS.get(word.lower())
    return found[0] if found else 0


def forms(word: str) -> frozenset[Form]:
    """The forms `word` may be: "cut" base, past or participle; "rose" past only."""
    found = _READINGS.get(word.lower())
    return frozenset(f for _, f in found[1]) if found else frozenset()


def fits(mine: str, theirs: str, *, used: Grammar | None = None, form: Form | None = None) -> bool:
    """Whether `theirs` can stand in `mine`'s place in every reading `mine` may have: the same form, and
    the same grammar, or a word that goes both ways in place of a transitive or intransitive one.
    `used` and `form`: what the sentence makes of `mine` where the word alone cannot say ("increased
    the dose": transitive; "has increased": a participle, so "has fell" is no fix)."""
    ours, other = _READINGS.get(mine.lower()), _READINGS.get(theirs.lower())
    if ours is None or other is None:
        return False
    readings = {(used if used and g == "both" else g, f) for g, f in ours[1]}
    if form is not None and any(f == form for _, f in readings):
        readings = {(g, f) for g, f in readings if f == form}
    return all(any(_stands_in(r, o) for o in other[1]) for r in readings)


def _stands_in(mine: tuple[Grammar, Form], theirs: tuple[Grammar, Form]) -> bool:
    if mine[1] != theirs[1]:
        return False
    return mine[0] == theirs[0] or (theirs[0] == "both" and mine[0] in ("intransitive", "transitive"))


def movement_words(text: str, lo: int = 0, hi: int | None = None) -> list[re.Match[str]]:
    """The words of movement in text[lo:hi], leaving out names, seasons, accidents and comparatives
    that name a kind."""
    found = DIRECTION.finditer(text, lo, len(text) if hi is None else hi)
    return [
        m
        for m in found
        if not in_name(text, m.start(), m.end())  # "Niagara Falls", "Rose Byrne"
        and not in_compound(text, m.start(), m.end())  # names a kind: "double-blind", "cost-cutting"
        and not _not_moving(text, m)
        and not _PHRASAL.match(text, m.end())
        and not (m.group(0).lower().startswith("declin") and _REFUSED.match(text, m.end()))
    ]


def usage(text: str, m: re.Match[str]) -> tuple[Grammar | None, Form | None]:
    """How the sentence uses a word of movement where the word alone cannot say: its form (`_form`),
    and for a word that goes both ways, an object before a determiner ("increased the dose") and
    none before a figure, a preposition, an adverb or the clause's end ("increased 5%")."""
    previous = _previous(text, m)
    if "comparative" in forms(m.group(0)) and _said_of(text, m):
        return "comparative", "comparative"  # "was lower": not the verb "to lower"
    form = _form(m.group(0), previous)
    if previous in _BE:
        return "transitive", form
    if _unbound(text, m):
        return "intransitive", form
    return ("transitive" if _next_word(text, m) in DETERMINERS else None), form


def _next_word(text: str, m: re.Match[str]) -> str:
    after = _NEXT.match(text, m.end())
    return (after.group("word") or "").lower().rstrip(".") if after else ""  # "sharply." is "sharply"


def _unbound(text: str, m: re.Match[str]) -> bool:
    """Nothing after the word it could act on: a figure, a preposition, an adverb or the clause's end."""
    word = _next_word(text, m)
    return not word or word in _UNBOUND or word.endswith("ly") or word.lstrip("$€£")[:1].isdigit()


def _form(word: str, previous: str) -> Form | None:
    """After "be" or "have" a participle, after "will" or "to" a base form; "increased" alone a past
    tense. "cut" alone may be any of them, and no form is assumed ("They cut rates" is no "raised")."""
    if previous in _BE | _HAVE:
        return "participle"
    if previous in _BASE_BEFORE:
        return "base"
    return "past" if "past" in forms(word) and "base" not in forms(word) else None


def as_noun(text: str, m: re.Match[str]) -> bool:
    """A word of movement after a determiner is a noun: "a fall of 5%", "the rise in prices"."""
    return _previous(text, m) in DETERMINERS


def _previous(text: str, m: re.Match[str]) -> str:
    before = text[: m.start()].split()[-1:]
    return before[0].lower() if before else ""


def _not_moving(text: str, m: re.Match[str]) -> bool:
    """A season, accidents, an adjective, or a comparative naming a kind: no movement of anything."""
    word, previous = m.group(0).lower(), _previous(text, m)
    if _KIND_NAMES.match(text, m.start()):
        return True
    if word.startswith("contract"):  # only of an amount, said of what shrank
        otherwise = _CONTRACTED_OTHERWISE.match(text, m.end()) is not None
        # "GDP sharply contracted", "then contracted", "Germany, the largest economy, contracted"
        shrank = previous.rstrip(",") in _SHRINKS or previous.endswith("ly")
        shrank = shrank or (previous in _SHRANK_AFTER and _BY_FIGURE.match(text, m.end()) is not None)
        return not shrank or not _unbound(text, m) or otherwise
    if word in _PARTICIPLES and (previous in DETERMINERS or previous.endswith(("'s", "’s"))):
        return True
    if word in _SOFT:
        return _SOFT_MOVED.match(text, m.end()) is None
    if word == "expanding":
        return previous not in _EXPANDING_AFTER
    if word == "fall":
        return previous in _SEASON_BEFORE or bool(_SEASON_AFTER.match(text, m.end()))
    if word == "falls":
        return previous in _ACCIDENTS_BEFORE
    if word.startswith("doubl") and _DOUBLED_DOWN.match(text, m.end()):
        return True
    if word in _ADJECTIVES_TOO:
        return previous not in _MODALS
    if word == "halves":  # "both halves", "the two halves of the year"
        return previous in DETERMINERS or previous in _COUNTED
    if word.startswith("los"):
        return _LOST_AMOUNT.match(text, m.end()) is None
    if "comparative" not in forms(word) or (word == "lower" and previous in _BASE_BEFORE):
        return False
    return not _said_of(text, m)


def _said_of(text: str, m: re.Match[str]) -> bool:
    """A comparative said of something: after "be", a degree or a figure ("were higher", "much lower",
    "40% lower", "2-fold higher"), or before "than" or the clause's end."""
    previous = _previous(text, m)
    figure = _MEASURE.fullmatch(previous) is not None
    ends = re.match(r"\s*(?:than\b|[,.;:!?)]|\Z)", text[m.end() :]) is not None
    return previous in _BE or previous in _DEGREE or figure or ends

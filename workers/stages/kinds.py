"""What kind of thing a name names, from the word that says so: a value of another kind is no fix.

A name often carries its kind in one word, its head: "Westchester *County*", "Rhode *Island*", "the
South American *Championships*", "the *University* of Texas". The rule checks replace a claim's name
with the window's name in the same role ("born in X" against "born in Y"), but a window may state a
name of another kind in that role: a hamlet for a county ("in Westchester County" against "in Carle
Place"), a city for a championship. Put in, such a fix says something the evidence does not. So a name
with a head only stands in for a name with the same head, and a name without one only for a name
without one; the claim is then flagged as unconfirmed instead of corrected.

Usage::

    same_kind("Westchester County", "Nassau County")  # True
    same_kind("Westchester County", "Carle Place")    # False
    same_kind("Paris", "Lyon")                         # True: neither says its kind
"""

from __future__ import annotations

from workers.stages._text import wordset

__all__ = ["head", "same_kind"]

# Words that name a kind of place, body, event or work when they end a name (or come before its "of").
# Left out on purpose: words that end country names ("United States", "United Kingdom", "Czech
# Republic"), where a country of another shape is the same kind of thing.
_HEADS = wordset(
    "county parish province district borough township municipality prefecture canton "
    "island isle river lake mountain valley bay sea ocean gulf strait peninsula desert forest glacier "
    "falls canyon creek harbour harbor reservoir canal "
    "university college school academy institute seminary "
    "championship cup award prize trophy medal tournament olympics games festival "
    "party airport airline stadium arena park street avenue road highway bridge square tower "
    "church cathedral temple mosque abbey hospital museum gallery library theatre theater palace "
    "castle station "
    "league club council committee agency department ministry court parliament senate congress "
    "company corporation bank records studios magazine newspaper band orchestra "
    "army navy regiment division battalion war battle treaty act"
)
_PLURAL = "s"


def head(name: str) -> str | None:
    """The word of `name` that says its kind, singular and lower-case; None where no word does."""
    words = name.split()
    if not words:
        return None
    lower = [w.lower().strip(".,'’") for w in words]
    word = lower[lower.index("of") - 1] if "of" in lower[1:] else lower[-1]
    if word.endswith(_PLURAL) and word[:-1] in _HEADS:
        word = word[:-1]
    return word if word in _HEADS else None


def same_kind(a: str, b: str) -> bool:
    """Whether the names `a` and `b` may be values of one thing: the same head, or neither has one."""
    return head(a) == head(b)

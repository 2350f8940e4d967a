"""What kind of thing a name names, from the word that says so: a value of another kind is no fix.

A name often carries its kind in one word, its head: "Westchester *County*", "the South American
*Championships*", "the *University* of Texas". The rule checks replace a claim's name
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

# Words that name a kind of administrative area, institution, event or body when they end a name (or
# come before its "of"). Left out on purpose: words that are common surnames or parts of place names
# ("Bay", "Park", "Rivers", "Temple", "Ocean", "Island", "Lake"), where a fix of another shape is often
# right ("Green Bay" -> "Milwaukee", "Zack Snyder" -> "Michael Bay"), and the words that end country
# names ("United States", "Czech Republic").
_HEADS = wordset(
    "county parish province district borough township municipality prefecture canton "
    "university college academy institute seminary "
    "championship tournament olympics cup award prize trophy medal festival "
    "party airport stadium arena league club council committee agency department ministry "
    "corporation company magazine newspaper hospital museum cathedral station"
)


def head(name: str) -> str | None:
    """The word of `name` that says its kind, singular and lower-case; None where no word does."""
    words = name.split()
    if not words:
        return None
    lower = [w.lower().strip(".,'’") for w in words]
    word = lower[lower.index("of") - 1] if "of" in lower[1:] else lower[-1]
    if word.endswith("s") and word[:-1] in _HEADS:  # "Championships"
        word = word[:-1]
    return word if word in _HEADS else None


def same_kind(a: str, b: str) -> bool:
    """Whether the names `a` and `b` may be values of one thing: the same head, or neither has one."""
    return head(a) == head(b)

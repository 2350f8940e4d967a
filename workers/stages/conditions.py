"""Charges denied: "allowed without penalty" against "permitted subject to a 1% prepayment fee". Pure.

A claim that something comes free of a charge, against a window that attaches one, is contradicted in
a way no slot aligner sees: there is no second value, only a condition the claim drops and denies.
The fix is the window's own condition put where the claim's denial stood, so correction says what the
document says ("Early repayment is allowed subject to a 1% prepayment fee.").

A false clash damages a correct answer, so it stays narrow: the claim must deny a charge in so many
words ("without penalty", "with no fee", "free of charge", "at no cost"), the window must attach one
("subject to a 1% prepayment fee", "incurs a penalty of 2%"), and the window must neither deny one nor
make an exception (a document that says "without penalty after two years" and "subject to a fee
before", or "a monthly fee unless ...", or calls something free: "up to 6 free withdrawals a year",
is left to the model). A claim that states the charge's amount itself ("six withdrawals a year without
charge; after that, each costs £5") knows the charge and says when it applies.

Usage::

    [clash] = charge_clashes("Early repayment is allowed without penalty.",
                             "Early repayment is permitted subject to a 1% prepayment fee.")
    clash.denial, clash.fix    # "without penalty", "subject to a 1% prepayment fee"
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["ChargeClash", "charge_clashes"]

_CHARGE = r"(?:penalty|penalties|fee|fees|charge|charges|cost|costs|surcharge|surcharges|fine|fines)"
_DENIAL = re.compile(
    rf"\b(?:without|with\s+no|free\s+of|at\s+no|no)\s+(?:any\s+)?(?:additional\s+|extra\s+)?"
    rf"(?:[a-z]+\s+)?{_CHARGE}\b|\bfree\s+of\s+charge\b|\bpenalty[- ]free\b|\bfee[- ]free\b",
    re.IGNORECASE,
)
# The window's condition, cut at a clause break: "subject to", "incurs", "carries" + a charge ("with a
# lower cost" is left out: "with" attaches too much that is no charge).
_CONDITION = re.compile(
    rf"\b(?:subject\s+to|incurs?|incurring|carries|carrying|attracts?)\s+(?P<charge>(?:a|an|the)\s+"
    rf"[^,;.()]{{0,40}}?\b{_CHARGE}\b(?:\s+of\s+[^,;()\s]+)?)",
    re.IGNORECASE,
)

# A charge with an exception may not apply to the claim's case: left to the model.
_EXCEPTION = re.compile(r"\b(?:unless|except|waived?|if|provided|only\s+when)\b", re.IGNORECASE)
# A window that calls something free ("up to 6 free withdrawals a year. Each additional withdrawal incurs
# a fee of £5") charges only past it: left to the model, wherever it says so, since the free part may be
# the claim's ("free to" is a permission, "feel free" a courtesy).
_FREE = re.compile(r"(?<!feel )\bfree\b(?!\s+to\b)", re.IGNORECASE)
_AMOUNT = re.compile(r"[£$€¥]\s?\d(?:[\d,.]*\d)?|\d(?:[\d,.]*\d)?\s?%")


@dataclass(frozen=True)
class ChargeClash:
    """The claim's denial of a charge (`start`:`end` in the claim), the window's condition, and the
    words that take the denial's place: "subject to <the charge>", or the charge alone where the denial
    was a determiner ("has no monthly fee" -> "has a monthly fee of $5")."""

    start: int
    end: int
    denial: str
    condition: str
    fix: str


def charge_clashes(claim: str, window: str) -> list[ChargeClash]:
    """The claim's one denial of a charge against the window's one condition, when the window denies none.

    >>> [c.fix for c in charge_clashes("It ships free of charge.", "Shipping incurs a fee of $5.")]
    ['subject to a fee of $5']
    """
    denials = list(_DENIAL.finditer(claim))
    conditions = list(_CONDITION.finditer(window))
    if len(denials) != 1 or len(conditions) != 1 or _DENIAL.search(window) or _EXCEPTION.search(window):
        return []
    denial, condition = denials[0], conditions[0]
    if _FREE.search(window) or _charged_too(claim, condition.group("charge")):
        return []
    charge = condition.group("charge").rstrip(" .")
    said = denial.group(0)
    fix = charge if said.lower().startswith("no ") else f"subject to {charge}"
    return [ChargeClash(denial.start(), denial.end(), said, condition.group(0).rstrip(" ."), fix)]


def _charged_too(claim: str, charge: str) -> bool:
    """Whether the claim states the charge's amount itself ("six withdrawals a year without charge;
    after that, each costs £5"): it knows the charge, and says when it applies."""
    said = claim.replace(" ", "")
    return any(
        re.search(rf"(?<![\d.,]){re.escape(m.group(0).replace(' ', ''))}(?![\d])", said)
        for m in _AMOUNT.finditer(charge)
    )

"""A value of the window written in the claim's style, for a fix: "$4.2 bn" + "3.9 billion" -> "$3.9 bn".

Usage::

    render_like(claim_slot, window_slot)  # "March 5, 1991" for a claim that writes dates so
"""

from __future__ import annotations

from workers.stages.clock import CLOCKS
from workers.stages.durations import RACE_TIME, in_two_units

# The unit, count-word and month tables are the slot reader's: a value is written back as it was read.
from workers.stages.slots import _COUNT_WORDS, _MONTHS, _WORD_NAMES, Figure, Slot, SlotKind, When
from workers.stages.units import UNIT_INFO

__all__ = ["render_like"]


def render_like(claim: Slot, evidence: Slot) -> str:
    """The evidence value in the claim's style where possible: "$4.2 bn" + "3.9 billion" -> "$3.9 bn"."""
    if claim.figure is not None and evidence.figure is not None:
        if (CLOCKS | {RACE_TIME}) & {claim.figure.unit, evidence.figure.unit} or in_two_units(evidence.text):
            return evidence.text  # a time, or a duration in two units, as the window writes it
        text = _render_figure(claim.figure, evidence.figure) or evidence.text
        return text.capitalize() if claim.figure.spelled and claim.text[:1].isupper() else text
    if claim.when is not None and evidence.when is not None:
        return _render_when(claim.when, evidence.when) or evidence.text
    if claim.kind is SlotKind.QUANTIFIER:  # "so few clinics" against "Most clinics": "so most"
        first = evidence.text[:1].upper() if claim.text[:1].isupper() else evidence.text[:1].lower()
        return first + evidence.text[1:]
    return evidence.text


def _render_figure(claim: Figure, evidence: Figure) -> str | None:
    fc, fe = UNIT_INFO.get(claim.unit or ""), UNIT_INFO.get(evidence.unit or "")
    if fc and fe and (fc[0] != fe[0] or (fc[0] == "currency" and claim.unit != evidence.unit)):
        return None
    factor = fe[1] / fc[1] if fc and fe else 1.0
    value = evidence.number * factor / claim.scale
    fits = (
        d for d in range(claim.decimals, max(claim.decimals, 3) + 1) if abs(round(value, d) - value) < 1e-9
    )
    decimals = next(fits, None)
    # "$0.35 bn" for "350 million", or "7000 million" for "7 billion", reads worse than the evidence's words.
    if decimals is None or (claim.scale > 1 and not 1 <= value < 1000):
        return None
    if claim.spelled and value in _COUNT_WORDS.values():
        return _WORD_NAMES[int(value)] + claim.suffix  # "thirty thousand"
    digits = f"{value:,.{decimals}f}" if claim.grouped else f"{value:.{decimals}f}"
    return claim.prefix + digits + claim.suffix


def _render_when(claim: When, evidence: When) -> str | None:
    y, m, d = evidence.year, evidence.month, evidence.day
    month = _MONTHS[m - 1].capitalize() if m else ""
    formats = {
        "mdy": (f"{month} {d}, {y}", (y, m, d)),
        "dmy": (f"{d} {month} {y}", (y, m, d)),
        "iso": (f"{y or 0:04d}-{m or 0:02d}-{d or 0:02d}", (y, m, d)),
        "my": (f"{month} {y}", (y, m)),
        "md": (f"{month} {d}", (m, d)),
        "dm": (f"{d} {month}", (m, d)),
        "y": (f"{y}", (y,)),
    }
    text, needed = formats[claim.style]
    return text if None not in needed else None

"""The clause of a window a claim is read against. Pure.

Most rule checks compare the claim with one clause of the window (`segment`): the one that states
every figure and date of the claim (two or more) as the claim does, else the one sharing most of its
content words.

Usage::

    best_segment(Parsed.of("Women aged 50 to 64 are invited every five years."), window)  # (start, end)
"""

from __future__ import annotations

from collections.abc import Sequence

from workers.backends.negation import stems
from workers.stages.align import Parsed, covered
from workers.stages.slot_types import Slot, SlotKind
from workers.stages.slots import values_match

__all__ = ["best_segment", "states_every"]


def best_segment(claim: Parsed, ev: Parsed) -> tuple[int, int]:
    """The window clause sharing most content words with the claim; first, one that states every figure
    and date of the claim (two or more) as the claim does ("Women aged 50 to 64 are invited every five years"
    against "Women aged 25 to 49 are invited for cervical screening every 3 years. Those aged 50 to 64
    are invited every 5 years": the second, though the first shares more words)."""
    context = claim.context()
    values = [s for s in claim.values if s.kind is not SlotKind.ENTITY]
    return max(
        ev.segments,
        key=lambda seg: (_states_all(values, ev, seg), covered(context, stems(ev, seg)), -seg[0]),
    )


def _states_all(values: Sequence[Slot], ev: Parsed, segment: tuple[int, int]) -> bool:
    """Whether the clause states two or more values of the claim, and every one (a single year found
    in a clause about something else says little: "Dividends on ordinary shares are paid quarterly
    from 2024" against "... preference shares are paid annually from 2024")."""
    return states_every(values, [e for e in ev.values if segment[0] <= e.start < segment[1]])


def states_every(values: Sequence[Slot], said: Sequence[Slot]) -> bool:
    """Whether there are two or more `values` and `said` holds each of them as written."""
    return len(values) >= 2 and all(any(values_match(v, e) for e in said) for v in values)

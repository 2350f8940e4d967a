"""Hard cases the verifier got wrong, built from real sentences. Pure and seeded.

- modality: "may" read as "must", "can" as "is required to", ... (CONTRADICT): permission is not duty;
- conditions: a sentence given a condition ("subject to a 1% fee") against the same sentence claimed
  without it ("without any fee", "at any time"), and the other way round (CONTRADICT);
- similar but irrelevant: a sentence against the window of its own document that shares the most words
  with it without holding it, when the window lacks one of its figures or names (NEUTRAL): the measured
  false-support failure is a passage on the same topic that does not state the claim.

Usage::

    pairs = hard_cases(["Members may withdraw at any time. ..."], seed=0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from lab.training.pairs import Pair
from workers.stages.extract import split_sentences
from workers.stages.slots import SlotKind, extract_slots
from workers.stages.terms import content_terms

__all__ = ["add_condition", "change_modality", "hard_cases", "similar_window"]

_MODAL_SWAPS = {
    "may": ("must", "is required to"),
    "might": ("will", "must"),
    "can": ("must", "is required to"),
    "could": ("must", "will"),
    "must": ("may", "can"),
    "should": ("may", "must"),
    "will": ("may", "might"),
    "is allowed to": ("is required to", "must"),
    "are allowed to": ("are required to", "must"),
    "is required to": ("may", "is allowed to"),
    "are required to": ("may", "are allowed to"),
    "optional": ("mandatory", "required"),
    "mandatory": ("optional", "voluntary"),
}
_MODAL = re.compile(r"\b(" + "|".join(sorted(_MODAL_SWAPS, key=len, reverse=True)) + r")\b")
_CONDITIONS = (
    "subject to a {n}% fee",
    "subject to prior written approval",
    "only with the consent of the board",
    "provided that notice is given {n} days in advance",
    "only after a waiting period of {n} months",
    "except in the first {n} years",
)
_UNCONDITIONAL = (
    "without any fee",
    "without any conditions",
    "at any time and without notice",
    "in all cases",
)
_MIN_SHARED, _MAX_SHARED = 0.3, 0.85
_HARD_SLOTS = frozenset({SlotKind.FIGURE, SlotKind.PERCENT, SlotKind.YEAR, SlotKind.DATE, SlotKind.ENTITY})


def change_modality(sentence: str, rng: random.Random) -> str | None:
    """The sentence with one modal swapped for one that states something else, or None."""
    found = list(_MODAL.finditer(sentence))
    if not found:
        return None
    m = rng.choice(found)
    new = rng.choice(_MODAL_SWAPS[m.group(1)])
    return sentence[: m.start()] + new + sentence[m.end() :]


def add_condition(sentence: str, rng: random.Random) -> tuple[str, str] | None:
    """(the sentence with a condition, the sentence with its opposite): each contradicts the other."""
    body = sentence.rstrip()
    if not body.endswith(".") or len(body.split()) < 5:
        return None
    n = rng.choice((1, 2, 3, 5, 10, 30))
    condition = rng.choice(_CONDITIONS).format(n=n)
    return f"{body[:-1]}, {condition}.", f"{body[:-1]} {rng.choice(_UNCONDITIONAL)}."


def similar_window(sentence: str, windows: Sequence[str]) -> str | None:
    """The window sharing most content words with the sentence without stating it, or None."""
    mine = {t.stem for t in content_terms(sentence)}
    needed = {s.text.lower() for s in extract_slots(sentence) if s.kind in _HARD_SLOTS}
    if len(mine) < 3 or not needed:
        return None
    best: tuple[float, str] | None = None
    for window in windows:
        if sentence in window or all(v in window.lower() for v in needed):
            continue
        shared = len(mine & {t.stem for t in content_terms(window)}) / len(mine)
        if _MIN_SHARED <= shared <= _MAX_SHARED and (best is None or shared > best[0]):
            best = (shared, window)
    return best[1] if best else None


def hard_cases(documents: Sequence[str], *, seed: int = 0, share: float = 0.3) -> list[Pair]:
    """Hard pairs from a seeded `share` of the documents' sentences."""
    rng = random.Random(seed)
    out: list[Pair] = []
    for doc in documents:
        sentences = [doc[s:e] for s, e in split_sentences(doc)]
        windows = [" ".join(sentences[i : i + 2]) for i in range(len(sentences))]
        for sentence in sentences:
            if 6 <= len(sentence.split()) <= 60 and rng.random() < share:
                out += _pairs(sentence, windows, rng)
    return out


def _pairs(sentence: str, windows: Sequence[str], rng: random.Random) -> list[Pair]:
    out: list[Pair] = []
    modal = change_modality(sentence, rng)
    if modal is not None:
        out.append(Pair(modal, sentence, "CONTRADICT", "synthetic:modality"))
    conditioned = add_condition(sentence, rng) if rng.random() < 0.3 else None
    if conditioned is not None:
        with_it, without = conditioned if rng.random() < 0.5 else conditioned[::-1]
        out.append(Pair(without, with_it, "CONTRADICT", "synthetic:condition"))
        out.append(Pair(with_it, with_it, "SUPPORT", "synthetic:condition-kept"))
    similar = similar_window(sentence, windows)
    if similar is not None:
        out.append(Pair(sentence, similar, "NEUTRAL", "synthetic:neutral-similar"))
    return out

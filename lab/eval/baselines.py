"""Baselines scored beside woodpecker by the same metric code.

- `no_correction`: says nothing is hallucinated and changes nothing.
- `similarity_tier_only`: the pipeline's own tier 1 alone: hallucinated when any claim's best
  evidence similarity is below the threshold for the answer's domain.
- `lexical_coverage`: the share of the answer's content words found in its documents; below a
  threshold = hallucinated. The threshold maximises balanced accuracy on the dev split.
- FaithBench detectors: each numeric score in a sample's `metadata`; below 0.5 = hallucinated.

Usage::

    fit = fit_lexical_threshold(dev_items)
    systems = baseline_systems(thresholds={"response": fit.threshold}, detectors=["hhem-2.1"], ...)
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lab.eval.datasets import EvalItem, Span
from lab.eval.metrics import binary_scores, confusion
from lab.eval.runner import Outcome
from workers.messages import Action, Answer, Verdict

__all__ = [
    "DETECTOR_CONSISTENT_AT",
    "LexicalFit",
    "System",
    "content_words",
    "detector_system",
    "fit_lexical_threshold",
    "lexical_coverage",
    "lexical_system",
    "no_correction",
    "similarity_system",
    "woodpecker_system",
]

DETECTOR_CONSISTENT_AT = 0.5

_STOPWORD_TEXT = (
    "a an the and or but if then else of in on at to for from by with without about as into onto "
    "over under is are was were be been being am do does did done has have had having it its it's "
    "this that these those there here which who whom whose what when where why how not no nor so "
    "than too very can could should would will shall may might must i me my we our you your he him "
    "his she her they them their also just only such both each any all some more most other same own s t"
)
_STOPWORDS = frozenset(_STOPWORD_TEXT.split())


@dataclass(frozen=True)
class System:
    """A detector under evaluation: is the outcome's answer hallucinated, and which spans does it blame."""

    name: str
    predict: Callable[[Outcome], bool | None]
    spans: Callable[[Outcome], tuple[Span, ...] | None] | None = None


# ---- woodpecker itself -----------------------------------------------------------------------------


def woodpecker_system(*, strict: bool = False) -> System:
    """Hallucinated when any claim is CONTRADICTED or UNVERIFIED (strict: CONTRADICTED only)."""
    bad = {Verdict.CONTRADICTED} if strict else {Verdict.CONTRADICTED, Verdict.UNVERIFIED}

    def predict(o: Outcome) -> bool | None:
        return None if o.corrected is None else any(c.verdict in bad for c in o.corrected.claims)

    return System("woodpecker_strict" if strict else "woodpecker", predict, _changed_spans)


def _changed_spans(o: Outcome) -> tuple[Span, ...] | None:
    """The spans of the claims woodpecker flagged, replaced or removed."""
    if o.corrected is None:
        return None
    return tuple((c.start, c.end) for c in o.corrected.claims if c.action is not Action.KEEP)


# ---- no correction ---------------------------------------------------------------------------------


def no_correction() -> System:
    return System("no_correction", lambda o: False, lambda o: ())


# ---- similarity tier only --------------------------------------------------------------------------


def similarity_system(threshold_for: Callable[[Answer], float]) -> System:
    """Tier 1 alone. ClaimResult has no claim type, so the threshold is the answer domain's."""

    def low(o: Outcome) -> tuple[Span, ...] | None:
        if o.corrected is None:
            return None
        limit = threshold_for(o.item.answer)
        return tuple((c.start, c.end) for c in o.corrected.claims if c.similarity < limit)

    def predict(o: Outcome) -> bool | None:
        spans = low(o)
        return None if spans is None else bool(spans)

    return System("similarity_tier_only", predict, low)


# ---- lexical coverage ------------------------------------------------------------------------------


def content_words(text: str) -> list[str]:
    """Lower-cased word and number tokens that are not stop words."""
    return [w for w in re.findall(r"[a-z0-9]+(?:'[a-z]+)?", text.lower()) if w not in _STOPWORDS]


def lexical_coverage(answer: Answer) -> float:
    """Share of the answer's content words found in its documents; 1.0 when it has none."""
    words = content_words(answer.answer)
    if not words:
        return 1.0
    vocabulary = {w for doc in answer.documents for w in content_words(doc.text)}
    return sum(w in vocabulary for w in words) / len(words)


@dataclass(frozen=True)
class LexicalFit:
    threshold: float
    balanced_accuracy: float
    n: int


def fit_lexical_threshold(items: Sequence[EvalItem]) -> LexicalFit:
    """The cut (coverage below it = hallucinated) with the best balanced accuracy on `items`.

    Candidates are the midpoints between distinct coverages and both ends; ties go to the lowest cut.
    With no labelled items the cut is 0.0: nothing is called hallucinated.
    """
    labelled = [(lexical_coverage(it.answer), it.hallucinated) for it in items if it.hallucinated is not None]
    scores = sorted({s for s, _ in labelled})
    cuts = [0.0, *((a + b) / 2 for a, b in itertools.pairwise(scores)), 1.0 + 1e-9]
    best = LexicalFit(threshold=0.0, balanced_accuracy=0.0, n=len(labelled))
    for cut in cuts if labelled else ():
        gold = [bool(g) for _, g in labelled]
        result = binary_scores(confusion(gold=gold, pred=[s < cut for s, _ in labelled]))
        accuracy = float(result["balanced_accuracy"] or 0.0)
        if accuracy > best.balanced_accuracy:
            best = LexicalFit(threshold=round(cut, 6), balanced_accuracy=accuracy, n=len(labelled))
    return best


def lexical_system(thresholds: dict[str, float]) -> System:
    """Coverage below the threshold fitted for the item's kind = hallucinated."""

    def predict(o: Outcome) -> bool | None:
        cut = thresholds.get(o.item.kind)
        return None if cut is None else lexical_coverage(o.item.answer) < cut

    return System("lexical_coverage", predict)


# ---- FaithBench's shipped detectors -----------------------------------------------------------------


def detector_system(name: str) -> System:
    """A detector whose score ships with the item; below 0.5 = hallucinated, missing = not scored."""

    def predict(o: Outcome) -> bool | None:
        score = dict(o.item.detectors).get(name)
        return None if score is None else score < DETECTOR_CONSISTENT_AT

    return System(name, predict)

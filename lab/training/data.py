"""The verifier's training and validation sets, built from data whose licence allows training.

- Factcheck-GPT (Apache-2.0): subtask 3 stance pairs, subtask 4 labelled claims and the responses'
  labelled sentences; HaluEval-QA (MIT): right and hallucinated answers against the knowledge.
- Each labelled claim is paired with the window of its own evidence that covers most of it, as the
  verifier sees a claim at run time: against a window of one to three sentences.
- Synthetic pairs (`lab.training.synthetic`) come from the documents of the same items.
- Each benchmark is split 60 / 20 / 20 by source document (`lab.eval.datasets.in_split`): training
  takes `train`, validation `valid`, and `heldout` is never read here. FaithBench (CC BY-NC-SA) is
  never read here either: it is for evaluation only, through `woodpecker eval`.
- The NLI and fact-verification sets of `../shared/nli-data` (`lab.training.nli`), capped per set.

Usage::

    train, valid = build_sets(Path("../shared/data"))
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from pathlib import Path

from lab.eval.adapters import load_dataset
from lab.eval.datasets import EvalItem, Split, select
from lab.training.hardcases import hard_cases
from lab.training.nli import best_window, nli_pairs
from lab.training.pairs import Label, Pair
from lab.training.synthetic import synthesize
from workers.errors import ConfigError

__all__ = ["TRAINABLE", "benchmark_pairs", "best_window", "build_sets", "item_documents"]

# The benchmarks whose licences allow training, by `load_dataset` name and folder.
TRAINABLE = {"factcheck-gpt": "factcheck-gpt", "halueval-qa": "halueval-qa"}
# Subtask 3 stances; "partially-support" is not support: the claim is VERIFIED only when fully supported.
_STANCES: dict[str, Label] = {
    "completely-support": "SUPPORT",
    "partially-support": "NEUTRAL",
    "refute": "CONTRADICT",
    "irrelevant": "NEUTRAL",
}


def build_sets(
    data: Path,
    *,
    seed: int = 0,
    synthetic_per_sentence: int = 2,
    valid_synthetic: int = 1500,
    datasets: Sequence[str] = tuple(TRAINABLE),
    nli: Path | None = None,
    nli_scale: float = 1.0,
) -> tuple[list[Pair], list[Pair]]:
    """(training pairs, validation pairs) from the benchmarks' `train` and `valid` parts.

    The benchmarks' `heldout` part is never read here: it is scored once, by `woodpecker eval`. Synthetic
    and hard pairs come from each part's own documents. With `nli`, the NLI sets' pairs join both sides
    (`lab.training.nli`, split by premise). Validation keeps every benchmark and NLI pair and a seeded
    sample of `valid_synthetic` synthetic ones, so scoring it stays a matter of minutes on two cores.
    """
    rng = random.Random(seed)
    out: list[list[Pair]] = []
    parts: tuple[tuple[Split, int | None], ...] = (("train", None), ("valid", valid_synthetic))
    for split, cap in parts:
        items = _items(data, split, datasets)
        docs = item_documents(items)
        made = synthesize(docs, seed=seed, per_sentence=synthetic_per_sentence) + hard_cases(docs, seed=seed)
        pairs = benchmark_pairs(items) + (rng.sample(made, min(cap, len(made))) if cap is not None else made)
        out.append(pairs)
    if nli is not None:
        more = nli_pairs(nli, seed=seed, scale=nli_scale)
        out = [out[0] + more[0], out[1] + more[1]]
    for pairs in out:
        rng.shuffle(pairs)
    return out[0], out[1]


def _items(data: Path, split: Split, datasets: Sequence[str]) -> list[EvalItem]:
    items: list[EvalItem] = []
    for name in datasets:
        if name not in TRAINABLE:
            raise ConfigError(f"{name} may not be trained on; trainable: {', '.join(TRAINABLE)}")
        items += select(load_dataset(name, data / TRAINABLE[name]), split=split)
    return items


def item_documents(items: Iterable[EvalItem]) -> list[str]:
    """Each distinct document text of the items, in order."""
    return list(dict.fromkeys(doc.text for it in items for doc in it.answer.documents))


def benchmark_pairs(items: Sequence[EvalItem]) -> list[Pair]:
    """One pair per labelled claim: the claim and the window of its documents that shares most with it."""
    pairs: list[Pair] = []
    for item in items:
        for start, end in _claim_spans(item):
            label = _gold(item, start, end)
            window = best_window(item.answer.answer[start:end], [d.text for d in item.answer.documents])
            if label is not None and window:
                pairs.append(Pair(item.answer.answer[start:end].strip(), window, label, _source(item)))
    return pairs


def _claim_spans(item: EvalItem) -> list[tuple[int, int]]:
    """A response's labelled sentences; a claim, a stance pair or a short answer as a whole."""
    if item.regions:
        return [(r.start, r.end) for r in item.regions]
    return [(0, len(item.answer.answer))]


def _gold(item: EvalItem, start: int, end: int) -> Label | None:
    if item.kind == "stance":
        return _STANCES.get(item.stance or "")
    supported = item.claim_gold(start, end)
    if supported is None:
        return None
    # A claim the benchmark calls false or hallucinated states something other than its evidence.
    return "SUPPORT" if supported else "CONTRADICT"


def _source(item: EvalItem) -> str:
    name = "halueval" if item.answer.id.startswith("halueval") else "factcheck"
    return f"{name}:{item.kind}"

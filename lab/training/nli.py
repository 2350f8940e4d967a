"""Labelled NLI and fact-verification pairs (`../shared/nli-data`) as verifier training pairs.

Every set there has a licence that allows shipped weights (its README; the model card lists them). The
sets are of very different sizes and quality, so each is capped (`CAPS`): no one set dominates, and the
template-made or skewed ones (`breaking_nli`, `help`, `med`) stay small. Labels map onto the verifier's:
entailment -> SUPPORT, contradiction -> CONTRADICT, neutral -> NEUTRAL, and the two-way sets'
`not_entailment` -> NOT_SUPPORT (CONTRADICT or NEUTRAL, the loss does not say which).

Long premises (documents, tables, evidence chunks) are windowed as the pipeline windows a document: the
claim is read against the run of one to three sentences that covers most of it (`best_window`), the
window the retriever would put first.

Validation is split off by premise within each set (no premise on both sides), and by claim for the two
WiCE files, which hold the same claims against the whole article and against its evidence chunks.

Usage::

    train, valid = nli_pairs(Path("../shared/nli-data"), seed=0)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson

from lab.training.pairs import Pair, Target
from workers.errors import ConfigError
from workers.stages._text import content_words
from workers.stages.extract import split_sentences

__all__ = ["CAPS", "nli_pairs", "read_set", "valid_key"]

# Training pairs taken from each set at most (validation is taken on top, `_VALID_SHARE` of premises).
CAPS: Mapping[str, int] = {
    "mnli_dev": 5000,
    "snli_devtest": 3000,
    "cad_snli": 2500,
    "conjnli": 2500,
    "fever_nli_dev": 4000,
    "fever_symmetric": 1200,
    "infotabs": 2500,
    "qnli_dev": 1500,
    "scitail_dev": 1200,
    "breaking_nli": 800,
    "help": 600,
    "med": 500,
    "wnli": 0,  # Winograd pronoun puzzles: nothing a RAG claim looks like, and adversarial by design
    "factcg_cg2c": 1800,
    "wice_full": 650,
    "wice_oracle": 1800,
}
_LABELS: Mapping[str, Target] = {
    "entailment": "SUPPORT",
    "contradiction": "CONTRADICT",
    "neutral": "NEUTRAL",
    "not_entailment": "NOT_SUPPORT",
}
_VALID_SHARE = 0.06
_VALID_CAP = 250  # validation pairs per set, so scoring them stays a matter of minutes on two cores
_LONG = 450  # premises longer than this (characters) are windowed
_BY_CLAIM = frozenset({"wice_full", "wice_oracle"})


def nli_pairs(
    folder: Path, *, seed: int = 0, scale: float = 1.0, sets: Mapping[str, int] | None = None
) -> tuple[list[Pair], list[Pair]]:
    """(training pairs, validation pairs) from every capped set in `folder`; `scale` shrinks the caps."""
    if not folder.is_dir():
        raise ConfigError(f"no NLI data folder at {folder}")
    train: list[Pair] = []
    valid: list[Pair] = []
    for name, cap in (sets or CAPS).items():
        path = folder / f"{name}.jsonl"
        if cap <= 0 or not path.is_file():
            continue
        got_train, got_valid = _split(name, list(read_set(path, name)), seed=seed)
        rng = random.Random(f"{seed}-{name}")
        train += rng.sample(got_train, min(len(got_train), int(cap * scale)))
        valid += rng.sample(got_valid, min(len(got_valid), _VALID_CAP))
    return train, valid


def read_set(path: Path, name: str) -> Iterator[tuple[str, Pair]]:
    """(split key, pair) per usable line of one set; long premises already windowed."""
    with path.open("rb") as lines:
        for line in lines:
            row: dict[str, Any] = orjson.loads(line)
            label = _LABELS.get(str(row.get("label")))
            premise, claim = str(row.get("premise") or ""), str(row.get("hypothesis") or "").strip()
            if label is None or not premise.strip() or not claim:
                continue
            evidence = best_window(claim, [premise]) if len(premise) > _LONG else premise.strip()
            if evidence:
                key = claim if name in _BY_CLAIM else premise
                yield key, Pair(claim, evidence, label, f"nli:{name}")


def valid_key(name: str, key: str, *, seed: int = 0) -> bool:
    """Whether the premise (or, for WiCE, the claim) `key` of set `name` is on the validation side."""
    return hashlib.sha256(f"{seed}:{name}:{key}".encode()).digest()[0] < 256 * _VALID_SHARE


def _split(name: str, rows: list[tuple[str, Pair]], *, seed: int) -> tuple[list[Pair], list[Pair]]:
    train: list[Pair] = []
    valid: list[Pair] = []
    for key, pair in rows:
        (valid if valid_key(name, key, seed=seed) else train).append(pair)
    return train, valid


def best_window(claim: str, documents: Sequence[str], *, max_chars: int = 400) -> str | None:
    """The run of 1-3 sentences (at most `max_chars`) covering most of the claim's content words.

    Lexical, not the production retriever: building the sets must stay fast on two cores, and the
    production retriever ranks the same windows first for near-verbatim benchmark evidence.
    """
    wanted = set(content_words(claim))
    best: tuple[float, str] | None = None
    for doc in documents:
        spans = split_sentences(doc)
        for i in range(len(spans)):
            for j in range(i, min(i + 3, len(spans))):
                text = doc[spans[i][0] : spans[j][1]]
                if len(text) > max_chars and j > i:
                    break
                score = len(wanted & set(content_words(text))) - 0.001 * len(text)
                if best is None or score > best[0]:
                    best = (score, text[:max_chars])
    return best[1] if best else None

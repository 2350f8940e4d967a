"""Synthetic claim-evidence pairs from real text, for training the verifier. Pure and seeded.

Every usable sentence S of a document (6-60 words, with a verb) yields:

- SUPPORT: S itself or a meaning-keeping edit of it (`paraphrase`), against a window holding S;
- CONTRADICT: up to `per_sentence` one-change edits (`perturb`: figures, dates, units, entities, negation,
  quantifiers, roles), against a window holding S, which the edit now disagrees with;
- NEUTRAL: S or one of its edits against a window without S that shares few content words with it: another
  part of the same document (the hard case: same topic, other facts), or now and then another document.

A window is S alone or S with a neighbouring sentence, at most ~350 characters. The labels are then
evened out by dropping pairs at random from the larger ones. `source` names the kind ("synthetic:number",
"synthetic:support-span", "synthetic:neutral-same-doc", ...) for the training report's breakdown.

Usage::

    pairs = synthesize(["Acme was founded in Arizona in 1997. It employs 1,200 people. ..."], seed=0)
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from lab.training.pairs import LABELS, Pair, Target
from lab.training.paraphrase import paraphrases
from lab.training.perturb import EntityPool, contradictions, entity_slots
from workers.stages._text import has_verb, words
from workers.stages.extract import split_sentences
from workers.stages.terms import content_terms

__all__ = ["synthesize"]

_MIN_WORDS, _MAX_WORDS = 6, 60
_MAX_WINDOW = 350
_MAX_SHARED = 0.25  # a NEUTRAL window may hold at most this share of the claim's content words
# Weights for choosing among a sentence's edits: "not" is the easy, always-available one.
_KIND_WEIGHT = {
    "negation": 0.4,
    "entity": 1.0,
    "date": 1.5,
    "number": 3.0,
    "unit": 3.0,
    "quantifier": 3.0,
    "roles": 3.0,
}
_OTHER_DOC = 0.25  # how often a NEUTRAL window comes from another document when its own has one
# "...19th century.First for Women is ...": scraped paragraphs often lose the space after a full stop.
_GLUED = re.compile(r"(?<=[a-z0-9)\"”])\.(?=[A-Z][a-z])")

Window = tuple[int, int]  # first and last sentence index, inclusive


@dataclass(frozen=True, slots=True)
class _Doc:
    sentences: tuple[str, ...]
    windows: tuple[Window, ...]

    def text(self, window: Window) -> str:
        return " ".join(self.sentences[window[0] : window[1] + 1])


def synthesize(documents: Sequence[str], *, seed: int = 0, per_sentence: int = 2) -> list[Pair]:
    """Balanced SUPPORT / CONTRADICT / NEUTRAL pairs from the documents' sentences, the same for a seed."""
    rng = random.Random(seed)
    docs = [_doc(text) for text in documents]
    local = [_entities([d]) for d in docs]
    everywhere = _entities(docs)
    pairs: list[Pair] = []
    for i, doc in enumerate(docs):
        pool = EntityPool(local=local[i], others=everywhere)
        for j, sentence in enumerate(doc.sentences):
            if _usable(sentence):
                pairs.extend(_sentence_pairs(docs, i, j, rng, pool, per_sentence))
    return _balance(pairs, rng)


def _doc(text: str) -> _Doc:
    text = _GLUED.sub(". ", text)
    sentences = tuple(text[s:e] for s, e in split_sentences(text))
    windows = [(j, j) for j in range(len(sentences))]
    windows += [(j, j + 1) for j in range(len(sentences) - 1)]
    doc = _Doc(sentences, ())
    return _Doc(sentences, tuple(w for w in windows if w[0] == w[1] or len(doc.text(w)) <= _MAX_WINDOW))


def _usable(sentence: str) -> bool:
    ws = words(sentence)
    balanced = sentence.count("(") == sentence.count(")") and sentence.count('"') % 2 == 0
    return _MIN_WORDS <= len(ws) <= _MAX_WORDS and has_verb(ws) and balanced and not sentence.endswith("?")


def _entities(docs: Sequence[_Doc]) -> dict[str, list[str]]:
    """Entities by kind, in first-seen order, for swaps."""
    out: dict[str, dict[str, None]] = {}
    for doc in docs:
        for sentence in doc.sentences:
            for kind, slot in entity_slots(sentence):
                out.setdefault(kind, {})[slot.text] = None
    return {kind: list(names) for kind, names in out.items()}


def _sentence_pairs(
    docs: Sequence[_Doc], i: int, j: int, rng: random.Random, pool: EntityPool, per_sentence: int
) -> list[Pair]:
    doc, sentence = docs[i], docs[i].sentences[j]
    own = [w for w in doc.windows if w[0] <= j <= w[1]]
    out: list[Pair] = []
    changed = contradictions(sentence, rng, pool)
    for kind in _pick_kinds(changed, rng)[:per_sentence]:
        out.append(Pair(changed[kind], doc.text(rng.choice(own)), "CONTRADICT", f"synthetic:{kind}"))
    kept = paraphrases(sentence, pick=rng.randrange(8))
    out += _supports(doc, sentence, own, kept, rng, max(1, len(out)))
    claims = [sentence, *changed.values(), *kept.values()]
    for _ in range(per_sentence):
        neutral = _neutral(docs, i, j, rng.choice(claims), rng)
        if neutral is not None:
            out.append(neutral)
    return out


def _supports(
    doc: _Doc, sentence: str, own: list[Window], kept: dict[str, str], rng: random.Random, count: int
) -> list[Pair]:
    """As many SUPPORT pairs as the sentence gave contradictions: edits first, then S in other windows."""
    claims = [(f"support-{k}", kept[k]) for k in rng.sample(sorted(kept), len(kept))]
    if not claims or rng.random() < 0.5:
        claims.insert(0, ("support-exact", sentence))
    windows = rng.sample(own, len(own))
    claims += [("support-exact", sentence)] * (len(windows) - 1)
    return [
        Pair(claim, doc.text(windows[n % len(windows)]), "SUPPORT", f"synthetic:{source}")
        for n, (source, claim) in enumerate(claims[:count])
    ]


def _pick_kinds(changed: dict[str, str], rng: random.Random) -> list[str]:
    """The kinds in a weighted random order: negation, the easiest and most common, comes up least."""
    keys = {kind: rng.random() ** (1 / _KIND_WEIGHT.get(kind, 1.0)) for kind in sorted(changed)}
    return sorted(keys, key=lambda k: -keys[k])


def _neutral(docs: Sequence[_Doc], i: int, j: int, claim: str, rng: random.Random) -> Pair | None:
    """The claim against a window that neither holds sentence j nor shares much with the claim."""
    doc, sentence = docs[i], docs[i].sentences[j]
    same = [w for w in docs[i].windows if not w[0] <= j <= w[1] and _unrelated(claim, doc.text(w), sentence)]
    if same and rng.random() >= _OTHER_DOC:
        return Pair(claim, doc.text(rng.choice(same)), "NEUTRAL", "synthetic:neutral-same-doc")
    for _ in range(4):
        k = rng.randrange(len(docs))
        if k != i and docs[k].windows:
            text = docs[k].text(rng.choice(docs[k].windows))
            if _unrelated(claim, text, sentence):
                return Pair(claim, text, "NEUTRAL", "synthetic:neutral-other-doc")
    return None


def _unrelated(claim: str, window: str, sentence: str) -> bool:
    if sentence in window:
        return False
    mine = {t.stem for t in content_terms(claim)}
    theirs = {t.stem for t in content_terms(window)}
    return bool(mine) and len(mine & theirs) <= _MAX_SHARED * len(mine)


def _balance(pairs: list[Pair], rng: random.Random) -> list[Pair]:
    """Every label cut down, at random, to the count of the rarest label present; order kept."""
    by_label: dict[Target, list[int]] = {label: [] for label in LABELS}
    for n, pair in enumerate(pairs):
        by_label[pair.label].append(n)
    present = [idx for idx in by_label.values() if idx]
    if not present:
        return []
    cap = min(len(idx) for idx in present)
    keep = {n for idx in present for n in rng.sample(idx, cap)}
    return [pair for n, pair in enumerate(pairs) if n in keep]

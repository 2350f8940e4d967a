"""Evaluation items: one `Answer` with its gold labels, read from a benchmark's native files.

The adapters for the public benchmarks live in `lab.eval.adapters`; this module holds the item
type, the deterministic dev/test split, the `--limit` sampler, the dispatch by dataset name and the
adapter for the project's own labelled format, `jsonl`.

The `jsonl` format is answer.v1 with one extra key, `label`::

    {"id": "a1", "query": "Who won?", "answer": "Ann won in 2020.",
     "documents": [{"id": "d1", "text": "Ann won the 2021 race."}],
     "label": {"hallucinated": true, "spans": [[11, 15]], "revised": "Ann won in 2021."}}

`label.hallucinated` (bool) is required; `label.spans` (hallucinated character ranges of `answer`,
`[start, end)`) and `label.revised` (a gold correction) are optional.

Usage::

    items = load_dataset("halueval-qa", Path("../shared/data/halueval-qa"))   # lab.eval.adapters
    dev = select(items, split="dev", limit=50, seed=0)
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import orjson
from pydantic import ValidationError

from workers.messages import Answer

__all__ = [
    "DATASETS",
    "PARTITION",
    "DatasetError",
    "EvalItem",
    "GoldRegion",
    "Kind",
    "Span",
    "Split",
    "in_split",
    "load_jsonl",
    "read_jsonl",
    "select",
]

Kind = Literal["response", "claim", "stance"]
# "dev" / "test": the two halves of an earlier protocol, kept for the README's older figures.
# "train" / "valid" / "heldout": the protocol every choice is made under now (60 / 20 / 20 by source
# document): fit on train, choose on valid, score heldout once at the end.
Split = Literal["dev", "test", "all", "train", "valid", "heldout"]
PARTITION: tuple[Split, ...] = ("train", "valid", "heldout")
Span = tuple[int, int]
DATASETS = ("faithbench", "factcheck-gpt", "halueval-qa", "jsonl")


class DatasetError(ValueError):
    """The data cannot be read as the named dataset; the message says where and why."""


@dataclass(frozen=True, slots=True)
class GoldRegion:
    """A character range of the answer whose claims have a known gold support label."""

    start: int
    end: int
    supported: bool
    label: str = ""


@dataclass(frozen=True)
class EvalItem:
    """One answer to run through the pipeline and its gold labels; `None` means "no gold for this".

    `kind` says which metrics use the item: whole responses, single claims (Factcheck-GPT subtask 4)
    or claim-evidence stance pairs (subtask 3). `group` is the split key, so an answer's halves
    (HaluEval) or a response's claims (Factcheck-GPT) fall on the same side of the split.
    """

    answer: Answer
    kind: Kind = "response"
    group: str = ""
    hallucinated: bool | None = None
    hallucinated_lenient: bool | None = None
    spans: tuple[Span, ...] | None = None
    spans_lenient: tuple[Span, ...] | None = None
    regions: tuple[GoldRegion, ...] = ()
    default_supported: bool | None = None
    revised: str | None = None
    stance: str | None = None
    detectors: tuple[tuple[str, float], ...] = ()

    @property
    def split_key(self) -> str:
        return self.group or self.answer.id

    def claim_gold(self, start: int, end: int) -> bool | None:
        """Gold support of the answer text `[start, end)`: unsupported if it touches an unsupported region."""
        touched = [r for r in self.regions if r.start < end and start < r.end]
        if any(not r.supported for r in touched):
            return False
        if touched:
            return True
        return self.default_supported


def in_split(key: str, split: Split) -> bool:
    """Whether `key` falls in `split`, by a stable hash; `all` takes every key.

    "dev" and "test" are halves; "train", "valid" and "heldout" take 60, 20 and 20 in every hundred keys,
    from another byte of the same digest, so the two protocols are independent of each other.
    """
    if split == "all":
        return True
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    if split in ("dev", "test"):
        return (digest[0] % 2 == 0) == (split == "dev")
    bucket = int.from_bytes(digest[1:3], "big") % 10
    return {"train": bucket < 6, "valid": 6 <= bucket < 8, "heldout": bucket >= 8}[split]


def select(
    items: Sequence[EvalItem], *, split: Split = "all", limit: int | None = None, seed: int = 0
) -> list[EvalItem]:
    """The items of `split`; with `limit`, a seeded sample of at most `limit` items of each kind, in order."""
    chosen = [it for it in items if in_split(it.split_key, split)]
    if limit is None:
        return chosen
    keep: set[int] = set()
    rng = random.Random(seed)
    for kind in ("response", "claim", "stance"):
        positions = [i for i, it in enumerate(chosen) if it.kind == kind]
        keep.update(rng.sample(positions, min(limit, len(positions))))
    return [it for i, it in enumerate(chosen) if i in keep]


def read_jsonl(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line; a bad line raises DatasetError naming it."""
    with path.open("rb") as fh:
        for number, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                obj = orjson.loads(line)
            except orjson.JSONDecodeError as exc:
                raise DatasetError(f"{path}:{number}: invalid JSON: {exc}") from exc
            if not isinstance(obj, dict):
                raise DatasetError(f"{path}:{number}: expected a JSON object")
            yield number, obj


def load_jsonl(path: Path) -> list[EvalItem]:
    """Labelled answers: one file, or every `*.jsonl` file of a folder in name order."""
    files = sorted(path.glob("*.jsonl")) if path.is_dir() else [path]
    return [_labelled(obj, f"{file}:{number}") for file in files for number, obj in read_jsonl(file)]


def _labelled(obj: dict[str, Any], where: str) -> EvalItem:
    label = obj.pop("label", None)
    if not isinstance(label, dict) or not isinstance(label.get("hallucinated"), bool):
        raise DatasetError(f"{where}: needs a `label` object with a boolean `hallucinated`")
    try:
        answer = Answer.model_validate(obj)
    except ValidationError as exc:
        raise DatasetError(f"{where}: not an answer.v1 record: {exc.errors()[0]['msg']}") from exc
    spans = _spans(label.get("spans"), len(answer.answer), where)
    hallucinated: bool = label["hallucinated"]
    revised = label.get("revised")
    return EvalItem(
        answer=answer,
        hallucinated=hallucinated,
        spans=spans,
        regions=tuple(GoldRegion(s, e, supported=False, label="hallucinated") for s, e in spans or ()),
        # Without spans a hallucinated answer's claims all inherit its label.
        default_supported=not hallucinated or bool(spans),
        revised=revised if isinstance(revised, str) else None,
    )


def _spans(raw: Any, length: int, where: str) -> tuple[Span, ...] | None:
    if raw is None:
        return None
    try:
        spans = tuple((int(s), int(e)) for s, e in raw)
    except (TypeError, ValueError) as exc:
        raise DatasetError(f"{where}: label.spans must be a list of [start, end] pairs") from exc
    if any(not 0 <= s <= e <= length for s, e in spans):
        raise DatasetError(f"{where}: a label span lies outside the answer (length {length})")
    return spans

"""Adapters from the public benchmarks' native files to `EvalItem`s.

- FaithBench (`batch_*.json`): the source is the document, the summary is the answer. Worst-pooling
  over the annotations: any `Unwanted` label makes the summary hallucinated; the lenient variant
  also counts `Questionable`. The detector scores in `metadata` ride along (≥ 0.5 = consistent).
- HaluEval-QA (`qa_data.jsonl`): the knowledge is the document; each line gives two items, the
  right answer (gold: not hallucinated) and the hallucinated one, in the same split.
- Factcheck-GPT (`factcheck-GPT-benchmark.jsonl`): a response with the evidence of its claims
  (human evidence and retrieved passages) as documents, gold `response_factuality`, per-sentence
  labels and the gold `revised_response`; `subtask4_*` gives claim items (claim + its evidence),
  `subtask3_*` claim-evidence stance pairs.

Every answer carries the `domain` of its dataset (`DOMAINS`), so the per-domain tier-1 thresholds of
`settings.thresholds.by_domain` apply to it as they would in production, and calibration
(`lab.eval.calibrate`) fits one threshold per domain: FaithBench is "summarization", HaluEval-QA
"qa", Factcheck-GPT "open-domain" (ChatGPT answers to open questions, checked against web evidence).

Usage::

    items = load_faithbench(Path("../shared/data/faithbench"))
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import orjson

from lab.eval.datasets import DATASETS, DatasetError, EvalItem, GoldRegion, Span, load_jsonl, read_jsonl
from workers.messages import Answer, Document

__all__ = ["DOMAINS", "load_dataset", "load_factcheck", "load_faithbench", "load_halueval", "locate"]

FAITHBENCH_QUERY = "Summarize the document."
# The answer domain of each dataset's items.
DOMAINS = {"faithbench": "summarization", "halueval-qa": "qa", "factcheck-gpt": "open-domain"}
# Numeric metadata that are ids, not detector scores.
_NOT_DETECTORS = frozenset({"raw_sample_id", "sample_id"})


def _files(path: Path, pattern: str) -> list[Path]:
    found = sorted(path.glob(pattern), key=_natural) if path.is_dir() else [path]
    if not found:
        raise DatasetError(f"no {pattern} file in {path}")
    return found


def _natural(path: Path) -> tuple[int, str]:
    digits = re.findall(r"\d+", path.stem)
    return (int(digits[-1]) if digits else 0, path.name)


# ---- FaithBench ------------------------------------------------------------------------------------


def load_faithbench(path: Path) -> list[EvalItem]:
    items: list[EvalItem] = []
    for file in _files(path, "batch_*.json"):
        try:
            samples = orjson.loads(file.read_bytes())["samples"]
        except (orjson.JSONDecodeError, KeyError, TypeError) as exc:
            raise DatasetError(f"{file}: not a FaithBench batch ({exc})") from exc
        items.extend(_faithbench_item(s, f"faithbench-{file.stem}-{s['sample_id']}") for s in samples)
    return items


def _faithbench_item(sample: dict[str, Any], item_id: str) -> EvalItem:
    notes = sample.get("annotations") or []
    unwanted = _annotated(notes, ("Unwanted",))
    lenient = _annotated(notes, ("Unwanted", "Questionable"))
    metadata = sample.get("metadata") or {}
    answer = Answer(
        id=item_id,
        query=FAITHBENCH_QUERY,
        answer=sample["summary"],
        documents=(Document(id=f"{item_id}-source", text=sample["source"]),),
        domain=DOMAINS["faithbench"],
        metadata={"summarizer": str(metadata.get("summarizer", ""))},
    )
    return EvalItem(
        answer=answer,
        hallucinated=any(_has(n, ("Unwanted",)) for n in notes),
        hallucinated_lenient=any(_has(n, ("Unwanted", "Questionable")) for n in notes),
        spans=unwanted,
        spans_lenient=lenient,
        regions=tuple(GoldRegion(s, e, supported=False, label="Unwanted") for s, e in unwanted),
        default_supported=True,
        detectors=_detectors(metadata),
        # Several summarisers summarised each source: the split goes by source, never across it.
        group="faithbench-source-" + hashlib.sha256(sample["source"].encode("utf-8")).hexdigest()[:16],
    )


def _has(note: dict[str, Any], wanted: tuple[str, ...]) -> bool:
    # Labels look like ["Unwanted", "Unwanted.Intrinsic"]: the part before the dot is the class.
    return any(str(lab).split(".")[0] in wanted for lab in note.get("label") or ())


def _annotated(notes: Iterable[dict[str, Any]], wanted: tuple[str, ...]) -> tuple[Span, ...]:
    spans = {
        (int(n["summary_start"]), int(n["summary_end"]))
        for n in notes
        if _has(n, wanted) and n.get("summary_start") is not None and n.get("summary_end") is not None
    }
    return tuple(sorted(spans))


def _detectors(metadata: dict[str, Any]) -> tuple[tuple[str, float], ...]:
    """Numeric scores in [0, 1], except ids: each is a detector's consistency score."""
    return tuple(
        (key, float(value))
        for key, value in metadata.items()
        if key not in _NOT_DETECTORS
        and isinstance(value, int | float)
        and not isinstance(value, bool)
        and 0.0 <= value <= 1.0
    )


# ---- HaluEval-QA -----------------------------------------------------------------------------------


def load_halueval(path: Path) -> list[EvalItem]:
    file = path / "qa_data.jsonl" if path.is_dir() else path
    if not file.is_file():
        raise DatasetError(f"no qa_data.jsonl in {path}")
    items: list[EvalItem] = []
    for number, row in read_jsonl(file):
        try:
            items.extend(_halueval_pair(row, f"halueval-qa-{number}"))
        except KeyError as exc:
            raise DatasetError(f"{file}:{number}: missing field {exc}") from exc
    return items


def _halueval_pair(row: dict[str, Any], group: str) -> list[EvalItem]:
    document = Document(id=f"{group}-knowledge", text=str(row["knowledge"]))
    pairs = (
        ("right", str(row["right_answer"]), False),
        ("hallucinated", str(row["hallucinated_answer"]), True),
    )
    return [
        EvalItem(
            answer=Answer(
                id=f"{group}-{name}",
                query=str(row["question"]),
                answer=text,
                documents=(document,),
                domain=DOMAINS["halueval-qa"],
            ),
            group=group,
            hallucinated=bad,
            default_supported=not bad,
            # The right answer is the correct version of the hallucinated one: edits are scored against it.
            revised=str(row["right_answer"]) if bad else None,
        )
        for name, text, bad in pairs
    ]


# ---- Factcheck-GPT ---------------------------------------------------------------------------------


def load_factcheck(path: Path) -> list[EvalItem]:
    folder = path if path.is_dir() else path.parent
    main = folder / "factcheck-GPT-benchmark.jsonl"
    if not main.is_file():
        raise DatasetError(f"no factcheck-GPT-benchmark.jsonl in {folder}")
    rows = [row for _, row in read_jsonl(main)]
    items = [_factcheck_response(row, f"factcheck-gpt-{i}") for i, row in enumerate(rows)]
    index = _claim_index(rows)
    for file in sorted(folder.glob("subtask4_*.jsonl")):
        items.extend(_claim_items(file, rows, index))
    for file in sorted(folder.glob("subtask3_*.jsonl")):
        items.extend(_stance_items(file, rows, index))
    return items


def _sentences(row: dict[str, Any]) -> list[dict[str, Any]]:
    sentences = row.get("sentences") or {}
    return [sentences[k] for k in sorted(sentences, key=lambda k: int(re.sub(r"\D", "", k) or 0))]


def _factcheck_response(row: dict[str, Any], rid: str) -> EvalItem:
    response = str(row["response"])
    factual = row.get("response_factuality")
    documents = _dedupe(
        doc
        for si, s in enumerate(_sentences(row))
        for ci in range(len(s.get("claims") or ()))
        for doc in _claim_documents(s, ci, f"{rid}-s{si}-c{ci}")
    )
    revised = row.get("revised_response")
    return EvalItem(
        answer=Answer(
            id=rid,
            query=str(row.get("prompt", "")),
            answer=response,
            documents=documents,
            domain=DOMAINS["factcheck-gpt"],
        ),
        hallucinated=(not factual) if isinstance(factual, bool) else None,
        regions=_sentence_regions(response, _sentences(row)),
        revised=revised if isinstance(revised, str) else None,
    )


def _claim_documents(sentence: dict[str, Any], ci: int, prefix: str) -> list[Document]:
    """The human evidence (unless "NA") and the retrieved passages of claim `ci` of a sentence."""
    docs: list[Document] = []
    human = _nth(sentence.get("human_evidence"), ci)
    if isinstance(human, str) and human.strip() and human.strip().upper() != "NA":
        docs.append(Document(id=f"{prefix}-human", text=human, source="human"))
    passages = _nth(sentence.get("auto_evidence"), ci) or []
    urls = _nth(sentence.get("auto_evidence_url"), ci) or []
    for j, text in enumerate(passages):
        if isinstance(text, str) and text.strip():
            url = _nth(urls, j)
            docs.append(
                Document(id=f"{prefix}-auto{j}", text=text, source=url if isinstance(url, str) else None)
            )
    return docs


def _nth(values: Any, i: int) -> Any:
    return values[i] if isinstance(values, list) and i < len(values) else None


def _dedupe(docs: Iterable[Document]) -> tuple[Document, ...]:
    seen: dict[str, Document] = {}
    for doc in docs:
        seen.setdefault(doc.text, doc)
    return tuple(seen.values())


def _sentence_regions(response: str, sentences: list[dict[str, Any]]) -> tuple[GoldRegion, ...]:
    regions: list[GoldRegion] = []
    cursor = 0
    for s in sentences:
        span = locate(str(s.get("text", "")), response, start=cursor)
        label = s.get("sentence_factuality_label")
        if span is None:
            continue
        cursor = span[1]
        if isinstance(label, bool):
            regions.append(GoldRegion(span[0], span[1], supported=label, label="sentence"))
    return tuple(regions)


def locate(needle: str, haystack: str, *, start: int = 0) -> Span | None:
    """Where `needle` sits in `haystack` from `start`, ignoring whitespace and list numbering."""
    exact = haystack.find(needle, start) if needle else -1
    if exact >= 0:
        return exact, exact + len(needle)
    flat, where = _flatten(haystack)
    probe, _ = _flatten(needle)
    first = next((i for i, w in enumerate(where) if w >= start), len(where))
    # The first 40 characters find it; the needle's length says where it ends.
    pos = flat.find(probe[:40], first) if probe else -1
    if pos < 0:
        return None
    end = min(pos + len(probe), len(flat)) - 1
    return where[pos], where[end] + 1


def _flatten(text: str) -> tuple[str, list[int]]:
    """The words joined by single spaces, without list numbers ("1."), and each char's origin."""
    chars: list[str] = []
    where: list[int] = []
    for m in re.finditer(r"\S+", text):
        if re.fullmatch(r"\d{1,2}\.", m.group()):
            continue
        if chars:
            chars.append(" ")
            where.append(m.start())
        chars.extend(m.group())
        where.extend(range(m.start(), m.end()))
    return "".join(chars), where


def _claim_index(rows: list[dict[str, Any]]) -> dict[str, tuple[int, int, int]]:
    """Claim text -> (response, sentence, claim) position in the main file."""
    index: dict[str, tuple[int, int, int]] = {}
    for ri, row in enumerate(rows):
        for si, s in enumerate(_sentences(row)):
            for ci, claim in enumerate(s.get("claims") or ()):
                index.setdefault(str(claim), (ri, si, ci))
    return index


def _claim_items(
    file: Path, rows: list[dict[str, Any]], index: dict[str, tuple[int, int, int]]
) -> list[EvalItem]:
    """Subtask 4: labelled claims; their evidence in the main file are the documents."""
    items: list[EvalItem] = []
    for number, rec in read_jsonl(file):
        where = index.get(str(rec.get("claim", "")))
        if where is None:
            continue
        ri, si, ci = where
        item_id = f"factcheck-gpt-{ri}-claim-{number}"
        docs = _claim_documents(_sentences(rows[ri])[si], ci, item_id)
        label = str(rec.get("label", "")).lower()
        revised = rec.get("revised_claim")
        items.append(
            EvalItem(
                answer=Answer(
                    id=item_id,
                    query=str(rows[ri].get("prompt", "")),
                    answer=rec["claim"],
                    documents=_dedupe(docs),
                    domain=DOMAINS["factcheck-gpt"],
                ),
                kind="claim",
                group=f"factcheck-gpt-{ri}",
                hallucinated={"false": True, "true": False}.get(label),
                default_supported={"false": False, "true": True}.get(label),
                revised=revised if isinstance(revised, str) else None,
            )
        )
    return items


def _stance_items(
    file: Path, rows: list[dict[str, Any]], index: dict[str, tuple[int, int, int]]
) -> list[EvalItem]:
    """Subtask 3: one claim and one evidence passage with a 4-way stance label."""
    items: list[EvalItem] = []
    for number, rec in read_jsonl(file):
        where = index.get(str(rec.get("claim", "")))
        if where is None or not isinstance(rec.get("evidence"), str):
            continue
        item_id = f"factcheck-gpt-{where[0]}-stance-{number}"
        answer = Answer(
            id=item_id,
            query=str(rows[where[0]].get("prompt", "")),
            answer=str(rec["claim"]),
            documents=(Document(id=f"{item_id}-evidence", text=rec["evidence"]),),
            domain=DOMAINS["factcheck-gpt"],
        )
        items.append(
            EvalItem(
                answer=answer,
                kind="stance",
                group=f"factcheck-gpt-{where[0]}",
                stance=str(rec.get("stance", "")),
            )
        )
    return items


def load_dataset(name: str, path: Path) -> list[EvalItem]:
    """All items of dataset `name` found at `path` (its folder; a single file also works)."""
    if not path.exists():
        raise DatasetError(f"{name}: {path} does not exist")
    loaders = {
        "faithbench": load_faithbench,
        "factcheck-gpt": load_factcheck,
        "halueval-qa": load_halueval,
        "jsonl": load_jsonl,
    }
    if name not in loaders:
        raise DatasetError(f"unknown dataset {name!r}; choose one of {', '.join(DATASETS)}")
    items = loaders[name](path)
    if not items:
        raise DatasetError(f"{name}: no items found in {path}")
    return items

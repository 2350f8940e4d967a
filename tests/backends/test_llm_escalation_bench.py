"""The escalation benchmark on two labelled answers, with fake backends: the three settings side by side."""

from __future__ import annotations

from pathlib import Path

import orjson

from lab.eval.datasets import load_jsonl
from lab.llm_escalation_bench import compare
from tests.fakes import HashEmbedder, ScriptedChecker
from workers.backends.llm_wiring import build_llm_parts
from workers.messages import Judgement
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.settings import Settings

SURE = CheckResult(Judgement.SUPPORT, "offline sure", extra={"p_support": 0.97, "p_contradict": 0.01})


def _pipeline(settings: Settings) -> Pipeline:
    # Claim c0 of each answer is one the offline verifier is sure of; the rest it is not.
    offline = ScriptedChecker({"c0": SURE}, default=CheckResult(Judgement.NEUTRAL, "unsure"), name="offline")
    parts = build_llm_parts(settings, offline_checker=offline, environ={})
    return Pipeline(settings=settings, embedder=HashEmbedder(), checker=parts.checker or offline)


def test_never_uncertain_always_side_by_side(tmp_path: Path) -> None:
    doc = "The depot shipped 100 parcels in March. The depot employs 12 drivers. It opened in 1999."
    answer = "The depot shipped 100 parcels in March. The depot employs 15 drivers. It opened in 1999."
    rows = [
        {"id": "a1", "query": "q", "answer": answer, "documents": [{"id": "d", "text": doc}],
         "label": {"hallucinated": True, "spans": [[58, 60]]}},
        {"id": "a2", "query": "q", "answer": doc, "documents": [{"id": "d", "text": doc}],
         "label": {"hallucinated": False, "spans": []}},
    ]  # fmt: skip
    path = tmp_path / "items.jsonl"
    path.write_bytes(b"\n".join(orjson.dumps(r) for r in rows))
    modes = compare(load_jsonl(path), _pipeline)
    assert set(modes) == {"never", "uncertain", "always"}
    assert modes["never"]["claims_escalated"] == modes["never"]["llm_calls"] == 0
    assert 0 < modes["uncertain"]["claims_escalated"] < modes["always"]["claims_escalated"]
    assert modes["uncertain"]["llm_calls"] == 2  # one call per answer
    assert modes["always"]["tokens_in"] > modes["uncertain"]["tokens_in"] > 0
    for mode in modes.values():
        assert mode["claims_scored"] >= 4 and mode["answers"] == 2
    # The oracle knows the gold: escalating the unsure claims catches the wrong driver count.
    assert modes["uncertain"]["accuracy"] >= modes["never"]["accuracy"]

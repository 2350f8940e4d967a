"""Baselines and the scoring of outcomes, on hand-built records with hand-computed expectations."""

from __future__ import annotations

import pytest

from lab.eval.baselines import (
    content_words,
    detector_system,
    fit_lexical_threshold,
    lexical_coverage,
    lexical_system,
    no_correction,
    similarity_system,
    woodpecker_system,
)
from lab.eval.datasets import EvalItem, GoldRegion
from lab.eval.metrics import preservation
from lab.eval.runner import Outcome
from lab.eval.scoring import (
    correction_metrics,
    cost_metrics,
    detection,
    map_span,
    span_detection,
    stance_of,
)
from workers.messages import (
    Action,
    Answer,
    ClaimResult,
    Corrected,
    Document,
    Evidence,
    Judgement,
    Route,
    Stats,
    Verdict,
)


def _answer(text: str, docs: tuple[str, ...] = ()) -> Answer:
    documents = tuple(Document(id=f"d{i}", text=t) for i, t in enumerate(docs))
    return Answer(id="a", query="q", answer=text, documents=documents)


def _claim(start: int, end: int, verdict: Verdict, action: Action, *, similarity: float = 0.9) -> ClaimResult:
    evidence = (Evidence(doc_id="d0", start=0, end=3, text="abc"),)
    return ClaimResult(
        id=f"c{start}", text="t", start=start, end=end, verdict=verdict, judgement=Judgement.SUPPORT,
        similarity=similarity, evidence=evidence, reason="r", action=action,
    )  # fmt: skip


def _corrected(original: str, corrected: str, claims: tuple[ClaimResult, ...], ms: float = 10.0) -> Corrected:
    return Corrected(
        id="a", original=original, corrected=corrected, route=Route.FULL, claims=claims,
        stats=Stats(stage_ms={"verify": ms}, llm_calls=2, tokens_in=100, tokens_out=20),
    )  # fmt: skip


def _outcome(item: EvalItem, corrected: Corrected | None, recheck: Corrected | None = None) -> Outcome:
    wall_ms = corrected.stats.stage_ms["verify"] if corrected else 0.0
    return Outcome(item=item, corrected=corrected, wall_ms=wall_ms, recheck=recheck)


# ---- baselines ----------------------------------------------------------------------------------------


def test_lexical_coverage() -> None:
    assert content_words("The cat is on the Mat, 42 times.") == ["cat", "mat", "42", "times"]
    assert lexical_coverage(_answer("The cat sat.", ("A cat.",))) == 0.5
    assert lexical_coverage(_answer("It is.", ("x",))) == 1.0  # no content words: nothing unsupported
    assert lexical_coverage(_answer("Cats sat.")) == 0.0


def test_fit_lexical_threshold_hand_case() -> None:
    def item(text: str, bad: bool) -> EvalItem:
        return EvalItem(answer=_answer(text, ("red blue green",)), hallucinated=bad)

    # coverages: 1.0, 1.0 (good); 0.5, 0.0 (bad): any cut in (0.5, 1.0] separates them; midpoint 0.75.
    items = [item("red blue", False), item("green", False), item("red pink", True), item("pink", True)]
    fit = fit_lexical_threshold(items)
    assert fit.threshold == pytest.approx(0.75)
    assert fit.balanced_accuracy == 1.0
    assert fit.n == 4
    assert fit_lexical_threshold([]).threshold == 0.0
    system = lexical_system({"response": fit.threshold})
    assert [system.predict(Outcome(item=it)) for it in items] == [False, False, True, True]
    assert lexical_system({}).predict(Outcome(item=items[0])) is None


def test_detector_and_similarity_and_no_correction() -> None:
    item = EvalItem(answer=_answer("x"), detectors=(("hhem", 0.3), ("gpt", 0.5)))
    outcome = _outcome(
        item, _corrected("x", "x", (_claim(0, 1, Verdict.VERIFIED, Action.KEEP, similarity=0.5),))
    )
    assert detector_system("hhem").predict(outcome) is True
    assert detector_system("gpt").predict(outcome) is False  # 0.5 counts as consistent
    assert detector_system("absent").predict(outcome) is None
    similarity = similarity_system(lambda answer: 0.82)
    assert similarity.predict(outcome) is True
    assert similarity.spans is not None and similarity.spans(outcome) == ((0, 1),)
    assert no_correction().predict(outcome) is False


# ---- detection ------------------------------------------------------------------------------------------


def test_woodpecker_detection_and_strict_variant() -> None:
    text = "aaaa bbbb"
    good = EvalItem(answer=_answer(text), hallucinated=False, spans=())
    bad = EvalItem(answer=_answer(text), hallucinated=True, spans=((5, 9),))
    unverified = _corrected(text, text, (_claim(5, 9, Verdict.UNVERIFIED, Action.FLAG),))
    verified = _corrected(text, text, (_claim(0, 4, Verdict.VERIFIED, Action.KEEP),))
    outcomes = [_outcome(bad, unverified), _outcome(good, verified), Outcome(item=bad, error="x")]
    scores = detection(outcomes, woodpecker_system(), kind="response")
    assert (scores["tp"], scores["tn"], scores["n"]) == (1, 1, 2)  # the errored item is left out
    strict = detection(outcomes, woodpecker_system(strict=True), kind="response")
    assert (strict["fn"], strict["recall"]) == (1, 0.0)
    spans = span_detection(outcomes, woodpecker_system())
    assert spans is not None and spans["f1"] == 1.0
    assert span_detection(outcomes, detector_system("x")) is None


def test_stance_of() -> None:
    def record(*verdicts: Verdict) -> Corrected:
        return _corrected("x", "x", tuple(_claim(i, i + 1, v, Action.KEEP) for i, v in enumerate(verdicts)))

    assert stance_of(record()) == "irrelevant"
    assert stance_of(record(Verdict.VERIFIED, Verdict.VERIFIED)) == "completely-support"
    assert stance_of(record(Verdict.VERIFIED, Verdict.UNVERIFIED)) == "partially-support"
    assert stance_of(record(Verdict.VERIFIED, Verdict.CONTRADICTED)) == "refute"
    assert stance_of(record(Verdict.UNVERIFIED)) == "irrelevant"


# ---- correction ------------------------------------------------------------------------------------------


def test_map_span() -> None:
    original, corrected = "Paris is in Spain. It is old.", "Paris is in France. It is old."
    start = original.index("It")
    assert map_span(original, corrected, start, len(original)) == (corrected.index("It"), len(corrected))
    new = map_span(original, corrected, original.index("Spain"), original.index("Spain") + 5)
    assert "France"[:3] in corrected[new[0] : new[1]]


def test_correction_metrics_hand_computed() -> None:
    original = "AAAA BBBB CCCC DDDD."
    corrected = "AAAA XXXX DDDD. [unverified]"
    claims = (
        _claim(0, 4, Verdict.VERIFIED, Action.KEEP),  # gold supported, kept
        _claim(5, 9, Verdict.CONTRADICTED, Action.REPLACE),  # gold false, replaced and re-verified
        _claim(10, 14, Verdict.UNVERIFIED, Action.REMOVE),  # gold false, removed
        _claim(15, 20, Verdict.UNVERIFIED, Action.FLAG),  # gold supported, flagged
    )
    regions = (GoldRegion(5, 14, supported=False),)
    item = EvalItem(answer=_answer(original), hallucinated=True, regions=regions, default_supported=True,
                    revised="AAAA XXXX DDDD.")  # fmt: skip
    recheck = _corrected(corrected, corrected, (_claim(5, 9, Verdict.VERIFIED, Action.KEEP),))
    same = EvalItem(answer=_answer("ok"), hallucinated=False, default_supported=True)
    outcomes = [
        _outcome(item, _corrected(original, corrected, claims), recheck),
        _outcome(same, _corrected("ok", "ok", (_claim(0, 2, Verdict.VERIFIED, Action.KEEP),))),
    ]
    m = correction_metrics(outcomes)
    # before: 5 labelled claims, 3 supported; after: kept AAAA (true), replaced XXXX verified (true), kept ok.
    assert m["claim_accuracy_before"] == pytest.approx(3 / 5)
    assert m["claim_accuracy_after"] == 1.0
    assert m["asserted_share_after"] == pytest.approx(3 / 5)
    # cited spans: the VERIFIED claims AAAA and ok, one evidence each, both gold-supported.
    assert (m["citation_precision"], m["cited_spans"]) == (1.0, 2)
    assert m["correction_rate"] == 0.5
    assert m["preservation"] == pytest.approx((1.0 + preservation(original, corrected)) / 2)
    assert m["actions"] == {"KEEP": 2, "REPLACE": 1, "REMOVE": 1, "FLAG": 1}
    assert m["revision_similarity"]["token_f1_after"] > m["revision_similarity"]["token_f1_before"]
    assert m["verified_share_before"] == pytest.approx(2 / 5)
    assert m["verified_share_after"] == 1.0


def test_correction_metrics_empty_are_none() -> None:
    m = correction_metrics([])
    assert m["claim_accuracy_before"] is None
    assert m["claim_accuracy_after"] is None
    assert m["citation_precision"] is None
    assert m["correction_rate"] is None
    assert m["preservation"] is None
    assert "revision_similarity" not in m
    assert m["citation_precision_before"] is None  # no inline citations anywhere


def test_cost_metrics() -> None:
    item = EvalItem(answer=_answer("x"))
    outcomes = [_outcome(item, _corrected("x", "x", (), ms=ms)) for ms in (10.0, 20.0, 30.0, 40.0)]
    cost = cost_metrics([*outcomes, Outcome(item=item, error="e")])
    assert cost["p50_ms"] == 25.0
    assert cost["p95_ms"] == pytest.approx(38.5)
    assert cost["answers_per_s"] == pytest.approx(4 / 0.1)
    assert cost["stages"]["verify"]["p50_ms"] == 25.0
    assert (cost["llm_calls_per_answer"], cost["tokens_in_per_answer"]) == (2.0, 100.0)
    empty = cost_metrics([])
    assert (empty["p50_ms"], empty["answers_per_s"], empty["llm_calls_per_answer"]) == (None, None, None)

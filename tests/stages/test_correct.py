"""Stage 5, correction: hand-built verdicts in, exact corrected text out."""

from __future__ import annotations

import pytest

from workers.messages import Action, CheckedClaim, Claim, Evidence, Judgement, SlotFix, Verdict
from workers.settings import CorrectionSettings
from workers.stages.correct import correct

SETTINGS = CorrectionSettings()
_JUDGEMENT = {
    Verdict.VERIFIED: Judgement.SUPPORT,
    Verdict.CONTRADICTED: Judgement.CONTRADICT,
    Verdict.UNVERIFIED: Judgement.INSUFFICIENT,
}


def fix(claim_text: str, wrong: str, right: str) -> SlotFix:
    at = claim_text.index(wrong)
    return SlotFix(start=at, end=at + len(wrong), wrong=wrong, right=right, evidence_doc_id="d1")


def checked(
    answer: str,
    text: str,
    verdict: Verdict,
    *,
    sentence: str | None = None,
    fixes: tuple[tuple[str, str], ...] = (),
    cid: str = "c0",
    confidence: float = 0.9,
) -> CheckedClaim:
    """A verdict on the first occurrence of `text`, inside the first occurrence of `sentence`."""
    sentence = sentence if sentence is not None else text
    s_start = answer.index(sentence)
    start = answer.index(text, s_start)
    claim = Claim(
        id=cid,
        text=text,
        start=start,
        end=start + len(text),
        sentence_start=s_start,
        sentence_end=s_start + len(sentence),
    )
    return CheckedClaim(
        claim=claim,
        verdict=verdict,
        judgement=_JUDGEMENT[verdict],
        similarity=0.8,
        evidence=(Evidence(doc_id="d1", start=0, end=4, text="docs"),),
        reason=f"reason {cid}",
        fixes=tuple(fix(text, w, r) for w, r in fixes),
        confidence=confidence,
    )


def test_wrong_figure_is_replaced_in_place() -> None:
    answer = "Acme was founded in 1998. Revenue rose 12% in 2023. It employs 500 people."
    c = checked(answer, "Revenue rose 12% in 2023", Verdict.CONTRADICTED, fixes=(("12%", "15%"),))
    out = correct(answer, [c], settings=SETTINGS)
    assert out.text == "Acme was founded in 1998. Revenue rose 15% in 2023. It employs 500 people."
    (result,) = out.claims
    assert result.action == Action.REPLACE
    assert result.replacement == "Revenue rose 15% in 2023"
    assert (result.start, result.end, result.text) == (26, 50, "Revenue rose 12% in 2023")
    assert (result.similarity, result.judgement, result.reason) == (0.8, Judgement.CONTRADICT, "reason c0")
    assert result.evidence == c.evidence
    assert not out.needs_review


def test_wrong_entity_is_replaced_and_the_sentence_kept() -> None:
    answer = "In 1889, the tower was designed by Gustave Courbet, a French engineer."
    c = checked(
        answer,
        "the tower was designed by Gustave Courbet",
        Verdict.CONTRADICTED,
        sentence=answer,
        fixes=(("Gustave Courbet", "Gustave Eiffel"),),
    )
    out = correct(answer, [c], settings=SETTINGS)
    assert out.text == "In 1889, the tower was designed by Gustave Eiffel, a French engineer."
    assert out.claims[0].replacement == "the tower was designed by Gustave Eiffel"


@pytest.mark.parametrize(
    ("answer", "wrong", "right", "expected"),
    [  # HaluEval: "Jauja is a French film" had become "Jauja is a Argentine film"
        ("Jauja is a French film.", "French", "Argentine", "Jauja is an Argentine film."),
        ("It is an Irish firm.", "Irish", "Dutch", "It is a Dutch firm."),
        ("It is a European firm.", "European", "Asian", "It is an Asian firm."),
        ("It is an Asian firm.", "Asian", "European", "It is a European firm."),
        ("It has a 5 km track.", "5", "8", "It has a 8 km track."),  # figures are left alone
        ("Banana sales rose.", "Banana", "Apple", "Apple sales rose."),  # "Banana": not an article
        ("Acme sold Class A Ordinary shares.", "Ordinary", "Extra", "Acme sold Class A Extra shares."),
        ("A French firm won.", "French", "Irish", "An Irish firm won."),
    ],
)
def test_an_article_before_a_fixed_word_agrees_with_it(
    answer: str, wrong: str, right: str, expected: str
) -> None:
    c = checked(answer, answer.rstrip("."), Verdict.CONTRADICTED)
    at = answer.index(wrong)
    fix = SlotFix(start=at, end=at + len(wrong), wrong=wrong, right=right)
    assert correct(answer, [c.model_copy(update={"fixes": (fix,)})], settings=SETTINGS).text == expected


def test_fix_with_stale_offsets_is_located_by_its_wrong_value() -> None:
    answer = "Profit was $4.2 bn."
    c = checked(answer, "Profit was $4.2 bn", Verdict.CONTRADICTED)
    bad = SlotFix(start=0, end=3, wrong="4.2", right="3.9")
    out = correct(answer, [c.model_copy(update={"fixes": (bad,)})], settings=SETTINGS)
    assert out.text == "Profit was $3.9 bn."


@pytest.mark.parametrize(
    ("removed", "expected"),
    [
        ("It has offices on Mars", "Acme was founded in 1998. It employs 500 people."),
        ("Acme was founded in 1998", "It has offices on Mars. It employs 500 people."),
        ("It employs 500 people", "Acme was founded in 1998. It has offices on Mars."),
    ],
)
def test_contradiction_without_fix_removes_the_whole_sentence(removed: str, expected: str) -> None:
    answer = "Acme was founded in 1998. It has offices on Mars. It employs 500 people."
    out = correct(answer, [checked(answer, removed, Verdict.CONTRADICTED)], settings=SETTINGS)
    assert out.text == expected
    assert out.claims[0].action == Action.REMOVE
    assert out.claims[0].replacement is None


def test_removing_a_sentence_keeps_paragraph_breaks() -> None:
    answer = "Acme is old. It has offices on Mars.\n\nIt employs 500 people.\nIt sells tea."
    first = checked(answer, "It has offices on Mars", Verdict.CONTRADICTED, cid="c0")
    second = checked(answer, "It employs 500 people", Verdict.CONTRADICTED, cid="c1")
    assert (
        correct(answer, [first], settings=SETTINGS).text
        == "Acme is old.\n\nIt employs 500 people.\nIt sells tea."
    )
    assert (
        correct(answer, [second], settings=SETTINGS).text
        == "Acme is old. It has offices on Mars.\n\nIt sells tea."
    )


@pytest.mark.parametrize(
    ("answer", "removed", "expected"),
    [
        ("Revenue rose 5% and costs fell 3%.", "costs fell 3%", "Revenue rose 5%."),
        ("Revenue rose 5% and costs fell 3%.", "Revenue rose 5%", "Costs fell 3%."),
        ("Revenue rose 5%, but costs fell 3%.", "costs fell 3%", "Revenue rose 5%."),
        ("Revenue rose 5%; costs fell 3%.", "Revenue rose 5%", "Costs fell 3%."),
        (
            "Revenue rose 5%, costs fell 3% and staff grew.",
            "costs fell 3%",
            "Revenue rose 5% and staff grew.",
        ),
        ("In 2023, revenue rose 5% and costs fell 3%.", "revenue rose 5%", "In 2023, costs fell 3%."),
    ],
)
def test_contradicted_clause_is_removed_with_its_connector(answer: str, removed: str, expected: str) -> None:
    others = [c for c in ("Revenue rose 5%", "revenue rose 5%", "costs fell 3%", "staff grew") if c in answer]
    claims = [
        checked(
            answer,
            text,
            Verdict.CONTRADICTED if text == removed else Verdict.VERIFIED,
            sentence=answer,
            cid=f"c{i}",
        )
        for i, text in enumerate(others)
    ]
    claims.sort(key=lambda c: c.claim.start)
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == expected


def test_all_clauses_removed_drops_the_sentence() -> None:
    answer = "Acme is old. Revenue rose 5% and costs fell 3%. It sells tea."
    sentence = "Revenue rose 5% and costs fell 3%."
    claims = [
        checked(answer, "Revenue rose 5%", Verdict.CONTRADICTED, sentence=sentence, cid="c1"),
        checked(answer, "costs fell 3%", Verdict.CONTRADICTED, sentence=sentence, cid="c2"),
    ]
    assert correct(answer, claims, settings=SETTINGS).text == "Acme is old. It sells tea."


def test_unverified_claim_is_flagged() -> None:
    answer = "The drug was approved in 2019. It cut relapses by 40%."
    c = checked(answer, "It cut relapses by 40%", Verdict.UNVERIFIED)
    out = correct(answer, [c], settings=SETTINGS)
    assert out.text == "The drug was approved in 2019. It cut relapses by 40% [unverified]."
    assert out.claims[0].action == Action.FLAG
    assert out.claims[0].replacement == "It cut relapses by 40% [unverified]"
    custom = CorrectionSettings(flag_format="{text} (?)")
    assert (
        correct(answer, [c], settings=custom).text
        == "The drug was approved in 2019. It cut relapses by 40% (?)."
    )


def test_verified_claims_are_byte_identical() -> None:
    answer = "Revenue  rose 12%\u00a0in 2023.\n\n  Costs fell — slightly.  "
    claims = [
        checked(answer, "Revenue  rose 12%\u00a0in 2023", Verdict.VERIFIED, cid="c0"),
        checked(answer, "Costs fell — slightly", Verdict.VERIFIED, cid="c1"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == answer
    assert [(r.action, r.replacement) for r in out.claims] == [(Action.KEEP, None), (Action.KEEP, None)]


def test_several_corrections_in_one_answer() -> None:
    answer = "Acme may open in Peru. It has offices on Mars. Revenue rose 12% in 2023."
    claims = [
        checked(answer, "Acme may open in Peru", Verdict.UNVERIFIED, cid="c0"),
        checked(answer, "It has offices on Mars", Verdict.CONTRADICTED, cid="c1"),
        checked(answer, "Revenue rose 12% in 2023", Verdict.CONTRADICTED, fixes=(("12%", "15%"),), cid="c2"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == "Acme may open in Peru [unverified]. Revenue rose 15% in 2023."
    assert [r.action for r in out.claims] == [Action.FLAG, Action.REMOVE, Action.REPLACE]
    assert [(r.start, r.end) for r in out.claims] == [(0, 21), (23, 45), (47, 71)]


def test_replace_and_flag_in_one_sentence() -> None:
    answer = "Revenue rose 12% and the CEO resigned."
    claims = [
        checked(answer, "Revenue rose 12%", Verdict.CONTRADICTED, sentence=answer, fixes=(("12", "15"),)),
        checked(answer, "the CEO resigned", Verdict.UNVERIFIED, sentence=answer, cid="c1"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == "Revenue rose 15% and the CEO resigned [unverified]."


def test_unicode_before_the_edits_uses_str_offsets() -> None:
    answer = "Le café « Zoë » a ouvert 😀 en 1990. Il a 12 salariés. Ça marche."
    claims = [
        checked(answer, "Le café « Zoë » a ouvert 😀 en 1990", Verdict.VERIFIED, cid="c0"),
        checked(answer, "Il a 12 salariés", Verdict.CONTRADICTED, fixes=(("12", "14"),), cid="c1"),
        checked(answer, "Ça marche", Verdict.CONTRADICTED, cid="c2"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == "Le café « Zoë » a ouvert 😀 en 1990. Il a 14 salariés."


def test_over_correction_guard_holds_flags_and_asks_for_review() -> None:
    answer = "A is 1. B is 2. C is 3. D is 4."
    claims = [
        checked(answer, "A is 1", Verdict.UNVERIFIED, cid="c0"),
        checked(answer, "B is 2", Verdict.UNVERIFIED, cid="c1"),
        checked(answer, "C is 3", Verdict.UNVERIFIED, cid="c2"),
        checked(answer, "D is 4", Verdict.CONTRADICTED, fixes=(("4", "5"),), cid="c3"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == "A is 1. B is 2. C is 3. D is 5."
    assert [r.action for r in out.claims] == [Action.KEEP] * 3 + [Action.REPLACE]
    assert out.claims[0].reason == "held for review: reason c0"
    assert out.claims[0].replacement is None
    assert (out.needs_review, out.review_reasons) == (True, ("over_correction",))


def test_guard_needs_three_claims_and_a_share_above_the_limit() -> None:
    two = "A is 1. B is 2."
    claims = [
        checked(two, "A is 1", Verdict.UNVERIFIED),
        checked(two, "B is 2", Verdict.UNVERIFIED, cid="c1"),
    ]
    assert correct(two, claims, settings=SETTINGS).text == "A is 1 [unverified]. B is 2 [unverified]."
    five = "A is 1. B is 2. C is 3. D is 4. E is 5."
    texts = ["A is 1", "B is 2", "C is 3", "D is 4", "E is 5"]
    verdicts = [Verdict.UNVERIFIED] * 3 + [Verdict.VERIFIED] * 2  # 3/5 = 0.6, not above 0.6
    claims = [checked(five, t, v, cid=t) for t, v in zip(texts, verdicts, strict=True)]
    out = correct(five, claims, settings=SETTINGS)
    assert out.text == "A is 1 [unverified]. B is 2 [unverified]. C is 3 [unverified]. D is 4. E is 5."
    assert not out.needs_review


def test_high_stakes_contradiction_goes_to_review() -> None:
    answer = "The dose is 50 mg."
    c = checked(answer, "The dose is 50 mg", Verdict.CONTRADICTED, fixes=(("50", "5"),))
    out = correct(answer, [c], settings=SETTINGS, high_stakes=True)
    assert out.text == "The dose is 5 mg."
    assert (out.needs_review, out.review_reasons) == (True, ("high_stakes_contradiction",))
    assert not correct(answer, [c], settings=SETTINGS).needs_review
    off = CorrectionSettings(review_high_stakes_contradictions=False)
    assert not correct(answer, [c], settings=off, high_stakes=True).needs_review


def test_low_confidence_replacement_goes_to_review() -> None:
    answer = "The dose is 50 mg."
    c = checked(answer, "The dose is 50 mg", Verdict.CONTRADICTED, fixes=(("50", "5"),), confidence=0.3)
    out = correct(answer, [c], settings=SETTINGS)
    assert out.text == "The dose is 5 mg."
    assert out.review_reasons == ("low_confidence_replacement",)


def test_empty_input() -> None:
    assert correct("", [], settings=SETTINGS).text == ""
    out = correct("Nothing to check here.", [], settings=SETTINGS)
    assert (out.text, out.claims, out.needs_review, out.review_reasons) == (
        "Nothing to check here.",
        (),
        False,
        (),
    )


def test_claim_with_mismatched_offsets_is_kept_with_a_reason() -> None:
    answer = "Revenue rose 12%."
    good = checked(answer, "Revenue rose 12%", Verdict.CONTRADICTED)
    moved = good.claim.model_copy(update={"start": 3, "end": 19})
    out = correct(answer, [good.model_copy(update={"claim": moved})], settings=SETTINGS)
    assert out.text == answer
    assert out.claims[0].action == Action.KEEP
    assert out.claims[0].reason.startswith("left unchanged: offsets do not match the answer")


def test_overlapping_edits_apply_only_the_first() -> None:
    answer = "Revenue rose 12% in 2023."
    claims = [
        checked(answer, "Revenue rose 12%", Verdict.CONTRADICTED, sentence=answer, fixes=(("12%", "15%"),)),
        checked(answer, "12% in 2023", Verdict.UNVERIFIED, sentence=answer, cid="c1"),
    ]
    out = correct(answer, claims, settings=SETTINGS)
    assert out.text == "Revenue rose 15% in 2023."
    assert out.claims[1].action == Action.KEEP
    assert out.claims[1].reason.startswith("left unchanged: overlaps claim c0")


def test_claim_without_sentence_offsets_still_removes_cleanly() -> None:
    answer = "Acme is old. It has offices on Mars. It sells tea."
    c = checked(answer, "It has offices on Mars", Verdict.CONTRADICTED)
    bare = c.claim.model_copy(update={"sentence_start": 0, "sentence_end": 0})
    out = correct(answer, [c.model_copy(update={"claim": bare})], settings=SETTINGS)
    assert out.text == "Acme is old. It sells tea."


def test_claims_come_back_in_text_order() -> None:
    answer = "A is 1. B is 2."
    claims = [
        checked(answer, "B is 2", Verdict.VERIFIED, cid="b"),
        checked(answer, "A is 1", Verdict.VERIFIED, cid="a"),
    ]
    assert [r.id for r in correct(answer, claims, settings=SETTINGS).claims] == ["a", "b"]

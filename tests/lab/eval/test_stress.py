"""The correction stress test: variants of correct answers, and how each outcome is scored."""

from __future__ import annotations

from dataclasses import dataclass, field

from lab.eval.datasets import EvalItem
from lab.eval.stress import Variant, outcome, run, summary, variants
from tests.lab.eval.fakes import FakePipeline
from workers.messages import Action, Answer, Corrected, Document, Route

DOC = Document(
    id="d",
    text="Acme Corp was founded in 1991 in Boston by Jane Miller. It employs 4,200 people in 14 countries.",
)
TEXT = "Acme Corp was founded in 1991 in Boston. It employs 4,200 people."


def _item(text: str = TEXT, *, hallucinated: bool = False) -> EvalItem:
    return EvalItem(
        answer=Answer(id="a", query="q", answer=text, documents=(DOC,)), hallucinated=hallucinated
    )


def test_variants_change_one_sentence_each_and_keep_the_original_first() -> None:
    found = variants([_item(), _item("Wrong.", hallucinated=True)])
    assert found[0].kind == "original" and found[0].text == TEXT
    assert {v.kind for v in found[1:]} >= {"number", "negation"}
    for v in found[1:]:
        assert v.text != TEXT and v.text == TEXT[: v.start] + v.changed + TEXT[v.end :]
    assert all(v.item.answer.answer == TEXT for v in found)  # the wrong answer gives none


@dataclass
class _Restorer:
    """Edits the changed sentence back (restored), away (deletes everything) or flags it."""

    mode: str
    seen: list[str] = field(default_factory=list)

    def process(self, answer: Answer) -> Corrected:
        self.seen.append(answer.id)
        claims = FakePipeline().process(answer).claims
        action = {"restore": Action.REPLACE, "away": Action.REMOVE, "flag": Action.FLAG}[self.mode]
        claims = tuple(c.model_copy(update={"action": action}) for c in claims)
        text = {"restore": TEXT, "away": "", "flag": answer.answer + " [unverified]"}[self.mode]
        return Corrected(
            id=answer.id, original=answer.answer, corrected=text, route=Route.FULL, claims=claims
        )


def test_outcomes_are_scored_against_the_original_text() -> None:
    changed = Variant(_item(), "number", 41, len(TEXT), "It employs 5,100 people.")
    assert (
        outcome(
            changed,
            _Restorer("restore").process(changed.item.answer.model_copy(update={"answer": changed.text})),
        )
        == "restored"
    )
    assert (
        outcome(
            changed,
            _Restorer("away").process(changed.item.answer.model_copy(update={"answer": changed.text})),
        )
        == "away"
    )
    assert (
        outcome(
            changed,
            _Restorer("flag").process(changed.item.answer.model_copy(update={"answer": changed.text})),
        )
        == "flagged"
    )
    untouched = Corrected(id="a", original=changed.text, corrected=changed.text, route=Route.FULL)
    assert outcome(changed, untouched) == "missed"
    flagged = _Restorer("flag").process(changed.item.answer.model_copy(update={"answer": changed.text}))
    unflagged = tuple(c.model_copy(update={"action": Action.KEEP}) for c in flagged.claims)
    held = untouched.model_copy(update={"claims": unflagged, "needs_review": True})
    assert outcome(changed, held) == "held"  # the guard held its flags back for a reviewer
    assert outcome(changed, held.model_copy(update={"needs_review": False})) == "missed"


def test_run_and_summary_count_every_variant_once() -> None:
    chosen = variants([_item()])
    pipeline = _Restorer("restore")
    rows = run(chosen, pipeline)
    assert len(rows) == len(chosen) == len(set(pipeline.seen))
    report = summary(rows)
    assert report["originals"] == 1
    assert report["edits_toward"] == len(chosen) - 1 and report["edits_away"] == 0
    assert report["by_kind"]["original"] == {"verbatim": 1} and report["originals_verbatim"] == 1


def test_a_changed_sentence_the_original_made_no_claim_of_is_not_missed() -> None:
    changed = Variant(_item(), "negation", 0, 10, "Here is not a summary:")
    untouched = Corrected(id="a", original=changed.text, corrected=changed.text, route=Route.FULL)
    assert outcome(changed, untouched, claimed=False) == "no_claim"
    assert outcome(changed, untouched) == "missed"


def test_run_reads_which_sentences_had_claims_from_the_original() -> None:
    chosen = variants([_item()])
    rows = run(chosen, _Untouched(claimed_upto=41))
    rest = chosen[1:]
    for row, v in zip(rows[1:], rest, strict=True):
        assert row["outcome"] == ("missed" if v.start < 41 else "no_claim")
    assert summary(rows)["no_claim"] == sum(v.start >= 41 for v in rest) > 0


@dataclass
class _Untouched:
    """Changes nothing; its one claim covers the text up to `claimed_upto`."""

    claimed_upto: int

    def process(self, answer: Answer) -> Corrected:
        [claim] = FakePipeline().process(answer).claims[:1]
        claim = claim.model_copy(update={"start": 0, "end": self.claimed_upto, "action": Action.KEEP})
        return Corrected(
            id=answer.id, original=answer.answer, corrected=answer.answer, route=Route.FULL, claims=(claim,)
        )

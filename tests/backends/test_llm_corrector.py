"""LLMCorrector: grounded whole-claim fixes for contradicted claims without one, in one call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm_server import FakeLLMServer, Scripted, make_client, reply, stage
from workers.backends.llm_corrector import LLMCorrector, grounded
from workers.backends.llm_usage import usage_scope
from workers.messages import Answer, CheckedClaim, Claim, Evidence, Judgement, SlotFix, Verdict

SOURCE = "The bridge opened in 1932 and cost $9 million."
QUOTE = Evidence(doc_id="d", start=0, end=len(SOURCE), text=SOURCE)
ANSWER = Answer(id="a", query="q", answer="The bridge opened in 1938. It is long. It cost $9 million.")


def checked(text: str, verdict: Verdict, *, fixes: tuple[SlotFix, ...] = (), i: int = 0) -> CheckedClaim:
    start = ANSWER.answer.index(text)
    label = Judgement.CONTRADICT if verdict is Verdict.CONTRADICTED else Judgement.SUPPORT
    claim = Claim(id=f"c{i}", text=text, start=start, end=start + len(text))
    return CheckedClaim(
        claim=claim,
        verdict=verdict,
        judgement=label,
        similarity=0.9,
        evidence=(QUOTE,),
        reason="r",
        fixes=fixes,
    )


@pytest.fixture
def server() -> Iterator[FakeLLMServer]:
    with FakeLLMServer() as s:
        yield s


def test_grounded_rewrites_only() -> None:
    assert grounded("opened in 1938", "opened in 1932", [QUOTE.text])
    assert not grounded("opened in 1938", "opened in 1935", [QUOTE.text])  # 1935 is in no evidence
    assert not grounded("opened in 1938", "opened in 1938", [QUOTE.text])  # no change
    assert not grounded("opened in 1938", "", [QUOTE.text])
    assert not grounded("x", "The bridge opened in 1932 and cost $9 million. " * 5, [QUOTE.text * 5])


def test_one_call_for_the_contradicted_claims_without_a_fix(server: FakeLLMServer) -> None:
    client, _ = make_client(server)
    fixed = SlotFix(start=0, end=2, wrong="It", right="It")
    claims = [
        checked("The bridge opened in 1938", Verdict.CONTRADICTED, i=0),
        checked("It is long", Verdict.VERIFIED, i=1),
        checked("It cost $9 million", Verdict.CONTRADICTED, fixes=(fixed,), i=2),  # has a fix already
    ]
    server.script(reply({"rewrites": [{"claim_id": "k0", "text": "The bridge opened in 1932"}]}))
    with usage_scope() as ledger:
        out = LLMCorrector(client=client, stage=stage()).rewrite(ANSWER, claims)
    client.close()
    assert len(server.requests) == 1
    assert [c["text"] for c in server.requests[0].payload["claims"]] == ["The bridge opened in 1938"]
    assert out[0].fixes == (
        SlotFix(
            start=0,
            end=25,
            wrong="The bridge opened in 1938",
            right="The bridge opened in 1932",
            evidence_doc_id="d",
        ),
    )
    assert out[1:] == claims[1:]
    assert ledger.stages()["correction"].calls == 1


def test_no_call_when_nothing_needs_a_rewrite(server: FakeLLMServer) -> None:
    client, _ = make_client(server)
    claims = [checked("It is long", Verdict.VERIFIED)]
    assert LLMCorrector(client=client, stage=stage()).rewrite(ANSWER, claims) == claims
    client.close()
    assert server.requests == []


def test_failure_keeps_the_offline_plan_and_says_so(server: FakeLLMServer) -> None:
    client, _ = make_client(server, max_retries=0)
    server.script(Scripted(status=502))
    claims = [checked("The bridge opened in 1938", Verdict.CONTRADICTED)]
    with usage_scope() as ledger:
        out = LLMCorrector(client=client, stage=stage()).rewrite(ANSWER, claims)
    client.close()
    assert out == claims
    assert ledger.fallbacks[0].startswith("correction: exhausted")

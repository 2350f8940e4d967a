"""Outcomes said the other way round: a decision, verdict or result against its opposite."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.outcomes import outcome_clashes


def _clashes(claim: str, window: str) -> list[tuple[str, str]]:
    return [
        (c.word, c.fix)
        for c in outcome_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The appeal court upheld the award.",
            "The appeal court overturned the award.",
            ("upheld", "overturned"),
        ),
        (
            "The settlement of $25 million was approved on March 3, 2001.",
            "The $25m settlement was rejected by the judge on 3 March 2001.",
            ("approved", "rejected"),
        ),
        (
            "Smith was acquitted of fraud in 2004.",
            "Smith was convicted of fraud in 2004.",
            ("acquitted", "convicted"),
        ),
        (
            "The court granted the injunction.",
            "The court denied the injunction on 4 May.",
            ("granted", "denied"),
        ),
        (
            "Accepted by the board, the offer lapsed.",
            "Rejected by the board, the offer lapsed.",
            ("Accepted", "Rejected"),
        ),
        ("The governor signed the bill.", "The governor vetoed the bill on Friday.", ("signed", "vetoed")),
        ("The Supreme Court struck down the law.", "The Supreme Court upheld the law.", ("struck", "upheld")),
        (
            "The appeals court vacated the judgment.",
            "The appeals court affirmed the judgment.",
            ("vacated", "affirmed"),
        ),
        ("The board adopted the proposal.", "The board rejected the proposal.", ("adopted", "rejected")),
    ],
)
def test_an_outcome_against_its_opposite_is_a_clash_fixed_with_the_windows_word(
    claim: str, window: str, expected: tuple[str, str]
) -> None:
    assert _clashes(claim, window) == [expected]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # another body decided: the window's clause does not restate the claim's
        ("The board accepted the takeover offer.", "The shareholders rejected the takeover offer."),
        ("The FDA approved the drug.", "The EMA rejected the drug."),
        ("The FDA approved the drug for adults.", "The FDA rejected the drug for children."),
        # both outcomes in the window's clause: which is the claim's is not the rules' to say
        ("The FDA approved the drug.", "The FDA approved the drug after the EMA rejected it."),
        # a "not" on either side
        ("The FDA approved the drug.", "The FDA did not reject the drug."),
        ("The FDA has not approved the drug.", "The FDA rejected the drug."),
        # another axis, or two outcomes in the claim
        ("The court granted the appeal.", "The court overturned the appeal."),
        (
            "The court upheld the ruling and rejected the appeal.",
            "The court overturned the ruling and rejected the appeal.",
        ),
        # words with other senses are not outcomes, nor are contests
        ("Sales declined in 2020.", "Sales rose in 2020."),
        ("The appeal was allowed.", "The appeal was dismissed."),
        ("Liverpool lost to Chelsea.", "Chelsea won against Liverpool."),
        # a refusal to act, two holders side by side, another event's year
        ("The company accepted the settlement.", "The company refused to comment on the settlement."),
        ("The EU approved the drug.", "Unlike the EU, the US rejected the drug."),
        ("Smith was acquitted of fraud in 2017.", "Smith was convicted of fraud in 2015."),
        ("The company refused to comment on the offer.", "The company accepted the offer."),
        # a clause that holds more than one decision (a second review's flags on correct claims)
        (
            "The Supreme Court upheld the ban.",
            "The Supreme Court overturned the ruling that had struck down the ban.",
        ),
        ("The drug was approved in 2021.", "The drug, rejected in 2019, was finally cleared in 2021."),
        ("Jones was acquitted of murder.", "Jones was convicted of manslaughter and cleared of murder."),
        (
            "The trial court convicted Jones.",
            "The appeals court acquitted Jones, overturning the trial court.",
        ),
        ("The FDA approved the drug.", "The FDA rejected the drug, though it praised the trial design."),
    ],
)
def test_no_clash_without_the_same_decision_about_the_same_thing(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


def test_a_word_on_two_axes_is_read_on_either() -> None:
    assert _clashes("The court refused the injunction.", "The court granted the injunction.") == [
        ("refused", "granted")
    ]
    assert _clashes("The board refused the offer.", "The board accepted the offer.") == [
        ("refused", "accepted")
    ]


def test_the_decision_as_the_object_and_a_name_are_no_second_decision() -> None:
    assert _clashes("The appeals court upheld the verdict.", "The appeals court overturned the verdict.") == [
        ("upheld", "overturned")
    ]
    assert _clashes(
        "The court upheld the ordinance.", "The court struck down the ordinance, citing the First Amendment."
    ) == [("upheld", "struck")]


def test_a_remand_or_a_reason_given_is_no_second_decision() -> None:
    assert _clashes(
        "The Ninth Circuit vacated the injunction.",
        "The Ninth Circuit affirmed the injunction and remanded the case.",
    ) == [("vacated", "affirmed")]
    assert _clashes("The governor signed the bill.", "The governor vetoed the bill, citing its cost.") == [
        ("signed", "vetoed")
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The Senate passed the bill in 2021.",
            "In 2021 the Senate rejected the bill.",
            [("passed", "rejected")],
        ),
        (
            "The bank passed the stress test in 2022.",
            "The bank failed the stress test in 2022.",
            [("passed", "failed")],
        ),
        (
            "The motion was defeated by the council.",
            "The motion was passed by the council.",
            [("defeated", "passed")],
        ),
        # another chamber, a bank that failed, not its audit
        ("The bill passed the state Senate.", "The state Senate's bill was defeated in the Assembly.", []),
        (
            "The bank passed its audit in 2008.",
            "The bank failed in 2008 with a clean audit opinion on file.",
            [],
        ),
        # a bill or test named beside the verb only; "passed through" a chamber is a vote
        (
            "Senator Smith, author of the 1996 act, passed in 2019.",
            "Senator Smith, author of the 1996 act, was defeated in 2019.",
            [],
        ),
        (
            "The bill passed through the Senate.",
            "The bill was defeated in the Senate.",
            [("passed", "defeated")],
        ),
        # a death, a cost handed on, a failure to act: no bill or test passed or failed
        ("The patient passed in 2019.", "The patient failed treatment in 2019.", []),
        ("Acme passed the tax on to customers.", "Acme failed the tax audit.", []),
        ("The bill passed the Senate.", "The bill failed to pass the Senate.", []),
    ],
)
def test_a_bill_or_a_test_passed_or_failed(claim: str, window: str, expected: list[tuple[str, str]]) -> None:
    assert _clashes(claim, window) == expected


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        ("Smith won the election in 2020.", "Smith lost the election in 2020 to Jones.", [("won", "lost")]),
        ("The firm lost its appeal in 2019.", "The firm won its appeal in 2019.", [("lost", "won")]),
        (
            "The company won a $5 million contract in 2020.",
            "The company lost a $5 million contract in 2020.",
            [("won", "lost")],
        ),
        # the other side of the same contest, said the other way round: both true
        ("Jones won the election in 2020.", "Smith lost the election in 2020 to Jones.", []),
        ("Chelsea lost the final to Liverpool.", "Liverpool won the final against Chelsea.", []),
        ("Liverpool won the final against Chelsea.", "Chelsea lost the final to Liverpool.", []),
        # no contest named after the verb: an amount, praise, weight
        ("The company lost $5 million in 2020.", "The company won $5 million in 2020.", []),
        ("The drug won praise from doctors.", "The drug lost praise from doctors.", []),
        # a tally, or another contest
        (
            "Smith won 48 percent of the vote in 2020.",
            "Smith lost the election in 2020 with 48 percent of the vote.",
            [],
        ),
        ("Labour won 202 seats.", "Labour lost 60 seats, ending with 202 seats.", []),
        ("Smith won a majority in 2020.", "Smith lost the election in 2020.", []),
    ],
)
def test_a_contest_won_or_lost_by_the_same_side(
    claim: str, window: str, expected: list[tuple[str, str]]
) -> None:
    assert _clashes(claim, window) == expected


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Smith won the election.", "Smith's opponent, Jones, lost the election by 4,000 votes."),
        ("Jones won the appeal.", "In Smith v. Jones (2019), Smith lost the appeal."),
        ("Biden won the 2020 election.", "In the 2020 race against Biden, Trump lost the election."),
        ("Smith won the election.", "Smith's opponent lost the election."),
        ("Acme won the tender.", "Acme's competitor Beta lost the tender."),
    ],
)
def test_a_contest_lost_by_another_side_named_beside_the_claims_is_no_clash(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []

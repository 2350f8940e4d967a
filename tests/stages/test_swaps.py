"""One word of a closed set said as another (`workers.stages.swaps`)."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.swaps import swap_clashes


def _swaps(claim: str, window: str) -> list[tuple[str, str]]:
    return [
        (c.word, c.fix) for c in swap_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The board approved the deal on Tuesday.",
            "The board approved the deal on Wednesday.",
            [("Tuesday", "Wednesday")],
        ),
        (
            "The tablets are taken twice daily.",
            "The tablets are taken once daily with food.",
            [("twice", "once")],
        ),
        (
            "Jane Doe, the chief financial officer, signed the filing.",
            "Jane Doe, the chief executive officer, signed the filing.",
            [("financial", "executive")],
        ),
        (
            "The plaintiff appealed the ruling in 2021.",
            "In 2021 the defendant appealed the ruling.",
            [("plaintiff", "defendant")],
        ),
        ("The loan has a fixed rate of 5%.", "The loan has a variable rate of 5%.", [("fixed", "variable")]),
        (
            "The patient injured her left knee.",
            "The patient injured her right knee in a fall.",
            [("left", "right")],
        ),
        (
            "The drug is given orally.",
            "The drug is given intravenously every four weeks.",
            [("orally", "intravenously")],
        ),
        ("Take the tablet after meals.", "Take the tablet before meals.", [("after", "before")]),
        # "interest" is no superlative: the ordinal is no rank's
        (
            "The first interest payment is due in May.",
            "The second interest payment is due in May.",
            [("first", "second")],
        ),
        (
            "The mortgage has a fixed interest rate.",
            "The mortgage has an adjustable interest rate.",
            [("fixed", "adjustable")],
        ),
        # "an" and "a" are one word beside it; a figure the window gives nowhere is the slot rules'
        (
            "The patient has an acute infection.",
            "The patient has a chronic infection.",
            [("acute", "chronic")],
        ),
        ("The dose is 10 mg twice daily.", "The dose is 20 mg once daily.", [("twice", "once")]),
        (
            "The chief medical officer, Dr. Lee, announced the results.",
            "The chief executive officer, Dr. Lee, announced the results.",
            [("medical", "executive")],
        ),
        (
            "The defendant responded on Wednesday.",
            "The plaintiff filed on Monday and the defendant responded on Friday.",
            [("Wednesday", "Friday")],
        ),
    ],
)
def test_a_word_of_a_closed_set_said_as_another(
    claim: str, window: str, expected: list[tuple[str, str]]
) -> None:
    assert _swaps(claim, window) == expected


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window says the claim's word too, or the claim the window's
        (
            "Revenue rose in the first quarter.",
            "Revenue rose in the second quarter after falling in the first quarter.",
        ),
        ("The drug is taken once daily or twice daily.", "The drug is taken twice daily."),
        # no word beside it the same, or another content word of the claim not restated
        ("The plaintiff filed the motion.", "The defendant's lawyer opposed the motion."),
        ("The board met on Tuesday.", "The committee met on Wednesday."),
        # a "not", a year the window does not give, a name, a compound
        ("The board did not meet on Tuesday.", "The board met on Wednesday."),
        ("The board met on Tuesday in 2020.", "The board met on Wednesday in 2021."),
        ("The plant is in West Virginia.", "The plant is in East Virginia."),
        ("It was a first-quarter loss.", "It was a second-quarter loss."),
        # the other word in another part of the sentence, or the claim's figure in another part
        (
            "Jones was sentenced on Friday.",
            "Smith was sentenced on Tuesday, and Jones was sentenced two days later.",
        ),
        (
            "Metformin is taken twice daily.",
            "Metformin is taken two times a day, and the extended-release form once daily.",
        ),
        (
            "Net revenue was $3 billion.",
            "Revenue after deductions was $3 billion, and gross revenue was $4 billion.",
        ),
        ("Foreign sales fell 2%.", "Sales overseas fell 2%, and domestic sales rose 4%."),
        # not the same words on both sides, or one word said twice ("annual" and "yearly")
        ("The state sued the company in 2020.", "The federal government sued the company in 2020."),
        (
            "The employee was fired after a complaint.",
            "The worker was fired after a complaint against the employer.",
        ),
        ("The fund charges an annual fee of 1%.", "The fund charges a yearly fee of 1%."),
        ("The defense rested on Tuesday.", "The defence rested on Tuesday."),
        # the window says its word twice: "once ... and once" is twice
        ("The drug is taken twice daily.", "The drug is taken once daily in the morning and once at night."),
        # another sentence's words, a rank's ordinal, roles the other way round
        ("Smith filed the appeal on Tuesday.", "Smith lost at trial. Jones filed the appeal on Wednesday."),
        ("Acme is the second largest bank in Spain.", "Acme is the third largest bank in Spain."),
        ("Acme paid the lender $5 million.", "The borrower paid Acme $5 million."),
        # two words swapped: the clause says something else
        ("The plaintiff appealed on Monday.", "The defendant appealed on Friday."),
    ],
)
def test_no_swap_unless_one_word_alone_differs(claim: str, window: str) -> None:
    assert _swaps(claim, window) == []

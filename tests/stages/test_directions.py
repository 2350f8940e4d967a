"""Movements and results said the other way round: "raised" against "cut", "profit" against "loss"."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.directions import direction_clashes


def _clashes(claim: str, window: str) -> list[tuple[str, str, str | None]]:
    return [
        (c.word, c.other, c.fix)
        for c in direction_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The Federal Reserve raised interest rates by 0.25 percentage points in March.",
            "In March, the Federal Reserve cut interest rates by 0.25 percentage points.",
            ("raised", "cut", "cut"),
        ),
        (
            "The drug reduced the risk of stroke by 30%.",
            "The drug increased the risk of stroke by 30%.",
            ("reduced", "increased", "increased"),
        ),
        (
            "Revenue rose 12% in the third quarter.",
            "Third-quarter revenue fell 12%.",
            ("rose", "fell", "fell"),
        ),
        # "increased" used without an object, as a past tense: "fell" fits
        ("Revenue increased 5% in 2023.", "Revenue fell 5% in 2023.", ("increased", "fell", "fell")),
        (
            "Blood sugar dropped after the injection.",
            "Blood sugar rose after the injection.",
            ("dropped", "rose", "rose"),
        ),
        # a passive: the transitive "reduced" fits
        (
            "The dose should be increased for the elderly.",
            "The dose should be reduced for the elderly.",
            ("increased", "reduced", "reduced"),
        ),
        ("Sales were higher than forecast.", "Sales were lower than forecast.", ("higher", "lower", "lower")),
        (
            "The company reported a profit of $2 million.",
            "The company reported a loss of $2 million.",
            ("profit", "loss", "loss"),
        ),
        (
            "The country ran a trade surplus in 2022.",
            "In 2022 the country ran a trade deficit.",
            ("surplus", "deficit", "deficit"),
        ),
    ],
)
def test_the_other_way_is_a_clash_fixed_with_the_windows_word(
    claim: str, window: str, expected: tuple[str, str, str | None]
) -> None:
    assert _clashes(claim, window) == [expected]


@pytest.mark.parametrize(
    ("claim", "window", "other"),
    [
        ("The Fed will cut rates in June.", "The Fed raised rates in June.", "raised"),  # "will raised"
        ("Revenue has increased this year.", "Revenue fell this year.", "fell"),  # "has fell"
        ("The Fed increased rates.", "Rates fell after the Fed meeting.", None),  # another subject
        ("Rates were increased in May.", "Rates fell in May.", "fell"),  # "were fell"
        # the claim's subject owns what moved in the window
        ("The patient gained 10 pounds in 2020.", "In 2020 the patient's weight fell 10 pounds.", "fell"),
        ("The company posted losses of $3 million.", "The company posted a profit of $3 million.", "profit"),
    ],
)
def test_a_word_that_does_not_fit_the_claims_grammar_flags_without_a_fix(
    claim: str, window: str, other: str | None
) -> None:
    found = _clashes(claim, window)
    assert [o for _, o, _ in found] == ([other] if other else [])
    assert all(fix is None for _, _, fix in found)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # not the same thing moving
        ("She was raised in Ohio.", "The population of Ohio fell in 2020."),
        ("Costs fell 3% in 2023.", "In 2023 revenue rose 5%."),
        ("The company raised $5 million in funding.", "The company cut $5 million in costs."),
        # not the same time
        ("Revenue rose in 2023.", "Revenue fell in 2022."),
        # a "not" on either side
        ("Revenue did not rise in 2023.", "In 2023 revenue fell."),
        ("Revenue rose in 2023.", "Revenue did not fall in 2023."),
        # both ways in the window's clause
        ("Revenue rose 5%.", "Revenue rose 5% and costs fell 3%."),
        # the same way
        ("Revenue climbed 5%.", "Revenue increased 5%."),
        # a name, a season, accidents, a comparative naming a kind
        ("Rose Byrne starred in the film.", "Rose Byrne's earnings fell after the film."),
        ("The company was founded in the fall of 2019.", "The company's revenue rose in the fall of 2019."),
        ("Side effects were more common at higher doses.", "Side effects were less common at lower doses."),
        # another sense, another object (a review's damaging edits)
        (
            "The FDA raised concerns about liver toxicity in 2021.",
            "In 2021 the FDA reduced the dose over concerns about liver toxicity.",
        ),
        (
            "Defense counsel raised an objection to the evidence.",
            "Defense counsel's objection to the evidence cut short the testimony.",
        ),
        (
            "BioCo raised $50 million in Series B funding in 2021.",
            "In 2021 BioCo cut its workforce by 20% despite $50 million in Series B funding.",
        ),
        (
            "The drug gained approval in Europe.",
            "After approval in Europe, prescriptions of the drug declined.",
        ),
        # a relative clause
        (
            "Smith, who was raised in Ohio, was convicted of fraud in 2018.",
            "Smith, whose Ohio firm cut 200 jobs, was convicted of fraud in 2018.",
        ),
        (
            "The plaintiff raised two children in Texas.",
            "The plaintiff, whose income in Texas fell sharply, has two children.",
        ),
        # the same comparison turned round
        ("Costs in 2023 were higher than in 2022.", "Costs in 2022 were lower than in 2023."),
        (
            "Mortality was lower in the treatment group than in the placebo group.",
            "Mortality was higher in the placebo group than in the treatment group.",
        ),
        # another part of the clause states the claim; what someone expected is not what happened
        (
            "Costs fell in 2022.",
            "Earlier reports said costs rose in 2022, but audited figures show costs fell.",
        ),
        ("Revenue fell in 2023.", "Many investors believed revenue rose in 2023, but it actually fell."),
        # another verb; what moved is not the claim's subject
        (
            "The patient dropped out of the trial in 2019.",
            "In 2019 the patient's blood pressure in the trial rose, and he dropped out.",
        ),
        # another verb; what moved is not the claim's subject; another part without the claim's year
        (
            "The patient dropped out of the trial in 2019.",
            "In 2019 the patient's blood pressure in the trial rose, and he dropped out.",
        ),
        ("Costs rose in 2022.", "Revenue rose in 2022, while costs fell in 2023."),
        ("Stock prices rose 9% in March.", "In April, credit spreads widened while stock prices dropped 9%."),
        # a comparison turned round, however it is said
        (
            "Compared with 2021, emergency visits were higher in 2022.",
            "Emergency visits in 2021 were lower than in 2022.",
        ),
        (
            "Mortality was lower with the drug compared with placebo.",
            "Mortality was higher with placebo than with the drug.",
        ),
        # "pain improved" is "pain fell": the scales never meet
        ("Pain improved after surgery.", "Pain fell after surgery."),
        ("Survival improved in 2020.", "Survival rose in 2020 as side effects worsened."),
    ],
)
def test_no_clash_unless_the_same_thing_moves_the_other_way(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        # a clause cut where another joins it
        (
            "Corn prices rose in 2022.",
            "Corn prices fell in 2022, while wheat prices rose.",
            ("rose", "fell", "fell"),
        ),
        (
            "The drug lowered the risk of stroke.",
            "The drug raised the risk of stroke and lowered blood pressure.",
            ("lowered", "raised", "raised"),
        ),
        (
            "The drug increased the risk of falls.",
            "The drug reduced the risk of falls.",
            ("increased", "reduced", "reduced"),
        ),
        # a passive names what moved after the window's movement
        (
            "Rates were increased by the Fed in March 2020.",
            "In March 2020 the Fed decreased rates to near zero.",
            ("increased", "decreased", "decreased"),
        ),
        # a movement noun, a preposition that is no content, a comparative said of something
        (
            "A fall of 5% in revenue was reported in 2023.",
            "In 2023 the company reported a rise of 5% in revenue.",
            ("fall", "rise", "rise"),
        ),
        (
            "Unemployment among veterans rose in 2021.",
            "Veteran unemployment fell in 2021, the report said.",
            ("rose", "fell", "fell"),
        ),
        ("Sales were higher than expected.", "Sales were lower than expected.", ("higher", "lower", "lower")),
        (
            "Operating expenses decreased by $20 million.",
            "Operating expenses increased by $20 million due to higher marketing spend.",
            ("decreased", "increased", "increased"),
        ),
        # a figure with "by" is a figure; a leading "According to ..." is not what moved
        (
            "Prescriptions rose 20% between 2015 and 2020.",
            "Between 2015 and 2020, prescriptions decreased by 20%.",
            ("rose", "decreased", "decreased"),
        ),
        (
            "According to the company, operating costs increased in 2022.",
            "Operating costs fell in 2022, the company said.",
            ("increased", "fell", "fell"),
        ),
        # a comparison with the same thing, whatever follows it; a forecast against a forecast
        (
            "Revenue was higher than analysts expected in the quarter.",
            "In the quarter revenue was lower than analysts expected.",
            ("higher", "lower", "lower"),
        ),
        (
            "Premiums will fall 7% next year, the insurer said.",
            "The insurer said it expects premiums to rise 7% next year.",
            ("fall", "rise", "rise"),
        ),
        ("Costs rose in 2022.", "In 2022 costs fell and revenue rose.", ("rose", "fell", "fell")),
        # a compound or a longer name for the same subject
        (
            "Unemployment rose to 3.5% in 2019.",
            "The unemployment rate dropped to 3.5% in 2019.",
            ("rose", "dropped", "dropped"),
        ),
        (
            "Among adults over 65, flu hospitalizations increased in 2022.",
            "Flu hospitalizations among adults over 65 fell during 2022, the CDC reported.",
            ("increased", "fell", "fell"),
        ),
        # a part without a year of its own is dated by its clause; "X said" is not what moved
        ("Costs rose in 2022.", "In 2022 revenue rose and costs fell.", ("rose", "fell", "fell")),
        (
            "The retailer said holiday sales fell 4%.",
            "Holiday sales rose 4%, the retailer said.",
            ("fell", "rose", "rose"),
        ),
        # "as" starts another movement; a figure before a comparative says it of something
        (
            "Operating margin rose to 11%.",
            "Operating margin declined to 11% as labor costs climbed.",
            ("rose", "declined", "declined"),
        ),
        (
            "Exposure was 30% higher in women.",
            "Exposure was 30% lower in women.",
            ("higher", "lower", "lower"),
        ),
        (
            "The risk of kidney injury was lower with the drug.",
            "The risk of kidney injury was higher with the drug.",
            ("lower", "higher", "higher"),
        ),
        (
            "Both units reported profits in 2022.",
            "Both units reported losses in 2022, the filing said.",
            ("profits", "losses", "losses"),
        ),
        # an opening phrase frames every part of its clause
        (
            "Stock prices rose 9% in March.",
            "In March, credit spreads widened 40 basis points while stock prices dropped 9%.",
            ("rose", "dropped", "dropped"),
        ),
        # "compared with" is a comparison like "than", wherever it stands
        (
            "Compared with 2021, emergency visits were higher in 2022.",
            "Emergency visits were lower in 2022 than in 2021.",
            ("higher", "lower", "lower"),
        ),
        (
            "Mortality was higher in 2022 than in 2021.",
            "Compared with 2021, mortality was lower in 2022.",
            ("higher", "lower", "lower"),
        ),
        # more words of movement, and getting better or worse, a scale of its own
        (
            "Pain scores improved after the second week.",
            "Pain scores worsened after the second week.",
            ("improved", "worsened", "worsened"),
        ),
        ("Revenue doubled in 2022.", "Revenue halved in 2022.", ("doubled", "halved", "halved")),
        ("Shares lost 5% on Monday.", "Shares rose 5% on Monday.", ("lost", "rose", "rose")),
        (
            "The trade deficit narrowed in 2023.",
            "The trade deficit widened in 2023.",
            ("narrowed", "widened", "widened"),
        ),
        (
            "Earnings were better than expected in the quarter.",
            "In the quarter earnings were worse than expected.",
            ("better", "worse", "worse"),
        ),
        # the claim's object is the window's subject: a clash no word fixes
        (
            "The company gained market share in 2022.",
            "In 2022 the company's market share fell to 12%.",
            ("gained", "fell", None),
        ),
    ],
)
def test_a_part_of_the_windows_clause_may_say_the_other_way(
    claim: str, window: str, expected: tuple[str, str, str | None]
) -> None:
    assert _clashes(claim, window) == [expected]


def test_each_part_of_the_claims_clause_is_read_against_the_windows_parts() -> None:
    assert _clashes("Revenue rose as costs fell.", "Revenue fell as costs rose.") == [
        ("rose", "fell", "fell"),
        ("fell", "rose", "rose"),
    ]
    # the part that agrees is left alone; a word of another clause must be the window's too
    assert _clashes(
        "Exports fell in 2022 as the trade deficit narrowed.",
        "In 2022 the trade deficit narrowed as exports grew.",
    ) == [("fell", "grew", "grew")]
    assert _clashes(
        "Revenue rose in 2022 as margins deteriorated.", "In 2022 revenue fell as margins deteriorated."
    ) == [("rose", "fell", "fell")]
    assert _clashes(
        "Blood pressure rose after the dose was halved.", "Blood pressure fell after the dose was halved."
    ) == [("rose", "fell", "fell")]
    assert _clashes(
        "Filings rose after the court narrowed the rule.",
        "After the court narrowed the rule, filings dropped.",
    ) == [("rose", "dropped", "dropped")]
    assert _clashes("Costs fell after revenue rose.", "Costs rose after revenue fell.") == [
        ("fell", "rose", "rose"),
        ("rose", "fell", "fell"),
    ]
    assert (
        _clashes(
            "The dose was doubled, and blood pressure fell.",
            "Blood pressure fell after the dose was doubled.",
        )
        == []
    )
    # a clause under a part restates the claim with it; a leading one is a part of its own
    assert _clashes(
        "Pain scores rose after surgery.", "Pain scores fell after surgery with improved mobility."
    ) == [("rose", "fell", "fell")]
    assert _clashes(
        "Adherence improved once the pill burden was doubled.",
        "Once the pill burden was halved, adherence improved.",
    ) == [("doubled", "halved", "halved")]
    # a clause under the window's part without a movement of its own restates the claim with it;
    # one with its own does not ("in the third quarter" is the costs')
    assert _clashes(
        "Staffing was increased before prison conditions worsened.",
        "After staffing was reduced, prison conditions worsened.",
    ) == [("increased", "reduced", "reduced")]
    assert (
        _clashes(
            "Sales fell in the third quarter.",
            "Sales rose 3% in the fourth quarter after costs fell in the third quarter.",
        )
        == []
    )
    # a participle's subject is its clause's: "rose ... after falling" says both of one thing
    assert (
        _clashes(
            "Same-store sales fell 2% in the third quarter.",
            "Same-store sales rose 3% in the fourth quarter after falling 2% in the third quarter.",
        )
        == []
    )
    # "versus" need not be in the claim, unless what it names is the claim's; "than" in a compound is none
    assert _clashes(
        "Hospitalizations rose 30% in the vaccinated cohort.",
        "Hospitalizations fell 30% in the vaccinated cohort versus 5% in the unvaccinated cohort.",
    ) == [("rose", "fell", "fell")]
    assert (
        _clashes(
            "Mortality was higher with the drug.", "Mortality was lower with placebo compared with the drug."
        )
        == []
    )
    assert _clashes(
        "Bond prices rose because Treasury yields fell.",
        "Bond prices fell because Treasury yields rose after a stronger-than-expected jobs report.",
    ) == [("rose", "fell", "fell"), ("fell", "rose", "rose")]
    # a part whose subject is a pronoun may state the claim, if it says nothing more
    assert _clashes(
        "The company's revenue fell in 2023.", "The company's revenue rose 5% in 2023, but it fell in Europe."
    ) == [("fell", "rose", "rose")]
    assert _clashes(
        "Exports to China rose 5% in 2023.", "Exports to China fell 5% in 2023, but they rose 5% in 2022."
    ) == [("rose", "fell", "fell")]
    assert (
        _clashes(
            "The company's revenue lost $5 million.",
            "The company's revenue rose 3% in 2023, but it lost $5 million as restructuring charges mounted.",
        )
        == []
    )
    assert (
        _clashes(
            "The company lost $5 million in 2023.",
            "In 2023, the company's revenue rose 3%, but it lost $5 million.",
        )
        == []
    )


def test_a_part_whose_subject_is_left_out_is_its_clauses() -> None:
    # "but fell in 2024": what fell is the revenue of the part before it
    assert _clashes("Revenue rose in 2024.", "Revenue rose 5% in 2023 but fell in 2024.") == [
        ("rose", "fell", "fell")
    ]
    assert _clashes("Revenue rose 5% in 2023.", "Revenue rose 5% in 2023 but fell in 2024.") == []
    assert (
        _clashes("Costs rose in 2024.", "Costs rose in 2023, while revenue grew in 2023 but fell in 2024.")
        == []
    )


def test_a_claims_part_whose_subject_is_left_out_and_a_half_fixed_sentence() -> None:
    window = "Retail sales rose in January and February but fell 1.2% in March, the Commerce Department said."
    assert _clashes("Retail sales fell in January and February but rose in March.", window) == [
        ("fell", "rose", "rose"),
        ("rose", "fell", "fell"),
    ]
    # a part the window leaves open: the other part is flagged, not fixed
    assert _clashes("Revenue rose as costs fell.", "Revenue fell in 2023.") == [("rose", "fell", None)]
    # a pronoun's part says the claim, with its trailing attribution
    assert (
        _clashes(
            "Symptoms worsened in 22% of patients by week 8.",
            "Symptoms improved in 68% of patients by week 4 but worsened in 22% by week 8, doctors said.",
        )
        == []
    )


def test_a_part_saying_only_its_movement_a_comparison_after_a_comma_and_doubling_down() -> None:
    assert _clashes(
        "Revenue rose 5% in 2023 but fell in 2024.", "Revenue rose 5% in 2023 and rose 2% in 2024."
    ) == [("fell", "rose", "rose")]
    assert _clashes(
        "Visits were lower in 2022 compared with 2021.", "Visits were higher in 2022, compared with 2021."
    ) == [("lower", "higher", "higher")]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "Shares of Acme soared 12% on Tuesday.",
            "Shares of Acme plummeted 12% on Tuesday after weak earnings.",
            ("soared", "plummeted", "plummeted"),
        ),
        (
            "The economy expanded by 1.2% in the second quarter.",
            "The economy contracted by 1.2% in the second quarter.",
            ("expanded", "contracted", "contracted"),
        ),
        (
            "The euro weakened against the dollar in 2022.",
            "The euro strengthened against the dollar in 2022.",
            ("weakened", "strengthened", "strengthened"),
        ),
        (
            "Economic growth slowed in the third quarter.",
            "Economic growth accelerated in the third quarter.",
            ("slowed", "accelerated", "accelerated"),
        ),
    ],
)
def test_more_words_and_the_scales_of_strength_and_speed(
    claim: str, window: str, expected: tuple[str, str, str | None]
) -> None:
    assert _clashes(claim, window) == [expected]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # another scale: slowing is no fall, weakening no worsening
        ("Economic growth fell in the third quarter.", "Economic growth slowed in the third quarter."),
        ("The euro worsened against the dollar.", "The euro strengthened against the dollar."),
        # a movement of another year in the same sentence
        (
            "The economy expanded by 5% in 2021.",
            "The economy contracted by 2% in 2020 before expanding by 5% in 2021.",
        ),
        # another sense
        ("The patient contracted pneumonia in March.", "In March the patient's fever rose and she improved."),
        ("The firm contracted with a supplier in 2022.", "In 2022 the firm expanded with a supplier."),
        # "they" are not what a noun of movement moves
        (
            "Acme cut its dividend in 2024.",
            "Analysts at Acme expected a cut in 2024, but they raised their dividend forecast.",
        ),
    ],
)
def test_no_clash_across_scales_or_senses(claim: str, window: str) -> None:
    assert _clashes(claim, window) == []


def test_a_part_whose_subject_is_it_takes_the_name_its_clause_opens_with() -> None:
    assert _clashes(
        "Acme raised its full-year forecast.",
        "Acme reported weak sales on Tuesday, and it lowered its full-year forecast.",
    ) == [("raised", "lowered", "lowered")]
    assert _clashes("Revenue rose in 2024.", "Revenue rose 5% in 2023, but it fell in 2024.") == [
        ("rose", "fell", "fell")
    ]


def test_a_movement_against_another_thing_is_read_only_against_the_same() -> None:
    assert _clashes(
        "The pound slid 1% against the dollar.", "The pound rose 1% against the dollar on Friday."
    ) == [("slid", "rose", "rose")]
    # the window says who moved against whom the other way round: the same fact
    assert (
        _clashes("The pound slid against the dollar.", "Against the pound, the dollar climbed to 1.30.") == []
    )
    assert (
        _clashes("The euro fell against the dollar.", "Against the euro, the dollar rose 0.5% on Monday.")
        == []
    )


def test_a_year_or_the_same_currency_against_is_read_as_before() -> None:
    assert _clashes("Sales fell 5% in 2020.", "Sales rose 5% in 2020 against 2019.") == [
        ("fell", "rose", "rose")
    ]
    assert _clashes("The pound fell 1% against the US dollar.", "The pound rose 1% against the dollar.") == [
        ("fell", "rose", "rose")
    ]

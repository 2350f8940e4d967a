"""Words of movement: their way, their forms, and which may stand in for which."""

from __future__ import annotations

import pytest

from workers.stages.movements import DIRECTION, UP, Form, Grammar, fits, forms, movement_words, way


def test_every_word_has_one_way() -> None:
    assert [way(w) for w in ("rose", "Slashed", "climbs", "higher", "lowered", "rates")] == [
        1,
        -1,
        1,
        1,
        -1,
        0,
    ]
    assert "raised" in UP and "cut" not in UP
    assert DIRECTION.fullmatch("Plunged") and not DIRECTION.fullmatch("raisins")


def test_forms_say_which_tense_a_word_may_be() -> None:
    assert forms("cut") == {"base", "past", "participle"}
    assert forms("rose") == {"past"}
    assert forms("lower") == {"base", "comparative"}
    assert forms("rates") == frozenset()


@pytest.mark.parametrize(
    ("mine", "theirs", "used", "form"),
    [
        ("rose", "fell", None, None),
        ("raised", "cut", None, None),  # "cut" is a past tense too
        ("rose", "decreased", None, None),  # a word that goes both ways stands in for either
        ("raised", "reduced", None, None),
        ("increased", "fell", "intransitive", "past"),  # "Revenue increased 5%"
        ("increased", "reduced", "transitive", "participle"),  # "should be increased"
        ("higher", "lower", None, None),
    ],
)
def test_a_word_of_the_same_grammar_and_form_fits(
    mine: str, theirs: str, used: Grammar | None, form: Form | None
) -> None:
    assert fits(mine, theirs, used=used, form=form)


@pytest.mark.parametrize(
    ("mine", "theirs", "used", "form"),
    [
        ("raised", "fell", None, None),  # "The Fed fell rates"
        ("rose", "cut", None, None),  # "Revenue cut 5%"
        ("cut", "raised", None, None),  # "cut" may be "will cut": "will raised"
        ("cut", "raised", None, "base"),
        ("increased", "fell", None, None),  # "increased the dose" or "has increased"
        ("increased", "fell", "transitive", "past"),
        ("increased", "fell", "intransitive", "participle"),  # "has increased": "has fell"
        ("lower", "higher", None, None),  # "lower" may be a verb
        ("rates", "fell", None, None),
    ],
)
def test_a_word_that_would_change_the_sentence_does_not_fit(
    mine: str, theirs: str, used: Grammar | None, form: Form | None
) -> None:
    assert not fits(mine, theirs, used=used, form=form)


def test_only_words_that_move_something_are_movements() -> None:
    def moving(text: str) -> list[str]:
        return [m.group(0) for m in movement_words(text)]

    assert moving("Higher doses rose in the fall of 2019.") == ["rose"]
    assert moving("Costs were higher than expected; the lower court ruled.") == ["higher"]
    assert moving("Rose Byrne dropped out and declined to comment.") == []
    assert moving("Sales declined to 3% as the risk of falls fell 40% lower.") == [
        "declined",
        "fell",
        "lower",
    ]


def test_getting_better_or_worse_is_a_scale_of_its_own() -> None:
    # "pain improved" says what "pain fell" says: the two scales never meet
    assert [way(w) for w in ("improved", "worsened", "deteriorating", "better", "worse")] == [
        2,
        -2,
        -2,
        2,
        -2,
    ]
    assert [way(w) for w in ("doubled", "halved", "widened", "narrowed", "lost", "dipped")] == [
        1,
        -1,
        1,
        -1,
        -1,
        -1,
    ]
    assert fits("improved", "worsened") and fits("better", "worse") and fits("lost", "gained")


def test_compounds_adjectives_and_idioms_are_no_movements() -> None:
    def moving(text: str) -> list[str]:
        return [m.group(0) for m in movement_words(text)]

    assert moving("A double-blind trial of cost-cutting measures gave a double dose.") == []
    assert moving("It won by a narrow margin and doubled down on the plan; sales will double down.") == []
    assert moving("It lost the appeal, lost 5% of its value and ended a losing streak.") == ["lost"]
    assert moving("Spreads will narrow as results were better than expected.") == ["narrow", "better"]
    assert moving("The patient lost weight; symptoms improved, then deteriorated.") == [
        "lost",
        "improved",
        "deteriorated",
    ]


def test_strength_and_speed_are_scales_of_their_own() -> None:
    # "the euro weakened" is no fall, "growth slowed" none: each clashes only with its own scale
    assert [way(w) for w in ("strengthened", "weaker", "accelerated", "slowed", "slower")] == [
        3,
        -3,
        4,
        -4,
        -4,
    ]
    assert [way(w) for w in ("plummeted", "skyrocketed", "spiked", "tripled", "expanded", "sank")] == [
        -1,
        1,
        1,
        1,
        1,
        -1,
    ]
    assert fits("plummeted", "soared") and fits("expanded", "narrowed") and fits("weakened", "strengthened")
    # "contract" and "sink" are mostly other words: only their other forms are read
    assert way("contract") == 0 and way("contracts") == 0 and way("sink") == 0 and way("contracted") == -1
    assert way("spike") == 0 and way("rebound") == 0


def test_other_senses_of_the_new_words_are_no_movements() -> None:
    def moving(text: str) -> list[str]:
        return [m.group(0) for m in movement_words(text)]

    assert moving("The economy contracted 2% and then contracted by 1% in the second quarter.") == [
        "contracted",
        "contracted",
    ]
    assert (
        moving("She contracted pneumonia; the firm contracted with a supplier and was contracted to build.")
        == []
    )
    assert moving("The sinking fund covers sunk costs under accelerated approval of rebound headaches.") == []
    assert moving("Nurses contracted by the clinic and infections contracted in hospitals.") == []
    assert moving("The hospital has contracted 500 nurses; the economy has contracted 2%.") == ["contracted"]
    assert moving("The weakening yen helped an accelerated filer.") == []
    # "expanding" only where it tells a change
    assert moving("Companies expanding in Asia hired staff in the expanding suburbs.") == []
    assert moving("GDP contracted 2% in 2020 before expanding by 5% in 2021.") == ["contracted", "expanding"]
    assert moving("Under the expanded plan, the company's expanded credit line and a spike in cases.") == []
    assert moving("A slow recovery on triple therapy under an expanded access program.") == []
    assert moving("Growth will slow as admissions spiked and the dollar was weaker than expected.") == [
        "slow",
        "spiked",
        "weaker",
    ]


def test_slid_slipped_eased_and_rallied_only_as_past_forms() -> None:
    assert [way(w) for w in ("slid", "slipped", "eased", "rallied")] == [-1, -1, -1, 1]
    assert [way(w) for w in ("slide", "slides", "easing", "rally", "rallies", "slip")] == [0] * 6
    assert fits("slid", "dropped") and fits("eased", "rose", used="intransitive", form="past")
    assert not fits("rallied", "cut")


def test_eased_slipped_and_slid_only_before_an_amount_or_where_it_went() -> None:
    def moving(text: str) -> list[str]:
        return [m.group(0) for m in movement_words(text)]

    assert moving("Inflation eased to 3.1%; shares slid 4% and oil slipped sharply below $70.") == [
        "eased",
        "slid",
        "slipped",
    ]
    assert moving("The hospital eased visiting restrictions; the patient slipped on the stairs.") == []
    assert moving("Concerns eased after the talks; spending eased in marketing.") == []
    assert moving("Delinquencies eased in the second quarter and shares slid on Monday.") == ["eased", "slid"]
    # a clause's end is no word: "contracted." and "contracted sharply." are read
    assert moving("The economy contracted. GDP contracted sharply.") == ["contracted", "contracted"]

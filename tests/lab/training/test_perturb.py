from __future__ import annotations

import random

import pytest

from lab.training.perturb import (
    EntityPool,
    change_date,
    change_number,
    change_unit,
    contradictions,
    flip_quantifier,
    negate,
    swap_entity,
    swap_roles,
)


def rng() -> random.Random:
    return random.Random(7)


def test_number_moves_to_another_value_written_alike() -> None:
    out = change_number("The company employs 1,200 people in Ohio.", rng())
    assert out is not None and out != "The company employs 1,200 people in Ohio."
    assert out.startswith("The company employs ") and out.endswith(" people in Ohio.")
    value = int(out.split()[3].replace(",", ""))
    assert value != 1200 and 400 <= value <= 2400  # plausible: within a factor of about two


def test_percentage_stays_a_percentage_below_100() -> None:
    for seed in range(20):
        out = change_number("Turnout reached 64% in the last election.", random.Random(seed))
        assert out is not None and "64%" not in out
        assert 0 < float(out.split()[2].rstrip("%")) < 100


def test_number_leaves_years_and_names_alone() -> None:
    assert change_number("It is a 1989 American documentary film about the leader.", rng()) is None
    assert change_number("The Boeing 747 entered service with Pan Am quickly.", rng()) is None


def test_year_moves_and_a_range_moves_as_one() -> None:
    out = change_date("The firm was founded in 1997 in Arizona.", rng())
    assert out is not None and "1997" not in out
    year = int(out.split()[5])
    assert 2 <= abs(year - 1997) <= 12 and year <= 2024
    ranged = change_date("Arthur's Magazine (1844–1846) was an American literary periodical.", rng())
    assert ranged is not None
    start, end = (int(y) for y in ranged.split("(")[1].split(")")[0].split("–"))
    assert end - start == 2 and start != 1844


def test_month_or_day_changes_in_a_full_date() -> None:
    outs = {change_date("He was born on March 2, 1991 in Ohio.", random.Random(s)) for s in range(30)}
    assert None not in outs and "He was born on March 2, 1991 in Ohio." not in outs
    assert any("March" not in str(o) for o in outs) and any("1991" in str(o) for o in outs)


def test_unit_and_scale_swap_without_converting() -> None:
    assert change_unit("The trail is 12 km long.", rng()) == "The trail is 12 miles long."
    assert change_unit("The deal was worth $4 million.", rng()) == "The deal was worth $4 billion."
    assert change_unit("The trail is long and steep in places.", rng()) is None


def test_entity_swaps_for_one_of_the_same_kind_and_fixes_the_article() -> None:
    pool = EntityPool(local={"place": ["Arizona", "Texas"]}, others={"place": ["Texas"]})
    assert swap_entity("The company was founded in Arizona by two engineers.", rng(), pool) == (
        "The company was founded in Texas by two engineers."
    )
    out = swap_entity("Annette Bening is an American actress and producer.", rng(), EntityPool())
    assert out is not None and "American" not in out and out.startswith("Annette Bening is a")
    article, nationality = out.split()[3:5]
    assert article == ("an" if nationality[0] in "AEIOU" else "a")


def test_entity_swap_leaves_the_subject_alone() -> None:
    pool = EntityPool(others={"person": ["Glenn Hughes", "Kelli Ward"]})
    assert swap_entity("Amy Jo Johnson starred in the series for years.", rng(), pool) is None


def test_negation_inserts_and_removes() -> None:
    assert negate("The company was founded in Arizona by two engineers.", rng()) == (
        "The company was not founded in Arizona by two engineers."
    )
    assert (
        negate("She has won three awards for the film.", rng())
        == "She has not won three awards for the film."
    )
    assert negate("He did not attend the ceremony in Paris.", rng()) == "He did attend the ceremony in Paris."
    assert (
        negate("He never married and lived alone in Paris.", rng()) == "He married and lived alone in Paris."
    )
    # a quoted title is not negated
    assert negate("They covered \"I Still Haven't Found What I'm Looking For\" live.", rng()) is None


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Sales increased sharply in the second quarter.", "Sales decreased sharply in the second quarter."),
        ("It was the largest city in the region.", "It was the smallest city in the region."),
        ("He left the club before the final match.", "He left the club after the final match."),
        ("It had more than 500 members in 1990.", "It had less than 500 members in 1990."),
    ],
)
def test_quantifier_flips(sentence: str, expected: str) -> None:
    assert flip_quantifier(sentence, rng()) == expected


def test_quantifier_skips_idioms() -> None:
    assert flip_quantifier("Milhouse was named after the middle name of Nixon.", rng()) is None
    assert flip_quantifier("She is best known as the lead vocalist of Goldfrapp.", rng()) is None


def test_roles_swap_around_a_one_way_verb() -> None:
    assert swap_roles("In 2012, Facebook acquired Instagram for one billion dollars.", rng()) == (
        "In 2012, Instagram acquired Facebook for one billion dollars."
    )
    assert swap_roles("Instagram was acquired by Facebook in 2012.", rng()) == (
        "Facebook was acquired by Instagram in 2012."
    )
    assert swap_roles("Ross married Rachel in Las Vegas.", rng()) is None  # symmetric: no swap


def test_contradictions_never_return_the_sentence() -> None:
    sentence = "In 2012, Facebook acquired Instagram for $1 billion, its largest deal."
    out = contradictions(sentence, rng(), EntityPool())
    assert {"number", "date", "unit", "roles", "quantifier"} <= set(out)
    assert all(claim != sentence for claim in out.values())

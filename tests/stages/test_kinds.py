from __future__ import annotations

import pytest

from workers.stages.kinds import head, names_another, region_of, same_kind


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("Westchester County", "county"),
        ("Long Island", None),  # a word of place names and surnames: no kind
        ("Michael Bay", None),
        ("the South American Championships", "championship"),
        ("the University of Texas", "university"),
        ("Museum of Modern Art", "museum"),
        ("Paris", None),
        ("United States", "country"),
        ("the Netherlands", "country"),
        ("Germany", "country"),
        ("Rhode Island", None),  # states and towns: no kind (see the module)
        ("Georgia", None),  # a country and a state
        ("Jordan", None),  # a country and a name
        ("Singapore", None),  # a country and its city
        ("Holland", None),  # a town and a surname too
        ("South Sudan", "country"),
        ("", None),
    ],
)
def test_the_word_that_says_a_names_kind(name: str, kind: str | None) -> None:
    assert head(name) == kind


def test_names_of_one_kind_may_replace_each_other() -> None:
    assert same_kind("Westchester County", "Nassau County")
    assert same_kind("the University of Texas", "Harvard University")
    assert same_kind("Paris", "Lyon")


def test_a_name_of_another_kind_is_no_replacement() -> None:
    assert not same_kind("Westchester County", "Carle Place")
    assert not same_kind("Harvard University", "Carle Place")
    assert not same_kind("the South American Championships", "the São Paulo")


def test_a_country_stands_only_for_a_country() -> None:
    assert same_kind("Germany", "France")
    assert same_kind("the United States", "Canada")
    assert not same_kind("Hans-Dieter Flick", "Germany")  # HaluEval: a coach "corrected" to his country
    assert not same_kind("Munich", "Germany")  # nor a country for a city in it
    assert same_kind("Michigan", "Roseau")  # a town for a state: true and more precise


def test_a_nationality_stands_only_for_a_nationality() -> None:
    assert same_kind("French", "Argentine")  # HaluEval: "a French film" -> "an Argentine film"
    assert not same_kind("Polish", "Poland's Anna Harkowska")  # FaithBench: "her Polish" -> "her Poland"
    assert same_kind("English", "Mandarin") and same_kind("Japanese", "Qatari")  # one word: may be either
    assert head("Polish") == "nationality"


def test_a_nationality_is_no_fix_for_one_it_may_contain() -> None:
    assert not same_kind("British", "Scottish") and not same_kind("Russian", "Soviet")
    assert not same_kind("Cypriot", "Greek") and not same_kind("Albanian", "Kosovar")
    assert same_kind("English", "Scottish") and same_kind("Greek", "Turkish")  # these exclude each other


@pytest.mark.parametrize(
    ("a", "b", "another"),
    [
        ("German", "German City of Berlin", True),  # HaluEval: Berlin is not found by finding "German"
        ("French Montana", "French", True),
        ("British", "British Columbia", True),
        ("Korean", "South Korean", False),  # a nationality too
        ("French", "Dawn French", False),  # a surname: the rules cannot tell
        ("French", "French Army", False),  # the nation's army: "the French army"
        ("American", "American Airlines", False),
        ("Mongolia", "Inner Mongolia", True),  # HaluEval: Inner Mongolia is in China
        ("Mexico", "New Mexico", True),
        ("Guinea", "Papua New Guinea", True),
        ("Germany", "West Germany", False),  # the country, or was
        ("Korea", "South Korea", False),
        ("Obama", "Barack Obama", False),
        ("Texas", "University of Texas", False),  # the kind rules decide these, not this
        ("Austro-Hungarian", "Austro-Hungarian", False),
        ("German", "german", False),
    ],
)
def test_a_name_inside_a_longer_one_may_name_something_else(a: str, b: str, another: bool) -> None:
    assert names_another(a, b) is another and names_another(b, a) is another


@pytest.mark.parametrize(
    ("claim", "claimed", "window", "town", "region"),
    [
        (
            "It is based in Michigan.",
            "Michigan",
            "Polaris is based in Roseau, Minnesota, USA.",
            "Roseau",
            "Minnesota",
        ),
        (
            "He studied in Rhode Island.",
            "Rhode Island",
            "He studied in Eastham, Massachusetts.",
            "Eastham",
            "Massachusetts",
        ),
        (
            "It is in Ontario.",
            "Ontario",
            "The clinic is in Vancouver, British Columbia.",
            "Vancouver",
            "British Columbia",
        ),
        ("It opened in Ohio.", "Ohio", "It opened in Carmel, Hamilton County, Indiana.", "Carmel", "Indiana"),
        ("It is based in Detroit.", "Detroit", "Polaris is based in Roseau, Minnesota, USA.", "Roseau", None),
        (
            "It is based in Michigan.",
            "Michigan",
            "Polaris is based in Roseau and sells in Minnesota.",
            "Roseau",
            None,
        ),
        (
            "It is based in Michigan.",
            "Michigan",
            "Polaris is based in Roseau, a town near the border.",
            "Roseau",
            None,
        ),
        # a list, a possessive, the capital district, a person
        ("It opened in Michigan.", "Michigan", "It opened in Toledo, Kansas City and Omaha.", "Toledo", None),
        (
            "It has offices in Texas.",
            "Texas",
            "It has offices in Boston, New York and Chicago.",
            "Boston",
            None,
        ),
        (
            "He was born in Virginia.",
            "Virginia",
            "He was born in Georgetown, Washington, D.C.",
            "Georgetown",
            None,
        ),
        (
            "It was signed by Washington.",
            "Washington",
            "It was signed by Adams, Virginia's delegate.",
            "Adams",
            None,
        ),
        ("It was signed in Virginia.", "Virginia", "It was signed by Adams, Ohio's delegate.", "Adams", None),
    ],
)
def test_a_claimed_region_is_fixed_with_the_region_the_window_places_the_town_in(
    claim: str, claimed: str, window: str, town: str, region: str | None
) -> None:
    value = (claim.index(claimed), claim.index(claimed) + len(claimed))
    place = (window.index(town), window.index(town) + len(town))
    assert region_of(claim, value, window, place) == region

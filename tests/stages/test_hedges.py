from __future__ import annotations

import pytest

from workers.stages.hedges import EXACT, Hedge, hedge_before, relation, rewritten
from workers.stages.polarity import quantifiers
from workers.stages.slots import Slot, extract_slots, left_open, values_match
from workers.stages.units import canonical_unit


def _figure(text: str) -> Slot:
    [slot] = [s for s in extract_slots(text) if s.figure is not None]
    return slot


def _hedge(text: str) -> Hedge:
    figure = _figure(text).figure
    assert figure is not None
    return figure.hedge


@pytest.mark.parametrize(
    ("text", "mode", "words"),
    [
        ("Over 12,000 people came.", ">", "Over "),
        ("It drew more than 12,000 people.", ">", "more than "),
        ("at least 3 patients", ">", "at least "),
        ("about 5,000 people", "~", "about "),
        ("an estimated 40,000 fans", "~", "an estimated "),
        ("nearly 50% of voters", "-", "nearly "),
        ("~300 km", "~", "~"),
        ("up to 40% off", "<", "up to "),
        ("fewer than 20 staff", "<", "fewer than "),
        ("It drew 12,000 people.", "=", ""),
    ],
)
def test_the_hedge_before_a_figure_is_read_with_its_words(text: str, mode: str, words: str) -> None:
    assert _hedge(text) == Hedge(mode, words)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "mode", "words"),
    [
        ("Adults should take no more than 8 tablets.", "<", "no more than "),
        ("give not less than 30 days' notice", ">", "not less than "),
        ("doses not exceeding 4 g a day", "<", "not exceeding "),
        ("The limit is not above 5%.", "<", "not above "),
        ("Just over 12,000 people came.", ">", "Just over "),
    ],
)
def test_a_negated_or_modified_bound_is_read_whole(text: str, mode: str, words: str) -> None:
    assert (_hedge(text).mode, _hedge(text).words) == (mode, words)


@pytest.mark.parametrize(
    "text",
    [
        "Revenue grew over 3 years.",
        "The test took under 2 hrs.",
        "The firm took over 2 rivals.",
        "All of the above 3 criteria apply.",
        "It was not about 5,000 people.",
    ],
)
def test_over_under_and_above_as_plain_words_hedge_nothing(text: str) -> None:
    assert _hedge(text) is EXACT


def test_over_before_a_span_of_time_says_when() -> None:
    text = "Revenue grew 20% over 3 years."
    assert hedge_before(text, text.index("3"), text.index("3") + 1) is EXACT
    assert hedge_before("He served more than 3 years.", 20, 21).mode == ">"


@pytest.mark.parametrize(
    "text",
    [
        "Do not take more than 4 g a day.",
        "Patients should never take more than 8 tablets a day.",
        "Employees cannot work more than 48 hours a week.",
        "The penalty is not to be less than $500.",
        "Nobody works more than 40 hours.",
    ],
)
def test_a_negation_earlier_in_the_clause_leaves_the_bound_unread(text: str) -> None:
    assert _hedge(text) is EXACT


def test_a_word_that_may_be_a_preposition_is_a_loose_bound() -> None:
    assert _hedge("The loan is repaid over 60 instalments.").loose
    assert _hedge("Shares went up to $45.").loose
    assert not _hedge("Over 12,000 people came.").loose
    assert not _hedge("It operates in over 20 countries.").loose
    assert not _hedge("The festival drew over 12,000 people.").loose
    assert not _hedge("Staff work more than 40 hours.").loose
    assert _hedge("Patients receive doses not exceeding 4 g.").loose
    assert not _hedge("Sales were up to 40% higher.").loose


def test_nearly_is_below() -> None:
    assert not values_match(_figure("Nearly 3,000 people came"), _figure("3,050 people came"))
    assert not left_open(_figure("Almost 50% of voters"), _figure("52% of voters"))
    assert values_match(_figure("Almost 50% of voters"), _figure("49.4% of voters"))


def test_a_bound_written_after_the_figure_and_a_range_are_read() -> None:
    assert _hedge("firms with 50 or more employees") == Hedge(">", "", elsewhere=True)
    assert _hedge("applicants 18 years or older") == Hedge(">", "", elsewhere=True)
    assert _hedge("people aged 65+") == Hedge(">", "", elsewhere=True)
    assert _hedge("people aged 65 and over") == Hedge(">", "", elsewhere=True)
    assert _hedge("drew 50 people and more importantly") is EXACT
    between = [s.figure.hedge.mode for s in extract_slots("between 5,000 and 6,000 people") if s.figure]
    assert between == ["[", "]"]


def test_a_bound_is_found_only_at_its_value_broken_outside_it_and_open_inside() -> None:
    assert values_match(_figure("up to 4 g a day"), _figure("4 g a day"))
    assert not values_match(_figure("Over 12,000 came"), _figure("11,000 came"))
    assert not left_open(_figure("Over 12,000 came"), _figure("11,000 came"))
    assert not values_match(_figure("Over 12,000 came"), _figure("12,500 came"))
    assert left_open(_figure("Over 12,000 came"), _figure("12,500 came"))
    # In a rule another value inside the bound is another rule: open, never found.
    assert left_open(_figure("at least 14 days' notice"), _figure("30 days' notice"))
    assert left_open(_figure("up to 8 tablets"), _figure("4 tablets"))


def test_an_exact_figure_against_a_bound_that_holds_it_is_left_open() -> None:
    claim, window = _figure("12,000 came"), _figure("more than 11,000 came")
    assert not values_match(claim, window)
    assert left_open(claim, window)
    assert not left_open(_figure("10,000 came"), window)  # broken: a conflict
    assert left_open(_figure("4 tablets a day"), _figure("no more than 8 tablets a day"))
    # The bound's own value is the figure said: "0.9 s" answers "can differ by up to 0.9 s".
    assert values_match(_figure("0.9 s"), _figure("can differ by up to 0.9 s"))


def test_a_bound_said_elsewhere_is_broken_by_a_bound_of_its_direction_and_open_otherwise() -> None:
    assert not values_match(_figure("firms with over 250 staff"), _figure("firms with 50 or more staff"))
    assert not left_open(_figure("firms with over 250 staff"), _figure("firms with 50 or more staff"))
    assert not left_open(_figure("firms with 50 or more staff"), _figure("firms with 250 or more staff"))
    assert left_open(_figure("firms with 40 staff"), _figure("firms with 50 or more staff"))
    assert _hedge("The maximum fine is $25,000.") == Hedge("<", "", elsewhere=True)
    assert _hedge("a minimum age of 18") == Hedge(">", "", elsewhere=True)
    # A football cap is no limit, nor is a word far from the figure.
    assert _hedge("Under-21 cap Smith made his Aberdeen debut in 2012 and has scored four times") is EXACT
    assert _hedge("The maximum was reached in May after the board met and then agreed on 12 items") is EXACT


def test_approximations_agree_within_a_twentieth_and_conflict_beyond_a_tenth() -> None:
    assert values_match(_figure("about 5,000 people"), _figure("4,900 people"))
    assert values_match(_figure("5,000 people"), _figure("about 4,800 people"))
    assert left_open(_figure("about 5,000 people"), _figure("4,600 people"))
    assert not values_match(_figure("about 5,000 people"), _figure("4,200 people"))
    assert not left_open(_figure("about 5,000 people"), _figure("4,200 people"))


def test_approximate_percentages_are_read_in_points() -> None:
    assert values_match(_figure("nearly 50% of voters"), _figure("49.2% of voters"))
    assert left_open(_figure("approximately 95% effective"), _figure("93.5% effective"))
    assert not values_match(_figure("about 20% of people"), _figure("about 17% of people"))
    assert not left_open(_figure("about 20% of people"), _figure("about 17% of people"))
    assert not left_open(_figure("approximately 95% effective"), _figure("86% effective"))
    # A small percentage is read relative to its size too: "about 1%" is not 0.2%, nor "about 2%" 2.9%.
    assert not values_match(_figure("about 1% of patients"), _figure("0.2% of patients"))
    assert not left_open(_figure("about 1% of patients"), _figure("0.2% of patients"))
    assert not values_match(_figure("The rate is about 2%."), _figure("The rate is 2.9%."))


def test_a_range_is_found_at_an_end_and_otherwise_open() -> None:
    low = next(s for s in extract_slots("between 5,000 and 6,000 people") if s.figure)
    assert values_match(low, _figure("5,000 people"))
    assert left_open(low, _figure("7,000 people"))


def _modes(text: str) -> list[str]:
    return [s.figure.hedge.mode for s in extract_slots(text) if s.figure]


@pytest.mark.parametrize(
    "text",
    [
        "The plant employs 5,000 to 6,000 workers.",
        "The plant employs from 5,000 to 6,000 workers.",
        "The plant employs 5,000–6,000 workers.",
        "The fee is 2% to 3% of the loan.",
        "Adults aged 18 to 65 may apply.",
        "It has from 500,000 to 1 million users.",
    ],
)
def test_a_span_of_figures_is_a_range_with_a_low_and_a_high_end(text: str) -> None:
    assert _modes(text) == ["[", "]"]


@pytest.mark.parametrize(
    "text",
    [
        "Rates rose from 4% to 5% in 2023.",  # a change: two facts
        "The bank cut rates 5% to 4%.",
        "Revenue grew 4% to $5bn.",  # a percentage and a sum
        "The court ruled 5 to 4.",  # a vote, the larger first
        "The committee voted 3 to 9 against the proposal.",  # a tally, the smaller first
        "The Celtics lost 98 to 104 to the Heat.",
        "The odds of relapse were 1 to 5.",
        "Premiums rose sharply over the past decade from $5,000 to $7,000.",  # the change far back
        "Unemployment edged from 4.1% to 4.3%.",
        "Shares added 3% to 450 pence.",  # a percentage, then a plain figure
    ],
)
def test_a_change_a_vote_or_two_kinds_of_figure_are_no_range(text: str) -> None:
    assert _modes(text) == ["(", ")"]  # two facts, each read exactly


def test_the_low_end_of_a_range_counts_in_the_high_ends_scale() -> None:
    low = next(s for s in extract_slots("The fund holds 5 to 6 million shares.") if s.figure)
    assert low.figure is not None and low.figure.number == 5e6
    assert values_match(low, next(s for s in extract_slots("between 5 million and 7 million") if s.figure))
    low = next(s for s in extract_slots("from 500,000 to 1 million users") if s.figure)
    assert low.figure is not None and low.figure.number == 500_000


def test_the_same_end_of_two_ranges_is_read_exactly_and_a_plain_figure_only_found() -> None:
    low, high = (s for s in extract_slots("The term is 5 to 10 years.") if s.figure)
    other_low, other_high = (s for s in extract_slots("The term is 2 to 10 years.") if s.figure)
    assert not values_match(low, other_low) and not left_open(low, other_low)
    assert values_match(high, other_high)
    assert values_match(low, other_high) is None or left_open(low, other_high)
    assert left_open(low, _figure("The term is 7 years."))
    assert left_open(high, _figure("The term is 12 years."))


@pytest.mark.parametrize(
    ("text", "mode", "words"),
    [
        ("The fund returned <5% last year.", "<", "<"),
        ("Patients aged ≥65 are eligible.", ">", "≥"),
        ("Patients aged >= 65 are eligible.", ">", ">= "),
        ("It enrolled in the region of 3,000 patients.", "~", "in the region of "),
        ("a score greater than or equal to 7", ">", "greater than or equal to "),
    ],
)
def test_more_hedge_words_and_symbols_are_read(text: str, mode: str, words: str) -> None:
    assert (_hedge(text).mode, _hedge(text).words) == (mode, words)


@pytest.mark.parametrize(
    "text",
    [
        "The target moved -> 5 million.",  # an arrow
        "30-day mortality was 2% < 4% in the control arm.",  # a comparison of two figures
        "Events were 12 in arm A > 9 in arm B.",
        "As many as 40 people were injured.",  # in a report, the peak: read as said
        "The mine is north of 60 degrees latitude.",
    ],
)
def test_an_arrow_a_comparison_or_a_peak_hedges_nothing(text: str) -> None:
    last = [s.figure for s in extract_slots(text) if s.figure][-1]
    assert last.hedge is EXACT


def test_a_bound_in_symbols_is_loose_its_fix_would_have_to_write_words() -> None:
    assert _hedge("The result was significant (p<0.01).").loose
    assert _hedge("Patients with BMI≥30 were excluded.").loose


def test_a_quantifier_is_read_with_its_intensifier_and_not_after_not() -> None:
    assert [(s.value, s.text) for s in quantifiers("Very few patients recovered.")] == [
        ("existential", "Very few")
    ]
    assert quantifiers("Not all patients recovered.") == []
    assert quantifiers("Not every branch reopened.") == []
    # "so few ... that", "too few ... to", and "so" joining two clauses: no quantifier to write or copy
    assert quantifiers("So few patients recovered that the trial was stopped.") == []
    # ... but a "so" joining two clauses leaves "few" the quantifier
    assert [s.text for s in quantifiers("Doctors left, so few clinics remained open.")] == ["few"]
    assert quantifiers("Too few patients enrolled to assess efficacy.") == []


def test_many_often_and_typically_are_quantifiers_but_not_where_they_ask_or_compare() -> None:
    assert [(s.value, s.text) for s in quantifiers("Many patients are typically seen often.")] == [
        ("existential", "Many"),
        ("majority", "typically"),
        ("existential", "often"),
    ]
    assert [s.value for s in quantifiers("Anyone can apply.")] == ["universal"]
    for text in [
        "As many as 300 people came.",
        "How often should I take it?",
        "Not many came.",
        "It is many times higher.",
    ]:
        assert quantifiers(text) == [], text


def test_two_bounds_of_one_direction_are_read_exactly_two_categories_not_one_value() -> None:
    assert not values_match(_figure("children under 2"), _figure("children under 6"))
    assert not left_open(_figure("children under 2"), _figure("children under 6"))
    assert values_match(_figure("children under 6"), _figure("children under 6"))


def test_opposite_bounds_conflict_only_when_they_cannot_meet() -> None:
    assert relation(">", 12_000, 1, "<", 10_000, 1) is False
    assert relation(">", 12_000, 1, "<", 20_000, 1) is None


def test_a_figure_in_millions_is_rounded_never_cut() -> None:
    assert values_match(_figure("UKIP spent £3.0m"), _figure("UKIP spent £2,956,737"))
    assert not values_match(_figure("UKIP spent £2.9m"), _figure("UKIP spent £2,956,737"))
    assert not values_match(_figure("Revenue was $3bn"), _figure("Revenue was $3.8bn"))


def test_a_fix_replaces_a_bound_and_writes_the_windows_hedge_cased_by_its_place() -> None:
    assert rewritten(Hedge(">", "Over "), EXACT, "11,000", upper=True) == (5, "11,000")
    assert rewritten(Hedge(">", "over "), EXACT, "USD 11m", upper=False) == (5, "USD 11m")
    assert rewritten(Hedge("~", "about "), EXACT, "3,000", upper=False) == (0, "3,000")
    # An unhedged claim keeps its words: the window's hedge could follow one the claim has unread.
    assert rewritten(EXACT, Hedge(">", "More than "), "12,500", upper=False) == (0, "12,500")
    assert rewritten(Hedge("~", "about "), Hedge("~", "An estimated "), "3,000", upper=False) == (0, "3,000")
    assert rewritten(Hedge(">", "over "), Hedge(">", "more than "), "190", upper=False) == (0, "190")
    assert rewritten(Hedge("-", "Nearly "), EXACT, "3,500", upper=True) == (7, "3,500")
    assert rewritten(Hedge("<", "up to "), Hedge("<", elsewhere=True), "7", upper=False) == (0, "7")
    assert rewritten(Hedge("~", "About "), Hedge(">", "more than "), "9,000", upper=True) == (
        6,
        "More than 9,000",
    )


def test_some_before_a_year_or_a_code_is_a_quantifier() -> None:
    assert [s.value for s in quantifiers("Some 2019 loans were refinanced.")] == ["existential"]
    assert [s.value for s in quantifiers("Some 5G networks failed.")] == ["existential"]
    assert [s.value for s in quantifiers("Some 401(k) plans offer it.")] == ["existential"]
    assert quantifiers("Some 5,000 people came.") == []


def test_units_are_read_as_before() -> None:
    assert canonical_unit("kilometres") == "km"
    assert canonical_unit("per cent") == "%"
    assert canonical_unit("percentage points") == "pp"
    assert canonical_unit("") is None


@pytest.mark.parametrize(
    ("text", "mode"),
    [
        ("Visitors older than 16 may enter.", ">"),
        ("Visitors younger than 16 may enter.", "<"),
        # "and over" before another figure bounds that one, not this
        ("The tunnel runs 2 km and over 2 fault lines.", "="),
        ("People aged 18 and over can vote.", ">"),
    ],
)
def test_a_bound_is_read_from_its_own_words_only(text: str, mode: str) -> None:
    assert extract_slots(text)[0].figure.hedge.mode == mode  # type: ignore[union-attr]

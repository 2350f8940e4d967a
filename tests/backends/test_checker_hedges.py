"""The rule checker on hedged figures ("over 12,000", "about 5,000") and weaker quantifiers."""

from __future__ import annotations

import pytest

from tests.backends.test_checker import _apply, _judge
from workers.messages import Judgement


def test_a_bound_the_window_meets_is_neither_found_nor_corrected() -> None:
    result = _judge(
        "Over 12,000 people attended the festival in 2019.", "The festival drew 12,500 people in 2019."
    )
    assert result.label is Judgement.INSUFFICIENT
    assert result.fixes == ()


def test_a_broken_bound_is_fixed_with_the_windows_figure_never_over_it() -> None:
    claim = "Over 12,000 people attended the festival in 2019."
    result = _judge(claim, "The festival drew 11,000 people in 2019.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "11,000 people attended the festival in 2019."
    assert "Over 12,000 in claim, 11,000 in evidence" in result.reason
    just = "Just over 12,000 people attended the festival in 2019."
    assert _apply(just, _judge(just, "The festival drew 11,000 people in 2019.")).startswith("11,000 people")


def test_a_figure_the_windows_bound_leaves_open_is_not_found_and_not_fixed() -> None:
    result = _judge(
        "The festival drew 13,000 people in 2019.", "The festival drew more than 12,500 people in 2019."
    )
    assert result.label is Judgement.INSUFFICIENT
    assert result.fixes == ()


def test_a_figure_the_windows_bound_excludes_takes_the_bare_value_not_a_second_hedge() -> None:
    claim = "The festival drew 10,000 people in 2019."
    result = _judge(claim, "The festival drew more than 12,500 people in 2019.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The festival drew 12,500 people in 2019."
    for claim, window, fixed in [
        ("In all, 300 people were evacuated.", "More than 400 people were evacuated.", "In all, 400"),
        ("The penalty is limited to $1,000.", "The penalty is up to $2,500.", "limited to $2,500"),
        (
            "The fund was launched over 10 years ago.",
            "It was launched more than 15 years ago.",
            "over 15 years",
        ),
    ]:
        assert fixed in _apply(claim, _judge(claim, window)), claim


def test_a_bound_the_window_words_otherwise_keeps_the_claims_words() -> None:
    for claim, window, fixed in [
        (
            "The loan term is up to 5 years.",
            "The maximum loan term is 7 years.",
            "The loan term is up to 7 years.",
        ),
        (
            "Applicants must be at least 21.",
            "The minimum age for applicants is 18.",
            "Applicants must be at least 18.",
        ),
        ("The limit is not above 5%.", "The limit is 3%.", "The limit is not above 3%."),
    ]:
        assert _apply(claim, _judge(claim, window)) == fixed


def test_a_negated_bound_is_read_the_right_way_round_and_never_written_reversed() -> None:
    for claim, window in [
        ("Adults can take 4 tablets a day.", "Adults should take no more than 8 tablets a day."),
        ("Tenants must give 60 days' notice.", "Tenants must give not less than 30 days' notice."),
        ("The daily dose is 2 g.", "The daily dose should be not exceeding 4 g."),
    ]:
        result = _judge(claim, window)
        assert result.label is not Judgement.CONTRADICT, claim
        assert result.fixes == (), claim


def test_a_bound_in_a_rule_is_not_met_by_another_value() -> None:
    result = _judge("Adults may take up to 8 tablets in 24 hours.", "Adults may take 4 tablets in 24 hours.")
    assert result.label is not Judgement.SUPPORT
    assert result.fixes == ()


def test_a_bound_stated_after_the_figure_is_fixed_only_by_its_number() -> None:
    claim = "The law applies to firms with over 250 employees."
    result = _judge(claim, "The law applies to firms with 50 or more employees.")
    assert _apply(claim, result) == "The law applies to firms with over 50 employees."
    claim = "Applicants must be over 21."
    assert _judge(claim, "Applicants must be 18 or older, or 16 with consent.").fixes in (
        (),
        _judge(claim, "x").fixes,
    )


def test_a_range_is_never_fixed_into_a_garble() -> None:
    result = _judge("Between 5,000 and 6,000 people attended.", "More than 7,000 people attended.")
    assert result.fixes == ()


def test_a_hedged_figure_is_paired_by_its_words_not_by_the_value_it_meets() -> None:
    claim = "Over 50 people were injured in the blast."
    result = _judge(claim, "The blast killed 60 people and injured 20.")
    assert result.label is not Judgement.SUPPORT
    if result.fixes:
        assert _apply(claim, result) == "20 people were injured in the blast."


def test_a_phrasal_over_is_no_bound() -> None:
    claim = "The firm took over 2 rivals in 2021."
    result = _judge(claim, "The firm took over 3 rivals in 2021.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The firm took over 3 rivals in 2021."


def test_a_bound_after_a_frame_is_fixed_on_the_answer_as_written() -> None:
    claim = "According to the document, over 12,000 people attended the festival in 2019."
    result = _judge(claim, "The festival drew 11,000 people in 2019.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "According to the document, 11,000 people attended the festival in 2019."


def test_an_approximation_near_the_windows_figure_is_supported() -> None:
    result = _judge(
        "About 5,000 people attended the festival in 2019.", "The festival drew 4,900 people in 2019."
    )
    assert result.label is Judgement.SUPPORT


def test_an_approximation_far_from_the_windows_figure_keeps_its_hedge_when_fixed() -> None:
    claim = "About 5,000 people attended the festival in 2019."
    result = _judge(claim, "The festival drew 3,000 people in 2019.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "About 3,000 people attended the festival in 2019."


def test_a_duration_after_over_is_a_value_not_a_bound() -> None:
    claim = "Revenue grew 20% over 3 years."
    result = _judge(claim, "Revenue grew 20% over 2 years, the company said.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Revenue grew 20% over 2 years."


def test_a_weaker_quantifier_is_not_found_as_stated_and_never_made_the_stronger_one() -> None:
    for claim, window in [
        ("Most patients recovered within a week.", "All patients recovered within a week of treatment."),
        ("Some shareholders opposed the deal.", "All shareholders supported the deal."),
        ("A few patients recovered within a week.", "All patients recovered within a week."),
    ]:
        result = _judge(claim, window)
        assert result.label is Judgement.INSUFFICIENT, claim
        assert result.fixes == (), claim
        assert "weaker" in result.reason


def test_almost_all_is_most() -> None:
    result = _judge("Almost all patients recovered within a week.", "Most patients recovered within a week.")
    assert result.fixes == ()


def test_a_stronger_quantifier_than_the_windows_is_corrected() -> None:
    claim = "All patients recovered within a week."
    result = _judge(claim, "Most patients recovered within a week of treatment.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Most patients recovered within a week."


def test_few_is_not_implied_by_most() -> None:
    result = _judge(
        "Few patients recovered within a week.", "Most patients recovered within a week of treatment."
    )
    assert result.label is Judgement.CONTRADICT


def test_a_negation_before_the_windows_bound_is_never_written_away() -> None:
    for claim, window in [
        ("Adults can take up to 4 g a day.", "Do not take more than 4 g a day."),
        ("Patients can take up to 8 tablets a day.", "Patients should never take more than 8 tablets a day."),
        ("The penalty is at least $500.", "The penalty is not to be less than $500."),
        ("Investors can hold at least 10% of shares.", "Investors cannot hold less than 10% of shares."),
        ("Tenants must give 45 days' notice.", "Tenants must not give fewer than 30 days' notice."),
    ]:
        result = _judge(claim, window)
        for fix in result.fixes:
            assert "than" not in fix.right, (claim, fix)


def test_a_loose_word_is_never_dropped_from_a_fix() -> None:
    for claim, window in [
        ("Shares went up to $45.", "Shares rose to $50."),
        ("The loan is repaid over 60 instalments.", "The loan is repaid in 48 instalments."),
    ]:
        result = _judge(claim, window)
        assert result.fixes == (), claim


def test_a_fix_after_a_frame_is_not_capitalised() -> None:
    claim = "According to the document, about 5,000 people attended the festival."
    result = _judge(claim, "More than 6,000 people attended the festival.")
    fixed = "According to the document, more than 6,000 people attended the festival."
    assert _apply(claim, result) == fixed


def test_an_unread_hedge_gains_no_second_one() -> None:
    claim = "The fund was launched over 10 years ago."
    result = _judge(claim, "The fund was launched about 15 years ago.")
    for fix in result.fixes:
        assert not fix.right.startswith("about"), fix


def test_nearly_is_broken_by_a_figure_above_it() -> None:
    claim = "Nearly 3,000 people attended the festival."
    result = _judge(claim, "The festival drew 3,500 people.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "3,500 people attended the festival."


def test_almost_all_is_written_whole() -> None:
    claim = "All patients recovered within a week."
    result = _judge(claim, "Almost all patients recovered within a week.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Almost all patients recovered within a week."


# ---- ranges, symbols and intensified quantifiers (tenth session; the reviewer's probes) ----------


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The plant employs from 5,000 to 6,000 workers.", "The plant employs 5,500 workers."),
        ("The plant employs 5,000 to 6,000 workers.", "The plant employs 7,500 workers."),
        ("The fee is 2% to 3% of the loan.", "The fee is 1% of the loan."),
        ("The hospital has 5 to 6 hundred beds.", "The hospital has 900 beds."),
    ],
)
def test_a_range_against_a_single_figure_is_never_fixed_end_by_end(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.fixes == (), _apply(claim, result)


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        (
            "The sentence ranges from 5 to 10 years.",
            "The sentence ranges from 2 to 4 years.",
            "from 2 to 4 years",
        ),
        (
            "The fund holds 5 to 6 million shares.",
            "The fund holds between 4 million and 6 million shares.",
            "holds 4 to 6 million shares",
        ),
        # a change is two figures, corrected as before
        ("Rates rose from 4% to 5% in 2023.", "Rates rose from 4% to 6% in 2023.", "from 4% to 6%"),
        ("Unemployment edged from 4.1% to 4.3%.", "Unemployment edged up from 4.0% to 4.3%.", "from 4.0% to"),
        (
            "The committee voted 3 to 9 against the proposal.",
            "The committee rejected the proposal with 9 votes against and 4 in favour.",
            "voted 4 to 9",  # 3 for, 9 against: the 4 in favour is the fix
        ),
    ],
)
def test_the_same_ends_of_two_ranges_and_the_figures_of_a_change_are_fixed(
    claim: str, window: str, fixed: str
) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert fixed in _apply(claim, result)


@pytest.mark.parametrize(
    ("claim", "window", "kept"),
    [
        ("The result was significant (p<0.01).", "The result was significant (p = 0.03).", "(p<0.01)"),
        ("Patients with BMI≥30 were excluded.", "Patients with a BMI of 27 were excluded.", "BMI≥30"),
    ],
)
def test_a_bound_in_symbols_is_never_fixed_into_a_bare_figure(claim: str, window: str, kept: str) -> None:
    result = _judge(claim, window)
    assert result.fixes == () and kept in _apply(claim, result)


def test_a_comparison_in_symbols_keeps_its_symbol() -> None:
    claim = "30-day mortality was 2% < 4% in the control arm."
    result = _judge(claim, "30-day mortality was 2% versus 5% in the control arm.")
    assert _apply(claim, result) == "30-day mortality was 2% < 5% in the control arm."


def test_few_after_a_so_that_joins_clauses_is_fixed_in_lower_case() -> None:
    claim = "Doctors left, so few clinics remained open."
    result = _judge(claim, "Most clinics remained open.")
    assert _apply(claim, result) == "Doctors left, so most clinics remained open."


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        ("Very few patients recovered after treatment.", "Most patients recovered after treatment.", None),
        ("So few patients recovered that the trial was stopped.", "Most patients recovered.", ()),
        ("Not all patients recovered after treatment.", "Most patients recovered after treatment.", ()),
        # "not ... all" is "not all": true of "most", so neither its "not" nor its "all" is fixed
        ("The drug does not work in all patients.", "The drug works in most patients.", ()),
        ("The drug doesn't work in all patients.", "The drug works in most patients.", ()),
        (
            "The court has never held that all such clauses are void.",
            "The court has held that most such clauses are void.",
            (),
        ),
    ],
)
def test_an_intensified_or_negated_quantifier_is_written_whole_or_not_at_all(
    claim: str, window: str, fixed: tuple[()] | None
) -> None:
    result = _judge(claim, window)
    if fixed is None:
        assert _apply(claim, result) == "Most patients recovered after treatment."
    else:
        assert result.fixes == fixed, _apply(claim, result)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # one end found at the other end of the window's range, the other fixed: "12 to 12"
        ("Participants were aged 12 to 17.", "Participants were aged 6 to 12."),
        ("The committee has 7 to 9 members.", "The committee has between 9 and 11 members."),
        ("The dose is 20 to 40 mg daily.", "The dose is 10 to 20 mg daily."),
    ],
)
def test_a_fix_never_leaves_a_range_out_of_order(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.fixes == (), _apply(claim, result)


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        (
            "The fund holds between 5 and 6 million shares.",
            "The fund holds between 4 million and 6 million shares.",
            "between 4 and 6 million",
        ),
        ("Tickets cost £5–£10.", "Tickets cost £5–£15.", "£5–£15"),
        (
            "The recommended dose is 2 mg to 4 mg daily.",
            "The recommended dose is 2 to 6 mg daily.",
            "2 mg to 6 mg",
        ),
        # an adjective far from the figures is no change: the range is read on both sides
        ("The updated guideline recommends 2 to 4 mg.", "The guideline recommends 2 to 6 mg.", "2 to 6 mg"),
        (
            "The company employs 5,000 to 7,000 people.",
            "Sales increased 10% in 2022, and the company employed 5,000 to 6,000 people.",
            "5,000 to 6,000",
        ),
    ],
)
def test_ranges_written_otherwise_are_fixed_end_by_end(claim: str, window: str, fixed: str) -> None:
    assert fixed in _apply(claim, _judge(claim, window))


def test_an_adverb_quantifier_is_never_a_determiners_fix() -> None:
    claim = "The drug is not always effective, and all patients need monitoring."
    result = _judge(claim, "The drug is usually effective, and most patients need monitoring.")
    assert "usually patients" not in _apply(claim, result)


def test_both_ends_of_a_range_are_fixed_together() -> None:
    claim = "The board has 4–5 members."
    assert _apply(claim, _judge(claim, "The board has 3–6 members.")) == "The board has 3–6 members."
    claim = "The sentence ranges from 5 to 10 years."
    assert _apply(claim, _judge(claim, "The sentence ranges from 5 to 12 years.")).endswith("5 to 12 years.")


def test_every_is_never_made_a_quantifier_of_another_number() -> None:
    for claim, window in [
        (
            "The test is accurate, and every result is reviewed.",
            "The test is accurate, and most results are reviewed.",
        ),
        ("Most results are reviewed.", "Every result is reviewed."),
    ]:
        result = _judge(claim, window)
        assert result.fixes == () and result.label is not Judgement.SUPPORT, _apply(claim, result)


@pytest.mark.parametrize(
    ("claim", "window", "said"),
    [
        ("Patients over 65 should take 10 mg daily.", "Adults under 65 should take 10 mg daily.", "over 65"),
        ("People aged 18 and over can vote.", "People aged 18 and under can vote.", "over 18"),
        ("The offer applies to orders over $100.", "The offer applies to orders under $100.", "over $100"),
        ("Applicants must be under 21.", "Applicants must be at least 21.", "under 21"),
        ("Visitors younger than 16 may enter.", "Visitors older than 16 may enter.", "under 16"),
        (
            "Vaccination is advised for adults under 65.",
            "Vaccination is advised for adults aged 65 and older.",
            "under 65",
        ),
        (
            "Orders over $100 pay a $5 shipping fee.",
            "Orders under $100 pay a $5 shipping fee. Orders over $100 ship free.",
            "over $100",
        ),
    ],
)
def test_a_bound_the_window_states_the_other_way_round_is_a_conflict_never_fixed(
    claim: str, window: str, said: str
) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert f"bound: {said}" in result.reason
    assert result.fixes == ()


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the sentence states the claim's bound too: a movement across the value, or both groups
        (
            "Inflation rose above 7% in March.",
            "Inflation had been below 7% for a year before it rose above 7% in March.",
        ),
        ("Shares closed above $50.", "Shares opened below $50 but closed above $50."),
        ("People under 18 cannot vote.", "People aged 18 and over can vote; people under 18 cannot."),
        # the window's bound is inside an exception, names the claim's group by its side, states other
        # figures, or denies what the claim denies not
        (
            "The vaccine is recommended for children over 5.",
            "The vaccine is recommended for everyone except children under 5.",
        ),
        (
            "Patients over 65 should take 5 mg.",
            "Adults under 65 should take 10 mg daily. Older patients should take 5 mg.",
        ),
        ("Patients over 65 take 5 mg.", "Adults up to 65 take 10 mg. For older patients the dose is 5 mg."),
        (
            "Travellers younger than 70 do not need a medical certificate.",
            "Travellers older than 70 need a medical certificate. Travellers younger than 70 do not.",
        ),
        (
            "Students under 16 pay £5.",
            "Adults pay £12. Students over 16 pay £8, and younger students pay £5.",
        ),
        # a bound the window writes as "no more than" is no denial of the claim's
        (
            "Carers earning more than £151 a week cannot get the allowance.",
            "The allowance is paid to carers who earn no more than £151 a week.",
        ),
        # the window's sentence says more of its group than the claim says
        ("Drivers must be at least 18.", "Drivers under 18 must be accompanied by an adult."),
        # "and over" before another figure is that figure's
        ("The tunnel runs under 2 rivers.", "The tunnel runs under 2 rivers and over 2 fault lines."),
    ],
)
def test_a_bound_the_sentence_also_states_is_no_conflict(claim: str, window: str) -> None:
    assert "bound:" not in _judge(claim, window).reason


def test_an_opposite_bound_a_value_conflict_fixes_is_still_fixed() -> None:
    claim = "Turnout was over 60% in 2020."
    result = _judge(claim, "Turnout was under 60% in 2020.")
    assert result.label is Judgement.CONTRADICT
    assert "bound:" not in result.reason
    assert _apply(claim, result) == "Turnout was under 60% in 2020."


def test_the_windows_many_often_and_typically_are_quantifiers_too() -> None:
    claim = "Requests are always approved unless the role needs on-site presence."
    result = _judge(claim, "Requests are typically approved unless the role requires on-site presence.")
    assert _apply(claim, result) == "Requests are typically approved unless the role needs on-site presence."
    claim = "Hot flushes happen to all women during menopause."
    result = _judge(claim, "Many women experience hot flushes during menopause.")
    assert _apply(claim, result) == "Hot flushes happen to many women during menopause."
    # the same grade in other words is no conflict
    same = _judge("Requests are usually approved.", "Requests are typically approved.")
    assert same.label is not Judgement.CONTRADICT


def test_anyone_against_some_is_flagged_never_written_over() -> None:
    result = _judge(
        "Anyone with kidney disease will need a lower dose of gabapentin.",
        "Some people with kidney disease may need a lower dose of gabapentin.",
    )
    assert result.label is Judgement.CONTRADICT
    assert result.fixes == ()
    assert "pronoun" in result.reason


def test_a_group_said_whole_is_flagged_never_fixed() -> None:
    result = _judge(
        "Our fixed-rate mortgages come with a free standard valuation.",
        "Some of our fixed-rate mortgages come with a free standard valuation.",
    )
    assert result.label is Judgement.CONTRADICT
    assert result.fixes == ()
    assert "group: evidence says 'Some of our'" in result.reason


def test_where_something_went_up_to_is_no_bound_the_other_way_round() -> None:
    result = _judge(
        "The minimum age goes up to 57 from 6 April 2028.", "From 6 April 2028, the minimum age rises to 57."
    )
    assert result.label is not Judgement.CONTRADICT
    bound = _judge("Adults can take up to 4 g a day.", "Adults must take at least 4 g a day.")
    assert bound.label is Judgement.CONTRADICT and "bound" in bound.reason

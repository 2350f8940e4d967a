"""The rule checker on hedged figures ("over 12,000", "about 5,000") and weaker quantifiers."""

from __future__ import annotations

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
        ("As many as 300 people were evacuated.", "More than 400 people were evacuated.", "As many as 400"),
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

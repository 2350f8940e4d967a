from __future__ import annotations

import pytest

from workers.stages.align import Pair, Parsed, covered, is_comparative, pair_slots


def _pair(claim: str, window: str, name: str) -> Pair:
    return next(p for p in pair_slots(Parsed.of(claim), Parsed.of(window)) if p.slot.text == name)


def test_a_name_pairs_with_the_one_after_the_same_word() -> None:
    evidence = (
        "12.3 Any dispute arising under this Agreement shall be resolved by arbitration in New York City."
    )
    pair = _pair("Disputes are resolved by arbitration in London.", evidence, "London")
    assert pair.other is not None and pair.other.text == "New York City"
    assert pair.swappable


def test_the_windows_subject_and_the_claims_own_names_are_no_counterparts() -> None:
    pair = _pair(
        "The company is headquartered in Rotterdam.", "Acme Corp is headquartered in Amsterdam.", "Rotterdam"
    )
    assert pair.other is not None and pair.other.text == "Amsterdam"
    named = _pair("Acme acquired Globex in Boston.", "The deal was signed in Globex.", "Boston")
    assert named.other is None


def test_a_name_after_another_word_pairs_but_is_not_swappable() -> None:
    pair = _pair("Acme is based in Mumbai.", "Acme's main plant lies near Delhi.", "Mumbai")
    assert pair.other is not None and pair.other.text == "Delhi"
    assert not pair.swappable


def test_the_claims_subject_is_never_swappable() -> None:
    pair = _pair("Globex Corp makes engines.", "The firm said Initech Ltd makes engines.", "Globex Corp")
    assert not pair.swappable


def test_figures_are_swappable_only_in_the_same_unit() -> None:
    assert _pair("The span is 540 km.", "The span is 547 km.", "540 km").swappable
    assert not _pair("The span is 540 km.", "The span is 2.4-metre.", "540 km").swappable


def test_anchor_and_subject() -> None:
    read = Parsed.of("Acme Corp moved to the Hague, then to Oslo.")
    acme, hague, oslo = (s for s in read.values)
    assert (read.anchor(acme), read.anchor(hague), read.anchor(oslo)) == (None, "to", "to")
    assert read.in_subject(acme) and not read.in_subject(hague)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Arthur's Magazine was started first.", True),
        ("Revenue was higher than in 2022.", True),
        ("It is the largest bank in Norway.", True),
        ("Revenue grew 12% over the last five years.", False),
        ("First for Women is published by Bauer Media Group.", False),
        ("The company was founded in 1991.", False),
    ],
)
def test_is_comparative(text: str, expected: bool) -> None:
    assert is_comparative(text) is expected


def test_covered() -> None:
    assert covered(["head", "office"], ["headquarter"]) == 0.5
    assert covered([], ["x"]) == 0.0


def test_a_figure_hangs_on_the_name_of_its_own_part_of_a_joined_clause() -> None:
    window = Parsed.of("UKIP, which won May's election, spent £2,956,737, while the Tories spent £2,980,815.")
    figures = [s for s in window.values if s.text.startswith("£")]
    assert [k.text for k in map(window.key_near, figures) if k is not None] == ["May", "Tories"]


def test_the_same_word_before_a_figure_pairs_it() -> None:
    window = (
        "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier."
    )
    [_, pair] = pair_slots(Parsed.of("In fiscal 2023 the firm had revenue of $4.8 bn."), Parsed.of(window))
    assert pair.other is not None and pair.other.text == "$4.2 billion"
    assert pair.margin >= 0.5  # "of" before both, "from" before the other


def test_a_date_pairs_with_the_one_its_own_verb_governs() -> None:
    window = Parsed.of("She served as Governor from 1991 to 1995 and was defeated for re-election in 1994.")
    [pair] = pair_slots(Parsed.of("She was defeated for re-election in 1998."), window)
    assert pair.other is not None and pair.other.text == "1994" and pair.swappable


def test_a_figure_is_tied_only_through_a_name_the_window_states() -> None:
    # "Conservatives" is not in the window: pairing it with "May" binds no figure to May's.
    window = Parsed.of("UKIP, which won May's election, spent £2,956,737, while the Tories spent £2,980,815.")
    pairs = pair_slots(Parsed.of("the Conservatives spent £2,980,815"), window)
    assert not any(p.tied for p in pairs)


def test_a_word_of_movement_in_a_compound_is_what_the_text_is_about() -> None:
    read = Parsed.of("The teams will meet again in a double-header as costs doubled.")
    assert "header" in read.context() and read.context().count("doubl") == 1


def test_a_firms_first_name_is_never_swapped() -> None:
    claim = Parsed.of("The company was represented by Cravath, Swaine & Moore.")
    window = Parsed.of("The company was represented by Sullivan & Cromwell.")
    assert not any(p.swappable for p in pair_slots(claim, window))


def test_a_full_stop_of_an_abbreviation_before_a_lower_case_word_ends_no_clause() -> None:
    def clauses(text: str) -> list[str]:
        return [text[a:b] for a, b in Parsed.of(text).segments]

    assert clauses("Acme, the largest U.S. bank by deposits, grew. Acme Inc. said so.") == [
        "Acme, the largest U.S. bank by deposits, grew.",
        "Acme Inc. said so.",
    ]
    assert clauses("Acme rose 3% in 2020. eBay fell 5%.") == ["Acme rose 3% in 2020.", "eBay fell 5%."]
    assert clauses("Dr. Lee said so. Sales fell.") == ["Dr. Lee said so.", "Sales fell."]


def test_a_count_of_the_same_thing_pairs_ahead_of_a_figure_bound_only_by_a_name() -> None:
    # "Smith, 21," is his age: the claim's "5 goals" is the window's "five goals".
    window = (
        "The Dons loaned Smith, 21, to United in July and he has five goals this season. Scotland "
        "Under-21 cap Smith made his Aberdeen debut in 2012 and has scored four times in 89 appearances."
    )
    pair = _pair("Cammy Smith has scored 5 goals this season and 4 in 89 appearances.", window, "5")
    assert pair.other is not None and pair.other.text == "five" and pair.equal


def test_a_pair_knows_when_the_window_also_states_the_claims_own_value() -> None:
    window = (
        "During the 1980 presidential campaign, Ronald Reagan promised to nominate the first woman to "
        "the U.S. Supreme Court. He made good on that promise in 1981, when he announced his nominee."
    )
    claim = "O'Connor was appointed to the U.S. Supreme Court by President Ronald Reagan in 1981."
    pair = _pair(claim, window, "1981")
    assert pair.other is not None and pair.other.text == "1980"  # more words around it
    assert pair.equal_rival and not pair.tied


def test_an_acronym_is_not_swapped_for_a_part_of_what_it_stands_for() -> None:
    window = "Serious reactions that occur in the Union and in third countries are reported within 15 days."
    pair = _pair("Serious reactions in the EU are reported within 15 days.", window, "EU")
    assert not (pair.other is not None and pair.other.text == "Union" and pair.swappable)

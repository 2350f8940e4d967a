from __future__ import annotations

from collections.abc import Sequence

import pytest

from workers.backends.checker import OfflineChecker
from workers.backends.negation import negation_fix as _negation_fix
from workers.messages import Claim, Evidence, Judgement, SlotFix
from workers.protocols import CheckResult, VerdictComponent
from workers.stages.slots import SlotKind, extract_slots

CHECKER = OfflineChecker()


def _claim(text: str, cid: str = "c0") -> Claim:
    return Claim(id=cid, text=text, start=0, end=len(text))


def _window(text: str, *, doc: str = "d1", start: int = 120, score: float = 0.5) -> Evidence:
    return Evidence(doc_id=doc, start=start, end=start + len(text), text=text, score=score)


def _judge(claim: str, *windows: str) -> CheckResult:
    return CHECKER.judge(_claim(claim), [_window(w) for w in windows])


def _apply(claim: str, result: CheckResult) -> str:
    return _apply_all(claim, result.fixes)


def _apply_all(claim: str, fixes: Sequence[SlotFix]) -> str:
    for fix in sorted(fixes, key=lambda f: -f.start):
        assert claim[fix.start : fix.end] == fix.wrong
        claim = claim[: fix.start] + fix.right + claim[fix.end :]
    return claim


def test_is_a_verdict_component() -> None:
    assert isinstance(CHECKER, VerdictComponent)
    assert CHECKER.name == "offline-rules"


def test_swapped_figure_is_a_contradiction_with_a_fix_in_the_claims_style() -> None:
    claim = "Revenue was $4.2 bn in 2023."
    result = _judge(claim, "Revenue was $3.9 billion in 2023.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Revenue was $3.9 bn in 2023."
    assert [f.evidence_doc_id for f in result.fixes] == ["d1"]
    assert "$4.2 bn" in result.reason and "$3.9 billion" in result.reason
    assert "[doc d1 120-153]" in result.reason
    assert result.evidence is not None and result.evidence.doc_id == "d1"
    assert 0.0 <= result.confidence <= 1.0


def test_a_price_against_tokenized_text_is_a_conflict_with_the_price_it_gives() -> None:
    claim = "Season tickets will start at £531."
    result = _judge(claim, "west ham have revealed season tickets will cost as little as £ 289 .")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Season tickets will start at £289."


def test_a_nationality_said_in_another_order_is_a_conflict_with_the_windows() -> None:
    claim = "French Montana is a Hungarian rapper."
    result = _judge(claim, "Excuse My French is the debut studio album by American rapper French Montana.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "French Montana is a American rapper."  # correction mends the article
    assert "nationality before 'rapper'" in result.reason


def test_scale_equivalence_is_support() -> None:
    result = _judge("Revenue was 4.2 bn in 2023.", "In 2023 revenue was 4,200,000,000 dollars.")
    assert result.label is Judgement.SUPPORT
    assert not result.fixes
    assert "match" in result.reason


def test_wrong_entity_is_a_contradiction_with_a_fix() -> None:
    claim = "Acme is headquartered in Mumbai."
    result = _judge(claim, "Acme's head office is in Delhi, close to the airport.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Acme is headquartered in Delhi."


def test_a_name_the_evidence_spells_out_is_found() -> None:
    result = _judge("The board of Acme Corp met in Delhi.", "Acme Corp's board met in Delhi on Monday.")
    assert result.label is Judgement.SUPPORT


def test_claim_absent_from_the_documents_is_not_supported() -> None:
    result = _judge("The Great Wall is visible from the Moon.", "Quarterly revenue was $3.9 billion in 2023.")
    assert result.label in (Judgement.NEUTRAL, Judgement.INSUFFICIENT)
    assert not result.fixes


def test_no_candidates_is_insufficient() -> None:
    result = CHECKER.judge(_claim("Revenue was $4.2 bn."), [])
    assert result.label is Judgement.INSUFFICIENT
    assert result.evidence is None


def test_a_claim_slot_absent_from_the_evidence_is_insufficient() -> None:
    result = _judge("The company was founded in 1991 in Boston.", "The company was founded in Boston.")
    assert result.label is Judgement.INSUFFICIENT
    assert "1991" in result.reason


def test_negation_flip_is_a_contradiction() -> None:
    claim = "The drug was not approved by the FDA in 2019."
    result = _judge(claim, "The drug was approved by the FDA in 2019.")
    assert result.label is Judgement.CONTRADICT
    assert "negation" in result.reason
    assert _apply(claim, result) == "The drug was approved by the FDA in 2019."
    flipped = _judge(
        "The drug was approved by the FDA in 2019.", "The drug wasn't approved by the FDA in 2019."
    )
    assert flipped.label is Judgement.CONTRADICT


def test_a_negation_elsewhere_in_the_window_is_no_flip() -> None:
    result = _judge(
        "The drug was approved by the FDA in 2019.",
        "The drug was approved by the FDA in 2019, with no side effects reported.",
    )
    assert result.label is Judgement.SUPPORT


def test_quantifier_flip_is_a_contradiction() -> None:
    claim = "All employees received a bonus in 2022."
    result = _judge(claim, "Some employees received a bonus in 2022.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Some employees received a bonus in 2022."


def test_a_year_in_another_role_does_not_support() -> None:
    claim = "The company was founded in 1991."
    result = _judge(claim, "The company was founded in 1994. It moved to Boston in 1991.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The company was founded in 1994."


def test_figures_bind_to_their_year() -> None:
    table = "Revenue was $4.2 billion in 2023 and $3.9 billion in 2022."
    assert _judge("Revenue was $4.2 bn in 2023.", table).label is Judgement.SUPPORT
    wrong = _judge("Revenue was $3.9 bn in 2023.", table)
    assert wrong.label is Judgement.CONTRADICT
    assert _apply("Revenue was $3.9 bn in 2023.", wrong) == "Revenue was $4.2 bn in 2023."


def test_counts_of_different_things_are_not_compared() -> None:
    result = _judge("The study enrolled 1,200 patients.", "The trial enrolled 1200 patients across 40 sites.")
    assert result.label is Judgement.SUPPORT


def test_the_supporting_window_wins_and_is_cited() -> None:
    claim = _claim("Revenue rose 12% in 2023.")
    windows = [
        _window("The weather in 2023 was mild.", doc="d9", score=0.9),
        _window("Revenue increased by 12 percent in 2023.", doc="d2", start=10, score=0.4),
    ]
    result = CHECKER.judge(claim, windows)
    assert result.label is Judgement.SUPPORT
    assert result.evidence == windows[1]
    assert "[doc d2 10-50]" in result.reason


def test_similar_words_alone_never_support() -> None:
    result = _judge("Revenue was $4.2 bn in 2023.", "Revenue was reported in 2023.")
    assert result.label is not Judgement.SUPPORT


def test_judge_many_keeps_order() -> None:
    items = [
        (_claim("Revenue was $4.2 bn in 2023.", "a"), [_window("Revenue was $3.9 billion in 2023.")]),
        (_claim("Revenue was $4.2 bn in 2023.", "b"), []),
        (_claim("Revenue was $4.2 bn in 2023.", "c"), [_window("Revenue was $4.2 billion in 2023.")]),
    ]
    labels = [r.label for r in CHECKER.judge_many(items)]
    assert labels == [Judgement.CONTRADICT, Judgement.INSUFFICIENT, Judgement.SUPPORT]


# ---- regressions: a wrong REPLACE is worse than a flag ----------------------------------------


def _judge_as(claim: Claim, *windows: str) -> CheckResult:
    return CHECKER.judge(claim, [_window(w, doc=f"k{i}") for i, w in enumerate(windows)])


NORTHWIND = "Northwind Traders is headquartered in Amsterdam and operates in 14 countries."


def test_the_evidence_sentences_subject_is_never_the_replacement() -> None:
    claim = "The company is headquartered in Rotterdam."
    result = _judge(claim, NORTHWIND)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The company is headquartered in Amsterdam."


def test_a_name_is_replaced_by_the_one_after_the_same_word() -> None:
    claim = "Disputes are resolved by arbitration in London."
    evidence = (
        "12.3 Any dispute arising under this Agreement shall be resolved by binding arbitration "
        "in New York City."
    )
    result = _judge(claim, evidence)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Disputes are resolved by arbitration in New York City."


def test_a_comparison_is_never_corrected_by_a_swap() -> None:
    windows = (
        "Arthur's Magazine (1844–1846) was an American literary periodical published in Philadelphia.",
        "First for Women is a woman's magazine published by Bauer Media Group in the USA.",
    )
    result = _judge_as(_claim("Arthur's Magazine was started first."), *windows)
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes
    assert "comparison" in result.reason
    bound = _judge("Revenue was more than $4 bn in 2023.", "Revenue was $4.2 billion in 2023.")
    assert bound.label is not Judgement.CONTRADICT and not bound.fixes


def test_the_claims_own_subject_is_never_swapped() -> None:
    # Another magazine published by the same group does not make this claim's subject wrong.
    result = _judge(
        "Arthur's Magazine is published by Bauer Media Group.",
        "First for Women is a woman's magazine published by Bauer Media Group in the USA.",
    )
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes


def test_a_name_some_window_spells_out_is_never_swapped() -> None:
    windows = (
        "Acme's head office is in Delhi, close to the airport.",
        "Acme opened its Mumbai office in 2020.",
    )
    result = _judge_as(_claim("Acme is headquartered in Mumbai."), *windows)
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes


def test_figures_in_different_units_are_never_compared() -> None:
    hubble = (
        "The Hubble Space Telescope was launched into low Earth orbit in 1990 aboard the Space Shuttle "
        "Discovery. It remains in operation and has a 2.4-metre mirror."
    )
    cases = [
        ("It orbits Earth at an altitude of about 540 km.", hubble),
        ("The telescope orbits at 540 km.", "The telescope has a mirror of 2.4 and orbits low."),
        ("Operating margin improved to 14% in 2023.", "Operating margin improved to $14 million in 2023."),
        ("The usual dose is 500 mg.", "The usual dose is given every 8 hours."),
    ]
    for claim, evidence in cases:
        result = _judge(claim, evidence)
        assert result.label is not Judgement.CONTRADICT, claim
        assert not result.fixes, claim


def test_figures_in_the_same_unit_are_still_corrected() -> None:
    claim = "The bridge is 540 km long."
    result = _judge(claim, "The bridge is 547 km long.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The bridge is 547 km long."


def test_the_standalone_text_is_checked_and_fixes_land_on_the_original() -> None:
    text = "It orbits Earth at an altitude of 540 km."
    standalone = "The Hubble Space Telescope orbits Earth at an altitude of 540 km."
    claim = Claim(id="c1", text=text, start=0, end=len(text), standalone=standalone)
    result = _judge_as(claim, "The Hubble Space Telescope orbits Earth at an altitude of 547 km.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(text, result) == "It orbits Earth at an altitude of 547 km."
    assert standalone in result.reason


def test_the_standalone_text_lets_the_subject_support() -> None:
    text = "It was published in Philadelphia from 1844 to 1846."
    standalone = "Arthur's Magazine was published in Philadelphia from 1844 to 1846."
    claim = Claim(id="c1", text=text, start=0, end=len(text), standalone=standalone)
    evidence = "Arthur's Magazine (1844–1846) was an American literary periodical published in Philadelphia."
    result = _judge_as(claim, evidence)
    assert result.label is Judgement.SUPPORT


def test_a_fix_inside_the_resolved_words_is_not_made() -> None:
    text = "It has 40 staff."
    claim = Claim(id="c1", text=text, start=0, end=len(text), standalone="The 2019 fund has 40 staff.")
    result = _judge_as(claim, "The 2018 fund has 40 staff.")
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes
    assert "pronoun" in result.reason


def test_a_fragment_read_with_its_question_is_corrected_where_it_stands() -> None:
    # "1889" to "When was the tower built by Eiffel?" is checked as the statement; the fix lands on "1889".
    claim = Claim(id="c0", text="1889", start=0, end=4, standalone="The tower was built in 1889 by Eiffel")
    result = _judge_as(claim, "The tower was built in 1887 by Eiffel.")
    assert result.label is Judgement.CONTRADICT
    assert _apply("1889", result) == "1887"


def test_a_fix_in_the_words_of_the_question_is_not_made() -> None:
    claim = Claim(id="c0", text="Mr Lee", start=0, end=6, standalone="In 2019 the fund was led by Mr Lee")
    result = _judge_as(claim, "In 2018 the fund was led by Mr Lee.")
    assert not result.fixes


def test_a_value_in_another_guise_is_found() -> None:
    # A year the slot reader takes for a count ("a 2014 film"), a count with an unread unit, a name in
    # lower case with a split possessive: found, so the claim is supported.
    cases = [
        ("The 2014 Tamil film was directed by Siva.", "Veeram is a 2014 Indian Tamil film directed by Siva."),
        ("As of 22 February 2020 there were 77,984 confirmed cases.",
         "As of 22 February 2020, 77,984 cases have been confirmed in China."),
        ("The favourites include Nicky Henderson's Sprinter Sacre.",
         "the favourites include nicky henderson 's sprinter sacre , ridden by nico de boinville ."),
    ]  # fmt: skip
    for claim, evidence in cases:
        assert _judge(claim, evidence).label is Judgement.SUPPORT, claim


def test_a_bare_count_of_something_else_is_not_found() -> None:
    result = _judge(
        "The trial enrolled 20 patients in Ohio.", "The trial in Ohio enrolled patients at 20 sites."
    )
    assert result.label is not Judgement.SUPPORT


def test_a_frame_about_the_source_is_not_checked() -> None:
    claim = "The passage states that the film grossed $181 million."
    result = _judge(claim, "The film grossed $181 million worldwide.")
    assert result.label is Judgement.SUPPORT
    assert 'claim read as "the film grossed $181 million."' in result.reason
    wrong = "According to the article, revenue was $4.2 bn in 2023."
    fixed = _judge(wrong, "Revenue was $3.9 billion in 2023.")
    assert fixed.label is Judgement.CONTRADICT
    assert _apply(wrong, fixed) == "According to the article, revenue was $3.9 bn in 2023."


def test_a_count_spelled_out_in_like_words_is_found_not_contradicted() -> None:
    claim = "Locke was appointed permanently after signing a 3-year deal."
    evidence = "Locke was appointed permanently after signing a three-year deal. The 39-year-old lost once."
    assert _judge(claim, evidence).label is Judgement.SUPPORT
    # "three" among other words is no stand-in for the claim's 3, so the 4 still contradicts it.
    other = _judge(
        "The company has 3 offices in Ohio.", "The company has 4 offices in Ohio and three warehouses."
    )
    assert other.label is Judgement.CONTRADICT


def test_a_count_written_as_a_word_is_checked_and_corrected_in_words() -> None:
    claim = "The fund has three managers."
    result = _judge(claim, "The fund has five managers.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The fund has five managers."
    notice = "The notice period is two weeks."
    assert (
        _apply(notice, _judge(notice, "The notice period is four weeks."))
        == "The notice period is four weeks."
    )
    assert _judge(claim, "The fund has 3 managers.").label is Judgement.SUPPORT
    # A number of something else is no rival: "section 4" is not corrected to "two".
    other = _judge(
        "The amendment to Article 8, section 4, is one of the propositions on the ballot this year.",
        "There will be two propositions on the ballot for voters to consider this year.",
    )
    assert not other.fixes


# ---- role holders ------------------------------------------------------------------------------

TRUMP = "Donald Trump was the 45th president of the United States."


def test_the_claims_role_held_by_another_is_a_contradiction_with_the_holder_as_fix() -> None:
    result = _judge(TRUMP, "Hillary Clinton served as the 45th President of the United States.")
    assert result.label is Judgement.CONTRADICT
    assert [(f.wrong, f.right, f.evidence_doc_id) for f in result.fixes] == [
        ("Donald Trump", "Hillary Clinton", "d1")
    ]
    assert _apply(TRUMP, result) == "Hillary Clinton was the 45th president of the United States."
    assert "role 'the 45th president of the United States'" in result.reason


def test_the_same_role_and_holder_is_support() -> None:
    result = _judge(TRUMP, "Donald Trump was the 45th president of the United States.")
    assert result.label is Judgement.SUPPORT
    assert not result.fixes


def test_another_ordinal_is_another_role_and_no_contradiction() -> None:
    claim = "Trump was the 45th president of the United States."
    result = _judge(claim, "Barack Obama was the 44th president of the United States.")
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes


def test_a_name_merely_mentioned_is_no_role_holder() -> None:
    result = _judge(
        TRUMP, "Hillary Clinton attended the inauguration of the 45th president of the United States."
    )
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes


def test_no_role_fix_when_another_window_names_the_claims_holder() -> None:
    result = _judge(
        TRUMP,
        "Hillary Clinton served as the 45th President of the United States.",
        "Donald Trump held rallies in Ohio.",
    )
    assert result.label is not Judgement.CONTRADICT
    assert not result.fixes


def test_a_value_another_window_states_is_not_contradicted_by_a_window_about_something_else() -> None:
    # The father's birth date, read against the son's sentence: the father's sentence states it.
    claim = "Chris Eubank Sr., born on August 8, 1966, competed from 1985 to 1998"
    father = "Chris Eubank ( born 8 August 1966 ) is a British former boxer who competed from 1985 to 1998 ."
    son = "Chris Eubank Jr. ( born 18 September 1989 ) is a British professional boxer ."
    assert _judge(claim, son, father).label is Judgement.SUPPORT
    assert not _judge(claim, son, father).fixes


def test_a_value_stated_only_off_topic_still_meets_the_window_that_contradicts_it() -> None:
    claim = "Northwind's revenue rose 8% in 2023"
    other = "Staff costs rose 8% over the period."
    about = "Northwind's revenue rose 5% in 2023."
    result = _judge(claim, other, about)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "Northwind's revenue rose 5% in 2023"


def test_a_name_of_the_same_kind_in_the_same_role_is_the_fix() -> None:
    claim = "The plant is located in Westchester County."
    result = _judge(claim, "The plant is located in Nassau County.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The plant is located in Nassau County."


def test_a_name_of_another_kind_in_the_same_role_is_no_fix() -> None:
    # A hamlet for a county: put in, the fix would say what the window does not.
    result = _judge("The plant is located in Westchester County.", "The plant is located in Carle Place.")
    assert result.label is not Judgement.CONTRADICT and not result.fixes
    assert result.label is not Judgement.SUPPORT


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        # HaluEval `train`: "based in Roseau, USA" was true but said at another level than the claim
        (
            "Polaris is based in Michigan, USA.",
            "Polaris is based in Roseau, Minnesota, USA.",
            "Polaris is based in Minnesota, USA.",
        ),
        (
            "The company is headquartered in Ohio.",
            "The company is headquartered in Austin, Texas.",
            "The company is headquartered in Texas.",
        ),
        # a town for a town, as before
        (
            "The company is headquartered in Dallas.",
            "The company is headquartered in Austin, Texas.",
            "The company is headquartered in Austin.",
        ),
    ],
)
def test_a_region_is_fixed_with_the_region_the_window_places_its_town_in(
    claim: str, window: str, fixed: str
) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == fixed


def test_a_region_the_window_places_its_town_in_is_found() -> None:
    result = _judge(
        "The company is headquartered in Texas.", "The company is headquartered in Austin, Texas."
    )
    assert result.label is Judgement.SUPPORT


def test_a_negation_is_dropped_only_when_the_window_speaks_of_the_claims_subject() -> None:
    window = (
        "Adam Clayton Powell is a 1989 documentary film about the civil rights leader. The Saimaa "
        "Gesture is a 1981 film by Finnish directors. It is a documentary of three Finnish rock groups."
    )
    other = _judge("Adam Clayton Powell is not about rock groups.", window)
    assert other.label is Judgement.CONTRADICT and "negation" in other.reason and not other.fixes
    claim = "Abraham Weinberg was not a suspect in the gangland slayings."
    same = _judge(claim, "Abe Weinberg was a later suspect in the gangland slayings of Jack Diamond.")
    assert _apply(claim, same) == "Abraham Weinberg was a suspect in the gangland slayings."


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        (  # HaluEval: dropping "not" alone left "a suspect in any gangland slayings"
            "Abraham Weinberg was not a suspect in any gangland slayings.",
            "Abe Weinberg was a later suspect in the gangland slayings of Jack Diamond.",
            "Abraham Weinberg was a suspect in some gangland slayings.",
        ),
        (
            "Acme didn't report anything unusual in 2023.",
            "Acme reported several unusual items in 2023.",
            "Acme did report something unusual in 2023.",
        ),
    ],
)
def test_the_any_a_dropped_negation_licensed_becomes_some(claim: str, window: str, fixed: str) -> None:
    assert _apply(claim, _judge(claim, window)) == fixed


def test_a_value_fix_between_a_negation_and_its_any_still_applies() -> None:
    claim = "Weinberg was not a suspect in Chicago in any slayings."
    result = _judge(claim, "Weinberg was a suspect in Boston in the slayings.")
    assert _apply(claim, result) == "Weinberg was a suspect in Boston in some slayings."


@pytest.mark.parametrize(
    ("claim", "fixed"),
    [  # an "any" in another clause is not this negation's; only the negation goes
        (
            "Acme did not say whether any staff were laid off.",
            "Acme did say whether any staff were laid off.",
        ),
        (
            "Acme did not sell the X1 and is selling anything now.",
            "Acme did sell the X1 and is selling anything now.",
        ),
    ],
)
def test_an_any_beyond_the_negated_clause_is_left_alone(claim: str, fixed: str) -> None:
    fixes = _negation_fix(claim, next(s for s in extract_slots(claim) if s.kind is SlotKind.NEGATION))
    assert _apply_all(claim, fixes) == fixed


@pytest.mark.parametrize(
    "claim",
    [
        "Acme isn't selling anymore to anyone in Ohio.",
        "The X2 is not any faster than the X1.",
        "Acme did not sell any more cars.",
    ],
)
def test_no_some_is_written_where_the_any_is_an_idiom(claim: str) -> None:
    assert _negation_fix(claim, next(s for s in extract_slots(claim) if s.kind is SlotKind.NEGATION)) == ()


def test_no_positive_is_written_for_not_any_longer() -> None:
    # "Acme is selling the model any longer" is no English; "still" would be a guess.
    for claim in ("Acme is not selling the X1 any longer.", "Acme isn't selling the X1 anymore."):
        result = _judge(claim, "Acme is selling the X1 in every store.")
        assert "negation" in result.reason and not result.fixes


def test_a_date_is_corrected_only_to_a_date_of_the_same_event() -> None:
    born = _judge(
        "The plaintiff in the civil suit Paul v. Clinton was born in 1968.",
        "Paul v. Clinton was a civil suit filed in 2004 held in Los Angeles County Superior Court.",
    )
    assert born.label is not Judgement.CONTRADICT and not born.fixes
    claim = "The company was founded in 1990."
    assert _apply(claim, _judge(claim, "The company was founded in 1987 in Ohio.")) == (
        "The company was founded in 1987."
    )


def test_a_time_of_day_is_read_whole_and_never_corrected_digit_by_digit() -> None:
    window = "The crash on the A9 north of Berriedale happened at about 14:00 on Saturday."
    same = _judge("The crash on the A9 north of Berriedale happened around 2:00 PM on Saturday.", window)
    assert same.label is Judgement.SUPPORT and not same.fixes
    claim = "The crash on the A9 north of Berriedale happened around 4 pm on Saturday."
    other = _judge(claim, window)
    assert other.label is Judgement.CONTRADICT
    assert (
        _apply(claim, other) == "The crash on the A9 north of Berriedale happened around 14:00 on Saturday."
    )


def test_a_route_number_is_not_corrected_to_a_length() -> None:
    window = "Route 495 is a 3.45 mi freeway in Hudson County, New Jersey."
    claim = "Route 495 is a 3.45-mile freeway in Hudson County, New Jersey."
    result = _judge(claim, window)
    assert result.label is Judgement.SUPPORT and not result.fixes
    wrong = "Route 495 is a 5.2-mile freeway in Hudson County, New Jersey."
    assert (
        _apply(wrong, _judge(wrong, window))
        == "Route 495 is a 3.45-mile freeway in Hudson County, New Jersey."
    )


SPENDING = (
    "UKIP, which won May's election, spent £2,956,737, while the Tories' campaign expenditure was "
    "£2,980,815. The Lib Dems spent £1,580,575 and lost all but one of their MEPs - Labour, which came "
    "second, spent £1,027,339."
)


@pytest.mark.parametrize(
    "claim",
    [
        "the Tories spent £2,980,815",  # stated, and near UKIP's figure: never "corrected" to it
        "The Conservatives spent £5,168,877.",  # a name the window does not use: whose figure is whose?
        "Labour, the second-place party, spent £1,484,131.",  # four parties' figures read alike
    ],
)
def test_a_value_among_others_alike_is_never_given_another_holders(claim: str) -> None:
    result = _judge(claim, SPENDING)
    assert result.label is not Judgement.CONTRADICT and not result.fixes


def test_a_value_tied_to_the_claims_date_or_name_still_corrects_among_others() -> None:
    # UKIP's figure alone hangs on "May", which the claim names too
    result = _judge("UKIP spent £2,000,000 in May's election.", SPENDING)
    assert result.label is Judgement.CONTRADICT
    assert [(f.wrong, f.right) for f in result.fixes] == [("£2,000,000", "£2,956,737")]


def test_a_day_and_month_is_one_date_corrected_as_one() -> None:
    window = "The figures cover the campaign period from 23 January to polling day, 22 May."
    result = _judge("The campaign period was from 23 September to polling day, 22 May.", window)
    assert [(f.wrong, f.right) for f in result.fixes] == [("23 September", "23 January")]


def test_a_range_of_years_is_corrected_bound_by_bound() -> None:
    window = "Richards served as the 45th Governor of Texas from 1991 to 1995 and was defeated in 1994."
    result = _judge("Richards served as Governor of Texas from 1992 to 1998.", window)
    assert [(f.wrong, f.right) for f in result.fixes] == [("1992", "1991"), ("1998", "1995")]


def test_a_negation_the_rules_cannot_place_is_reported_for_the_decision() -> None:
    window = "James Murdoch is an American businessman, the younger son of media mogul Rupert Murdoch."
    negated = _judge("He is not the son of Rupert Murdoch.", window)
    assert negated.extra["negation"] == 1.0
    assert _judge("He is the son of Rupert Murdoch.", window).extra["negation"] == 0.0


def test_two_values_tied_to_the_claims_date_are_no_fix() -> None:
    result = _judge("Costs were $3.5bn in 2023.", "Revenue was $4.2bn in 2023, while costs were $3.9bn.")
    assert not result.fixes


def test_a_date_is_corrected_only_from_its_own_event_past_an_apposition() -> None:
    window = "Smith won the Turner Prize in 1984. He was born in London."
    result = _judge("Smith was born in London, England, in 1950.", window)
    assert not result.fixes


def test_a_negation_over_other_words_is_not_reported() -> None:
    window = "The drug is approved for adults. It is not approved for children."
    assert _judge("The drug is approved for adults.", window).extra["negation"] == 0.0
    assert _judge("The drug is not approved for adults.", window).extra["negation"] == 1.0


def test_a_negated_claim_the_window_also_states_keeps_its_not() -> None:
    window = "The drug is approved for adults. It is not approved for children."
    result = _judge("The drug is not approved for children.", window)
    assert result.label is not Judgement.CONTRADICT and not result.fixes
    assert _judge("The drug is not approved for adults.", "The drug is approved for adults.").label is (
        Judgement.CONTRADICT
    )


# ---- found by review (2026-12-05, eighth session): edits that damaged correct answers ----------


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window's sentence is about others: dropping "never" made a safety warning its opposite
        (
            "Children under 2 should never be given aspirin.",
            "Aspirin should be given to adults with chest pain.",
        ),
        ("The tenant is not liable for repairs.", "The landlord is liable for repairs."),
        ("The patient should not take ibuprofen.", "The patient may take paracetamol for pain."),
        # the same words in another order or with another year: another statement
        (
            "The company has not paid a dividend since 2015.",
            "The last dividend the company paid was in 2015.",
        ),
        ("The company was not profitable in 2022.", "The company made a loss in 2022 and a profit in 2023."),
        ("The bank didn't raise rates in March.", "The central bank raised rates in June."),
        # "not all" is true of "two of five"
        ("Not all of the claims succeeded.", "Two of the five claims succeeded."),
    ],
)
def test_a_negation_the_window_does_not_restate_is_neither_dropped_nor_contradicted(
    claim: str, window: str
) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.NEUTRAL and "negation" in result.reason and not result.fixes


def test_a_negation_the_window_restates_without_it_is_still_dropped() -> None:
    result = _judge("The drug is not approved for adults.", "The drug is approved for adults.")
    assert result.label is Judgement.CONTRADICT
    assert _apply("The drug is not approved for adults.", result) == "The drug is approved for adults."


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Revenue rose $10 million to $110 million.", "Revenue rose to $110 million from $100 million."),
        ("The dose was increased by 25 mg to 75 mg.", "The dose was increased from 50 mg to 75 mg."),
        ("The rate rose by 2 percentage points to 5%.", "The rate rose from 3% to 5% last year."),
    ],
)
def test_a_change_is_never_corrected_to_a_level(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.label is not Judgement.CONTRADICT and not result.fixes


def test_a_change_is_still_corrected_to_the_windows_change() -> None:
    result = _judge("Revenue rose 12% to $4.2bn.", "Revenue rose 15% to $4.2bn in 2023.")
    assert _apply("Revenue rose 12% to $4.2bn.", result) == "Revenue rose 15% to $4.2bn."


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Two patients died.", "The trial enrolled twelve patients. Two died during follow-up."),
        ("2 directors resigned.", "The board has 12 directors; 2 resigned in March."),
        ("Four defendants were acquitted.", "The jury convicted eleven defendants and acquitted four."),
        ("Three partners left the firm.", "The firm has thirteen partners. Three left in 2021."),
    ],
)
def test_a_count_the_window_states_alone_is_not_corrected_to_the_total(claim: str, window: str) -> None:
    assert not _judge(claim, window).fixes


def test_a_word_the_claim_says_plainly_ties_its_figure_to_the_windows_name() -> None:
    window = "The Hubble Space Telescope has a 2.4-metre mirror and orbits at about 540 km."
    claim = "The Hubble telescope has a 2.5-metre mirror."
    assert _apply(claim, _judge(claim, window)) == "The Hubble telescope has a 2.4-metre mirror."


def test_a_nationality_inside_a_longer_name_is_not_that_name() -> None:
    # "German" was found in "German Air Force", so the maker's nationality passed unchecked.
    claim = "The jet was built by a German maker."
    window = "The jet was built by a Swedish firm, Saab, for the German Air Force."
    assert _apply(claim, _judge(claim, window)) == "The jet was built by a Swedish maker."
    # a nationality or a surname that ends the longer name still matches it
    korean = _judge(
        "Samsung is a Korean company founded in 1938.", "Samsung is a South Korean firm founded in 1938."
    )
    assert korean.label is Judgement.SUPPORT
    french = _judge(
        "It was written by French and Saunders.", "It was written by Dawn French and Jennifer Saunders."
    )
    assert french.label is Judgement.SUPPORT


def test_a_country_after_new_or_inner_is_another_place() -> None:
    result = _judge("He was born in New Mexico.", "He was born in Mexico City, Mexico, in 1980.")
    assert _apply("He was born in New Mexico.", result) == "He was born in Mexico City."


def test_an_outcome_said_the_other_way_round_is_a_conflict_never_fixed() -> None:
    claim = "The appeal court upheld the award of $1.5 million in 2021."
    result = _judge(claim, "In 2021 the appeal court overturned the award of $1,500,000.")
    assert result.label is Judgement.CONTRADICT
    assert not result.fixes
    assert "outcome: 'upheld' in claim, 'overturned' in evidence" in result.reason


def test_a_value_the_window_gives_an_opposite_outcome_is_no_fix() -> None:
    result = _judge("The court upheld the $2 million award.", "The court overturned the $3 million award.")
    assert result.label is Judgement.CONTRADICT
    assert not result.fixes


def test_an_outcome_another_body_reached_is_no_conflict() -> None:
    result = _judge("The board accepted the takeover offer.", "The shareholders rejected the takeover offer.")
    assert result.label is not Judgement.CONTRADICT


def test_a_dropped_condition_is_a_conflict_never_fixed() -> None:
    window = "Early repayment is allowed after 3 years only with the lender's consent."
    result = _judge("Early repayment is allowed after 3 years.", window)
    assert result.label is Judgement.CONTRADICT
    assert not result.fixes
    assert (
        "condition: the claim drops it" in result.reason and "only with the lender's consent" in result.reason
    )
    # a value the window states otherwise is read as before: the rule reads claims whose values it states
    claim = "Early repayment is allowed after 2 years."
    assert _apply(claim, _judge(claim, window)) == "Early repayment is allowed after 3 years."


def test_a_condition_another_window_does_not_state_leaves_the_support() -> None:
    claim = "Tenants may keep pets."
    result = _judge(claim, "Tenants may keep pets if the landlord agrees.", "Tenants may keep pets.")
    assert result.label is Judgement.SUPPORT


def test_a_movement_said_in_one_sentence_fixes_no_value_paired_in_another() -> None:
    claim = "The state closed fiscal 2023 with a $1.4 billion deficit."
    result = _judge(
        claim,
        "The state closed fiscal 2023 with a $1.4 billion surplus. Budget officials project a deficit of "
        "about $900 million in fiscal 2025.",
    )
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The state closed fiscal 2023 with a $1.4 billion surplus."


def test_a_movement_no_word_fixes_leaves_the_claims_figures_unfixed() -> None:
    # "gained 2 percentage points" would state the opposite of the window: the claim is only flagged
    claim = "The company gained 3 percentage points of market share in 2023."
    result = _judge(claim, "In 2023, the company's market share fell by 2 percentage points to 18%.")
    assert result.label is Judgement.CONTRADICT
    assert result.fixes == ()
    assert "direction: 'gained' in claim, 'fell' in evidence" in result.reason


def test_a_rank_said_otherwise_is_fixed_with_the_windows_and_a_not_before_it_stays() -> None:
    claim = "Acme is the second-largest bank in Spain."
    result = _judge(claim, "Acme is the largest bank in Spain, with 14 million customers.")
    assert "rank: 'second-largest' in claim, 'largest' in evidence" in result.reason
    assert _apply(claim, result) == "Acme is the largest bank in Spain."
    # "not the largest" is what "the second-largest" says: no "not" is taken out
    negated = _judge("Acme is not the largest bank in Spain.", "Acme is the second-largest bank in Spain.")
    assert "negation" not in negated.reason and not negated.fixes
    # a "not" of something else is read as before
    claim = "Acme, the second-largest bank in Spain, did not report a profit in 2023."
    other = _judge(claim, "Acme, the second-largest bank in Spain, reported a profit in 2023.")
    assert "negation" in other.reason


def test_a_bill_passed_against_one_defeated_is_a_conflict_never_fixed() -> None:
    result = _judge(
        "The Senate passed the bill in 2021.", "In 2021 the Senate rejected the bill by 48 to 52."
    )
    assert "outcome: 'passed' in claim, 'rejected' in evidence" in result.reason
    assert not result.fixes


def test_a_movement_is_not_fixed_while_the_claims_figure_is_anothers() -> None:
    # "contracted 0.9%" would say what no one did: Germany's clause has 0.3%, the 0.9% is France's
    claim = "Germany's economy grew 0.9% in 2023."
    window = (
        "Germany, the euro area's largest economy, contracted 0.3% in 2023. France, the second-largest, "
        "grew 0.9%."
    )
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert "direction: 'grew' in claim, 'contracted' in evidence" in result.reason
    assert result.fixes == ()
    # in the clause alone both are fixed
    alone = _judge(claim, "Germany, the euro area's largest economy, contracted 0.3% in 2023.")
    assert _apply(claim, alone) == "Germany's economy contracted 0.3% in 2023."


def test_the_claims_figure_after_its_own_verb_is_found_not_fixed_to_anothers() -> None:
    result = _judge(
        "France's economy grew 0.9% in 2023.",
        "Germany's economy contracted 0.3% in 2023, while France's grew 0.9%.",
    )
    assert not result.fixes


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        (
            "The name was changed in 2001.",
            "On 30 December 1996 the name was changed.",
            "The name was changed in 1996.",
        ),
        (
            "The law took effect in 2020.",
            "The law was passed on 12 June 2018 and took effect on 1 January 2019.",
            "The law took effect in 2019.",
        ),
        (
            "In 2015, the court ruled for the plaintiff.",
            "On 3 April 2016, the court ruled for the plaintiff.",
            "In 2016, the court ruled for the plaintiff.",
        ),
    ],
)
def test_a_year_against_a_full_date_is_the_dates_year(claim: str, window: str, fixed: str) -> None:
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == fixed


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the year of another event, or a full date the window's year cannot give
        ("He was born in 1968.", "Smith, born on 4 March 1968, joined the firm on 5 May 1990."),
        (
            "The law took effect in 2019.",
            "The law was passed on 12 June 2018 and took effect on 1 January 2019.",
        ),
        ("The company was founded in 1998.", "On 1 January 2005 the company was renamed Acme Holdings."),
        ("Jane Smith founded Acme in 1985.", "Its founder, Jane Smith, retired on 5 May 2010."),
        (
            "The company was renamed in 1997.",
            "The company was founded on 30 December 1996 and renamed the following year.",
        ),
        (
            "The fund was wound up in 2012.",
            "The fund was launched on 1 June 2002 and wound up ten years later.",
        ),
        # someone else's date
        (
            "Acme was founded in 2001.",
            "Beta Corp was founded on 4 July 1998. Acme acquired Beta on 1 March 2010.",
        ),
        ("The Senate passed the bill in 2019.", "The House passed the bill on 3 June 2020."),
        # a name the window does not give: the year of what it says of another
        (
            "The drug was approved in Europe in 2019.",
            "The drug was approved in the United States on 20 November 2018.",
        ),
        # a bound, a span, a part of a year
        ("The name was changed before 2000.", "On 30 December 1996 the name was changed."),
        ("The name had been changed by 1997.", "On 30 December 1996 the name was changed."),
        ("The name was changed between 1995 and 1997.", "On 30 December 1996 the name was changed."),
        (
            "In 2020-21 revenue was $4.2 billion.",
            "For the year ended 31 March 2021, revenue was $4.2 billion.",
        ),
        ("The central bank cut the rate in late 2019.", "The central bank cut the rate on 3 March 2020."),
    ],
)
def test_a_year_is_never_made_another_events(claim: str, window: str) -> None:
    assert _judge(claim, window).fixes == ()


def test_a_full_date_is_never_made_from_a_year_alone() -> None:
    claim = "The name was changed on 30 December 2001."
    result = _judge(claim, "In 1996 the name was changed.")
    assert all(f.right != "1996" for f in result.fixes)


def test_a_year_is_not_fixed_beside_a_word_the_window_denies() -> None:
    claim = "The loan is secured and was made in 2010."
    result = _judge(claim, "The loan, made on 2 May 2011, is unsecured.")
    assert result.fixes == ()
    assert result.label is not Judgement.SUPPORT


def test_a_word_denied_by_dis_is_fixed() -> None:
    claim = "The defendant was honest."
    result = _judge(claim, "The defendant was dishonest about the loan.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The defendant was dishonest."


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The agreement is binding.", "The agreement, signed on 3 May 2021 by both parties, is non-binding."),
        (
            "The board approved the deal on Wednesday.",
            "The board, which was chaired by Ms Lee, approved the deal on Tuesday.",
        ),
        # another thing of the same name: the first sentence supports the claim
        (
            "The deposit is refundable.",
            "The deposit is returned in full at the end of the tenancy. "
            "The deposit, a holding fee of one week's rent, is non-refundable.",
        ),
    ],
)
def test_a_word_read_past_an_aside_is_never_support_nor_a_fix(claim: str, window: str) -> None:
    result = _judge(claim, window)
    assert result.label is not Judgement.SUPPORT
    assert result.fixes == ()


@pytest.mark.parametrize(
    "window",
    [
        "The offer, until signed, is non-binding.",
        "The offer is non-binding until the board approves it.",
    ],
)
def test_a_denial_under_a_condition_is_neither_support_nor_a_fix(window: str) -> None:
    result = _judge("The offer is binding.", window)
    assert result.label is not Judgement.SUPPORT
    assert result.fixes == ()


def test_an_exclusion_outranks_another_windows_support_that_does_not_name_the_item() -> None:
    whole = "The policy covers accidental damage and fire. Theft is excluded from cover."
    result = _judge("The policy covers theft.", "The policy covers accidental damage and fire.", whole)
    assert result.label is Judgement.CONTRADICT
    assert "exception: evidence says 'Theft is excluded'" in result.reason
    assert result.fixes == ()
    # a window that says the claim itself still supports it
    stated = _judge("The policy covers theft.", "The policy covers theft and fire.", whole)
    assert stated.label is Judgement.SUPPORT


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "The store does not accept American Express.",
            "The store accepts all major cards except American Express.",
        ),
        (
            "Wear and tear is not covered.",
            "The policy covers accidental damage and fire but excludes wear and tear.",
        ),
        (
            "Contractors are not eligible for the scheme.",
            "Apart from contractors, all staff are eligible for the scheme.",
        ),
        (
            "The store can't accept American Express.",
            "The store can accept all major cards except American Express.",
        ),
    ],
)
def test_a_denial_of_what_the_window_excepts_is_never_undone(claim: str, window: str) -> None:
    # the "not" is the window's exception said plainly: removing it would make the claim wrong
    result = _judge(claim, window)
    assert result.label is not Judgement.CONTRADICT
    assert result.fixes == ()


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # removing the "not" would drop the window's condition or its narrowing: flagged, not edited
        (
            "Part-time employees are not eligible for the annual bonus.",
            "Only full-time employees are eligible for the annual bonus.",
        ),
        (
            "Tenants may not sublet the flat.",
            "Tenants may sublet the flat only with the landlord's prior written consent.",
        ),
        ("The deposit is not refundable.", "The deposit is refundable unless the flat is left damaged."),
        (
            "Employees are not eligible for the annual bonus.",
            "Only full-time employees are eligible for the annual bonus.",
        ),
        (
            "Part-time employees can't claim the annual bonus.",
            "Only full-time employees can claim the annual bonus.",
        ),
    ],
)
def test_a_denial_of_what_the_window_allows_only_under_a_condition_is_never_undone(
    claim: str, window: str
) -> None:
    result = _judge(claim, window)
    assert result.fixes == ()
    if claim.startswith("Part-time"):  # the other part's denial is what the window says
        assert result.label is not Judgement.CONTRADICT
    else:  # a wrong denial: a conflict with no fix, which the decision flags
        assert result.label is Judgement.CONTRADICT
        assert "condition: the claim denies what evidence allows" in result.reason


def test_a_denial_of_what_the_window_states_plainly_is_still_fixed() -> None:
    claim = "The deposit is not refundable."
    result = _judge(claim, "The deposit is refundable.")
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == "The deposit is refundable."


def test_a_denial_that_is_the_windows_exception_is_a_doubt_for_the_decision() -> None:
    # the model reads these as contradictions (P 0.8-0.99); the rules' reading makes it a flag, not a removal
    result = _judge(
        "Contractors are not eligible for the share save scheme.",
        "All staff apart from contractors are eligible for the share save scheme.",
    )
    assert result.extra["doubt"] == 1.0


_CAMPAIGN = (
    "During the 1980 presidential campaign, Ronald Reagan promised to nominate the first woman to the U.S. "
    "Supreme Court."
)
_APPOINTED = "Sandra Day O'Connor was appointed to the U.S. Supreme Court by President Ronald Reagan in 1981."


def test_a_date_a_window_gives_with_the_claims_name_is_not_swapped_for_another_windows() -> None:
    named = "He made good on that promise in 1981, when he announced O'Connor's nomination."
    result = _judge(_APPOINTED, _CAMPAIGN, named)
    assert result.label is not Judgement.CONTRADICT and not result.fixes


def test_a_value_is_not_swapped_where_the_window_also_states_the_claims_own() -> None:
    window = f"{_CAMPAIGN} He made good on that promise in 1981, when he announced his nominee."
    result = _judge(_APPOINTED, window)
    assert result.label is not Judgement.CONTRADICT and not result.fixes


def test_a_date_only_another_event_has_is_still_corrected() -> None:
    result = _judge(_APPOINTED, _CAMPAIGN)
    assert result.label is Judgement.CONTRADICT
    assert _apply(_APPOINTED, result) == _APPOINTED.replace("1981", "1980")


_RENAL = (
    "Renal impairment: No dose adjustment is required in patients with creatinine clearance (CrCl) of 50 "
    "mL/min or above. In patients with CrCl 30 to 49 mL/min, the recommended dose is 10 mg once daily."
)


def test_a_claim_applying_the_rules_to_a_case_of_its_own_is_never_corrected() -> None:
    claim = (
        "For a patient with a creatinine clearance of 40 mL/min, the recommended dose is 10 mg once daily."
    )
    result = _judge(claim, _RENAL)
    assert not result.fixes and result.extra["doubt"] == 1.0
    assert "a case the document's rules are applied to" in result.reason


def test_a_rule_said_again_is_still_corrected() -> None:
    claim = "Patients with CrCl of 60 mL/min or above need no dose adjustment."
    result = _judge(claim, _RENAL)
    assert result.label is Judgement.CONTRADICT and result.extra["doubt"] == 0.0
    assert "60" in result.reason and "50" in result.reason


def test_not_just_is_no_denial() -> None:
    window = (
        "Women of childbearing potential must use effective contraception for at least one month before "
        "starting treatment, throughout the treatment period and for at least one month after stopping."
    )
    claim = "Contraception must continue for at least one month after stopping, not just during treatment."
    result = _judge(claim, window)
    assert not result.fixes and "negation" not in result.reason


@pytest.mark.parametrize(
    ("claim", "supported"),
    [
        ("Colchicine is taken as 1 mg initially, followed by 0.5 mg after 1 hour.", True),
        ("Colchicine is taken as 1 mg initially, followed by 500 mg after 1 hour.", False),
    ],
)
def test_micrograms_are_a_thousandth_of_a_milligram(claim: str, supported: bool) -> None:
    window = "Colchicine: 1 mg initially, followed by 500 micrograms after 1 hour."
    result = _judge(claim, window)
    assert (result.label is Judgement.SUPPORT) is supported
    assert supported or "500 mg in claim not found" in result.reason


def test_another_frequency_is_a_conflict_with_the_windows_phrase() -> None:
    claim = "Take one 70 mg alendronic acid tablet each day with a full glass of plain water."
    window = "Alendronic acid 70 mg: take one tablet once a week, on the same day each week."
    result = _judge(claim, window)
    assert result.label is Judgement.CONTRADICT
    assert _apply(claim, result) == claim.replace("each day", "once a week")


def test_a_frequency_word_another_rule_fixes_is_fixed_once() -> None:
    claim = "The tablets are taken twice daily with food."
    result = _judge(claim, "The tablets are taken once daily with food.")
    assert _apply(claim, result) == "The tablets are taken once daily with food."


def test_the_same_amount_for_another_period_is_a_conflict_fixed_with_the_windows_period() -> None:
    claim = "The rent for the flat is £1,200 per year."
    result = _judge(claim, "The monthly rent for the flat is £1,200, payable in advance on the first day.")
    assert result.label is Judgement.CONTRADICT
    assert "period: 'per year' in claim, 'monthly' in evidence" in result.reason
    assert _apply(claim, result) == "The rent for the flat is £1,200 per month."


def test_an_amount_for_another_period_is_no_fix() -> None:
    claim = "The car allowance comes to £500 a month, paid along with your salary."
    window = (
        "Employees receive a car allowance of £6,000 per year, paid in equal monthly amounts with salary."
    )
    assert not _judge(claim, window).fixes
    assert _apply(
        "The salary is £30,000 a year.",
        _judge("The salary is £30,000 a year.", "The salary is £32,000 a year."),
    ) == ("The salary is £32,000 a year.")


def test_the_sentence_that_states_every_figure_of_the_claim_is_the_claims() -> None:
    window = (
        "Women and people with a cervix aged 25 to 49 are invited for cervical screening every 3 years. "
        "Those aged 50 to 64 are invited every 5 years."
    )
    result = _judge("Women aged 50 to 64 are invited for cervical screening every five years.", window)
    assert result.label is not Judgement.CONTRADICT and not result.fixes  # not "every 3 years"


def test_a_single_year_found_in_another_clause_does_not_choose_it() -> None:
    window = (
        "Dividends on ordinary shares are paid quarterly. Dividends on preference shares are paid annually "
        "from 2024."
    )
    result = _judge("Dividends on ordinary shares are paid quarterly from 2024.", window)
    assert not result.fixes


def test_a_tie_between_the_claims_value_and_another_is_no_support() -> None:
    result = _judge("Apple was founded in 1977.", "Apple was founded in 1976 and incorporated in 1977.")
    assert result.label is not Judgement.SUPPORT


def test_not_just_before_a_verb_denies() -> None:
    result = _judge("You should not just stop taking prednisolone.", "You should stop taking prednisolone.")
    assert result.label is Judgement.CONTRADICT


def test_micrograms_written_with_a_greek_mu() -> None:
    result = _judge("Levothyroxine is started at 25 mg daily.", "Levothyroxine is started at 25 μg daily.")
    assert result.label is not Judgement.SUPPORT


def test_together_with_is_no_sum() -> None:
    assert _apply(
        "Take 20 mg together with food.", _judge("Take 20 mg together with food.", "Take 10 mg with food.")
    ) == ("Take 10 mg together with food.")


def test_amounts_the_window_states_every_one_are_not_moved_between_holders() -> None:
    window = "At 31 December 2023 the Group had 4,850 people, of whom 3,120 were in the UK and 1,730 abroad."
    result = _judge("At the end of 2023 the Group had 4,850 employees, 3,120 of them in the UK.", window)
    assert not result.fixes


def test_an_acts_number_holds_no_figure() -> None:
    window = "It repealed Regulation (EC) No 1881/2006 with effect from 25 May 2023."
    claim = "Regulation (EU) 2023/915 replaced Regulation (EC) No 1881/2006 with effect from 25 May 2023."
    assert not _judge(claim, window).fixes


def test_a_figure_the_window_states_beside_another_in_one_clause_is_not_swapped() -> None:
    window = (
        "At 31 March 2024 the Group employed 4,860 people, of whom 2,916 were based in the UK and the "
        "remainder overseas."
    )
    claim = "Of the group's 4,860 staff, 1,944 were based outside the UK."
    assert not _judge(claim, window).fixes


def test_a_figure_the_window_bounds_is_not_swapped_for_another_of_its_kind() -> None:
    windows = (
        "Statutory Maternity Pay is paid for up to 39 weeks: 90% of average weekly earnings for the first "
        "6 weeks, then £184.03 for the next 33 weeks.",
        "Eligible employees can take up to 52 weeks of maternity leave. Statutory Maternity Pay is paid "
        "for up to 39 weeks: 90% of average weekly earnings for the first 6 weeks.",
    )
    claim = "Only 39 of the 52 weeks of maternity leave are covered by Statutory Maternity Pay."
    assert not _judge(claim, *windows).fixes


def test_a_change_is_not_swapped_for_a_level_past_its_hedge() -> None:
    window = "Revenue was $4.82 billion on Tuesday, up from $4.31 billion a year earlier."
    assert not _judge("Revenue grew by roughly $510 million year on year to $4.82 billion.", window).fixes


def test_a_not_that_sets_one_thing_against_another_is_no_fix() -> None:
    window = "She studied at Stockholm before completing her doctorate in Leipzig in 1899."
    result = _judge("She earned her doctorate in Leipzig, not Stockholm, where she had studied.", window)
    assert not result.fixes
    assert result.label is not Judgement.CONTRADICT


def test_a_date_with_its_month_no_window_states_is_reported() -> None:
    window = "Employers with between 50 and 249 employees must comply from 6 April 2027."
    assert _judge("Firms with 50 to 249 employees must comply from 6 April 2026.", window).extra[
        "unseen_date"
    ]
    assert not _judge("Firms with 50 to 249 employees must comply from 6 April 2027.", window).extra[
        "unseen_date"
    ]
    assert not _judge("Firms with 50 to 249 employees must comply from 2027.", window).extra["unseen_date"]
    # a bare year in the window is not the claim's day
    budget = window.replace(".", ", as announced in the 2026 Budget.")
    assert _judge("Firms with 50 to 249 employees must comply from 6 April 2026.", budget).extra[
        "unseen_date"
    ]


def test_a_one_word_contrast_keeps_its_not() -> None:
    claim = "Interest is charged, not waived, if you pay late."
    assert not _judge(claim, "Interest is charged if you pay late.").fixes


def test_a_not_between_hyphens_sets_one_party_against_another() -> None:
    claim = "The landlord - not the tenant - must pay for structural repairs."
    window = "The landlord must pay for structural repairs, and the tenant must pay for minor repairs."
    assert not _judge(claim, window).fixes


def test_a_figure_the_claim_works_out_is_never_swapped() -> None:
    window = "Riverside Food Bank distributed 412,000 meals in 2023, up from 355,000 in 2022."
    result = _judge("Riverside Food Bank handed out 412,000 meals in 2023, 57,000 more than in 2022.", window)
    # worked out, so not the window's 355,000; not stated, so not found either: flagged
    assert not result.fixes
    assert result.label is Judgement.INSUFFICIENT


def test_a_duration_in_two_units_is_not_taken_apart() -> None:
    window = "Tremblay won in a final lasting two hours and 41 minutes."
    assert _judge("The final lasted 161 minutes.", window).label is Judgement.SUPPORT
    claim = "The final lasted 41 minutes."
    assert _apply(claim, _judge(claim, window)) == "The final lasted two hours and 41 minutes."
    race = "Wanjiru won in 2:19:48. Alemu finished second in 2:20:31."
    assert not _judge("Wanjiru finished 43 seconds ahead of Alemu.", race).fixes


def test_an_amount_for_another_year_of_a_schedule_is_no_rival() -> None:
    window = "Early repayment charges are 5% in year one, falling by 1 point a year to 1% in year five."
    assert not _judge("Repaying early in year three would incur a 3% charge.", window).fixes
    claim = "Repaying early in year one would incur a 3% charge."
    assert _apply(claim, _judge(claim, window)) == "Repaying early in year one would incur a 5% charge."


@pytest.mark.parametrize(
    ("claim", "window", "kept"),
    [
        # a total is not made the window's rate
        (
            "For two people staying three nights, budget an extra €21 in city tax.",
            "City tax of €3.50 per person per night is not included in the price.",
            "€21",
        ),
        # the claim states the window's value already, as another of its figures
        (
            "Since the £1,650 deposit equals five weeks' rent, your weekly rent works out at £330.",
            "The Tenant shall pay a deposit of £1,650, equal to five weeks' rent.",
            "£330",
        ),
        # an increment is no level
        (
            "You'd need another seven qualifying years to get the full amount.",
            "You need at least 10 qualifying years to get any State Pension.",
            "seven",
        ),
    ],
)
def test_figures_that_are_not_the_windows_values_are_not_swapped(claim: str, window: str, kept: str) -> None:
    result = _judge(claim, window)
    assert not result.fixes
    assert kept in claim


def test_a_not_the_window_says_with_a_free_word_is_not_dropped() -> None:
    window = "We charge interest on your arranged overdraft at 39.9% EAR. The first £250 is interest-free."
    result = _judge("You won't be charged interest on the first £250 of your overdraft.", window)
    assert not result.fixes
    assert result.extra["doubt"]


def test_pounds_and_square_feet_are_units() -> None:
    kilos = "You may bring one cabin bag weighing up to 8 kg."
    assert _judge("You can bring one cabin bag weighing up to 8 lb.", kilos).label is not Judgement.SUPPORT
    feet = "The premises comprise 1,200 square feet of ground-floor retail space."
    metres = _judge("You'd lease 1,200 square metres of ground-floor retail space.", feet)
    assert metres.label is not Judgement.SUPPORT
    assert _judge("The flat is 85 sq m.", "The flat measures 85 m².").label is Judgement.SUPPORT


@pytest.mark.parametrize(
    ("claim", "window", "fixed"),
    [
        # a review's faults: each value below is the window's, and is fixed as before
        (
            "Doses should be taken 8 hours apart.",
            "Take one tablet twice a day, 12 hours apart.",
            "Doses should be taken 12 hours apart.",
        ),
        (
            "Among patients with CHF 30% died within a year.",
            "Among patients with CHF, 20% died within a year.",
            "Among patients with CHF 20% died within a year.",
        ),
        (
            "In 2023 CHF 4 billion was invested in rail.",
            "Switzerland invested CHF 5 billion in rail in 2023.",
            "In 2023 CHF 5 billion was invested in rail.",
        ),
        (
            "Take one tablet every 4 hours.",
            "Take one tablet at intervals of 6 hours.",
            "Take one tablet every 6 hours.",
        ),
        (
            "Smokers were 3 times more likely to develop the disease.",
            "Smokers were 5 times as likely to develop the disease.",
            "Smokers were 5 times more likely to develop the disease.",
        ),
        (
            "Income above £125,140 is taxed at the 45% higher rate.",
            "Income above £125,140 is taxed at the higher rate of 40%.",
            "Income above £125,140 is taxed at the 40% higher rate.",
        ),
        (
            "Each of the 500 employees receives a bonus of £1,200.",
            "The company pays a bonus of £1,000 per employee to its 500 employees.",
            "Each of the 500 employees receives a bonus of £1,000.",
        ),
        (
            "Revenue grew 5% in 2022 and 3% in 2023.",
            "Revenue grew 5% in 2022 and 5% in 2023.",
            "Revenue grew 5% in 2022 and 5% in 2023.",
        ),
        (
            "The Act, passed in 1990 and amended in 2000, sets a limitation period of 10 years.",
            "The Act, passed in 1990 and amended in 2000, sets a limitation period of 6 years.",
            "The Act, passed in 1990 and amended in 2000, sets a limitation period of 6 years.",
        ),
        (
            "The lease runs for 15 years.",
            "The lease was signed in 2010 and renewed in 2025. The lease runs for 10 years.",
            "The lease runs for 10 years.",
        ),
    ],
)
def test_the_new_readings_leave_plain_fixes_alone(claim: str, window: str, fixed: str) -> None:
    assert _apply(claim, _judge(claim, window)) == fixed


def test_a_free_word_in_another_sentence_about_something_else_keeps_the_not_a_conflict() -> None:
    window = "The card charges interest on purchases at 24.9% APR. Transfers are interest-free for 3 months."
    result = _judge("The card does not charge interest on purchases.", window)
    assert result.label is Judgement.CONTRADICT


def test_a_duty_the_window_gives_as_a_permission_is_flagged_and_a_plain_modal_swap_still_fixed() -> None:
    # `stages.modality`: another force in other words is a conflict with no fix
    result = _judge(
        "Tenants are required to give one month's notice.",
        "Tenants may give one month's notice before leaving.",
    )
    assert result.label is Judgement.CONTRADICT and not result.fixes
    assert "modality" in result.reason
    # where every other word is the window's, `stages.swaps` fixes the word, and modality stays out of it
    claim = "Employees must take time off in lieu."
    result = _judge(claim, "Employees may take time off in lieu of overtime pay.")
    assert _apply(claim, result) == "Employees may take time off in lieu."
    assert (
        _judge("Tenants must give notice.", "Tenants are required to give notice.").label is Judgement.SUPPORT
    )


@pytest.mark.parametrize(
    ("claim", "window", "label"),
    [
        (
            "A change of driver has to be reported within two weeks.",
            "Changes of driver must be reported within 14 days.",
            Judgement.SUPPORT,
        ),
        ("SSP is paid for up to 196 days.", "SSP is paid for up to 28 weeks.", Judgement.SUPPORT),
        ("The bond runs for three years.", "The bond runs for 36 months.", Judgement.SUPPORT),
        # a wrong conversion is a value the window does not state, never fixed from another unit
        ("The bond runs for 18 months.", "The bond runs for two years.", Judgement.INSUFFICIENT),
        ("Staff work 2 days a week.", "Staff work 48 hours a week.", Judgement.INSUFFICIENT),  # a working day
        (
            "A change of driver has to be reported within three weeks.",
            "Changes of driver must be reported within 14 days.",
            Judgement.INSUFFICIENT,
        ),
    ],
)
def test_a_span_of_time_in_another_unit_is_found_where_it_converts_exactly(
    claim: str, window: str, label: Judgement
) -> None:
    result = _judge(claim, window)
    assert result.label is label and not result.fixes


def test_a_not_that_bounds_a_figure_or_a_failure_in_other_words_is_a_doubt_never_dropped() -> None:
    # "never less than four weeks" is "a minimum of four weeks": dropping "never" said the opposite
    result = _judge(
        "The employer gives one week per year of service, never less than four weeks.",
        "The employer must give one week's notice for each year of service, with a minimum of four weeks.",
    )
    assert result.label is not Judgement.CONTRADICT and not result.fixes
    # "If they don't" is "a landlord who fails to comply"
    result = _judge(
        "If they don't, they can be ordered to pay the tenant up to three times the deposit.",
        "A landlord who fails to comply may be ordered to pay the tenant up to three times the deposit.",
    )
    assert result.label is not Judgement.CONTRADICT and not result.fixes


def test_a_modal_not_the_window_says_in_other_words_is_never_dropped() -> None:
    # "mustn't contact" was made "must contact" against "is prohibited from contacting"
    result = _judge(
        "For 12 months the defendant mustn't contact the claimant directly.",
        "The defendant is prohibited from contacting the claimant directly for a period of 12 months.",
    )
    assert result.label is not Judgement.CONTRADICT and not result.fixes
    claim = "Tenants can't sublet the flat."
    assert _apply(claim, _judge(claim, "Tenants can sublet the flat.")) == "Tenants can sublet the flat."


def test_a_not_is_never_dropped_where_the_windows_sentence_denies_too() -> None:
    # the window's "not" stands over "eligible", the claim's over "claim": one denial in other words
    result = _judge(
        "With more than £16,000 you can't claim.", "Claimants with capital above £16,000 are not eligible."
    )
    assert not result.fixes


def test_a_not_of_another_clause_of_the_windows_sentence_still_lets_the_claims_not_be_dropped() -> None:
    claim = "The fee is not refundable."
    assert (
        _apply(claim, _judge(claim, "The fee is refundable and does not expire.")) == "The fee is refundable."
    )


def test_a_not_about_employees_is_never_dropped_for_a_rule_about_employers() -> None:
    # "employees" and "employers" were one word to the word reader ("employ" a prefix of "employer")
    result = _judge(
        "Employees do not have to pay the levy.", "Employers must pay the levy on their annual pay bill."
    )
    assert result.label is not Judgement.CONTRADICT
    assert result.fixes == ()


def test_an_item_given_to_the_other_party_outranks_a_window_that_leaves_it_out() -> None:
    claim = "The buyer will cover stamp duty land tax, registration fees and the agent's commission."
    result = _judge(
        claim,
        "The Seller shall bear all agent's commission and the cost of discharging any existing mortgage. "
        "The Buyer shall pay the stamp duty land tax and registration fees.",
        "The Buyer shall pay the stamp duty land tax and registration fees.",
    )
    assert result.label is Judgement.CONTRADICT
    assert result.fixes == ()
    assert "is the seller's in evidence, not the buyer's" in result.reason


def test_a_denial_said_as_x_free_or_lacks_is_no_negation_to_fix() -> None:
    result = _judge(
        "You get three penalty-free withdrawals each calendar year.",
        "Customers may make up to three withdrawals per calendar year without penalty.",
    )
    assert result.label is not Judgement.CONTRADICT and "claim says 'penalty-free'" in result.reason
    result = _judge(
        "The LPA can only be used once the donor no longer has the mental capacity to decide.",
        "The lasting power of attorney can only be used once the donor lacks mental capacity to decide.",
    )
    assert result.label is not Judgement.CONTRADICT and result.fixes == ()


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The buyer receives the keys on completion.", "The Seller shall hand over the keys on completion."),
        (
            "The policyholder is covered for accidental damage to the home.",
            "The Insurer will cover accidental damage to the home.",
        ),
        (
            "The tenant gets a copy of the gas safety certificate at the start of the tenancy.",
            "The Landlord shall provide a copy of the gas safety certificate at the start of the tenancy.",
        ),
        (
            "The employee is paid monthly in arrears by bank transfer.",
            "The Employer shall pay the salary monthly in arrears by bank transfer.",
        ),
        (
            "The landlord collects the rent monthly in advance.",
            "The Tenant shall pay the rent monthly in advance.",
        ),
        (
            "Landlords can take a holding deposit of up to one week's rent.",
            "The Tenant Fees Act 2019 caps holding deposits at one week's rent.",
        ),
        (
            "Tenant deposits are protected in a government-approved scheme within 30 days.",
            "The Landlord shall protect the deposit in a government-approved scheme within 30 days.",
        ),
        (
            "Employee benefits include private medical insurance and a company car.",
            "The Employer provides benefits including private medical insurance and a company car.",
        ),
        (
            "The landlord keeps a copy of the inventory.",
            "The Landlord and the Tenant shall each keep a copy of the inventory.",
        ),
        (
            "The buyer pays its own solicitor's fees.",
            "The Seller shall pay its own solicitor's fees. "
            "The Buyer's solicitor's fees are payable by the Buyer.",
        ),
        (
            "Women can experience hot flushes during menopause.",
            "Many women experience hot flushes during menopause.",
        ),
        ("Patients may be able to go home the same day.", "Most patients can go home the same day."),
        (
            "Common side effects include headache and nausea.",
            "Most common side effects include headache and nausea.",
        ),
        (
            "Foods like grapefruit can affect how the medicine works.",
            "Some foods, like grapefruit, can affect how the medicine works.",
        ),
        ("Conditions apply to refunds.", "Certain conditions apply to refunds."),
        (
            "Patients are discharged within 48 hours.",
            "Most patients go home the same day, and all patients are discharged within 48 hours.",
        ),
        (
            "Our branches are open on weekdays.",
            "Many of our branches are open on Saturdays. All of our branches are open on weekdays.",
        ),
        ("The rate on the Monthly Saver is 5%.", "The Monthly Saver pays 5% a year, fixed for 12 months."),
        (
            "The monthly interest option pays 4.45% a year.",
            "The monthly interest option is 4.45% AER, fixed until 2026.",
        ),
        (
            "Tell your doctor if anyone in your family has had heart problems.",
            "Tell your doctor if some members of your family have had heart problems.",
        ),
        (
            "You should never share your PIN with anyone, because some fraudsters pose as bank staff.",
            "Keep your PIN secret and never share it with others, "
            "because some fraudsters pose as bank staff.",
        ),
        (
            "If your liver is working normally, you can often take the standard dose.",
            "People with mild liver problems can often take the standard dose.",
        ),
        (
            "Payments are generally made on the first working day of the month.",
            "Payments are always made on the first working day of the month.",
        ),
        ("Symptoms often improve within a week.", "Symptoms usually improve within a week."),
    ],
)
def test_correct_claims_a_review_found_flagged_by_the_group_party_and_quantifier_readers(
    claim: str, window: str
) -> None:
    # what it receives is no duty ("receives the keys"), a compound is no party ("Employee benefits"),
    # a joint or passive duty is its own; a hedged claim or examples say no more than a part; "Most
    # common" is a superlative; a rate's period is read only after it; "anyone" after "if" is no
    # "all"; a weaker hedge in other words is no flag
    result = _judge(claim, window)
    assert result.label is not Judgement.CONTRADICT, result.reason
    assert result.label is not Judgement.INSUFFICIENT or "quantifier" not in result.reason


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        (
            "Common symptoms include fever, cough and headaches.",
            "Common symptoms include fever, cough and headaches. Some headaches last several days.",
        ),
        (
            "The fund invests in government bonds and shares in large UK companies.",
            "The fund invests in government bonds and shares in large UK companies. Most shares in "
            "large UK companies pay a dividend.",
        ),
        (
            "The tenant is responsible for the water rates after the first month.",
            "The Landlord shall pay the water rates for the first month; thereafter the Tenant shall "
            "be responsible for them.",
        ),
        (
            "The policyholder pays the policy excess.",
            "The insurer will pay for repairs to your car, minus the policy excess. You pay the "
            "policy excess directly to the garage.",
        ),
        (
            "The buyer must also obtain building insurance.",
            "The Seller shall maintain building insurance until completion. From exchange, the Buyer "
            "must do likewise.",
        ),
        (
            "The buyer pays its own legal fees.",
            "The Seller shall pay the agent's commission and its own legal fees. Each party shall "
            "bear its own legal fees.",
        ),
        (
            "The employee will be eligible for private medical insurance and a company car.",
            "The Employer shall provide private medical insurance and a company car.",
        ),
        (
            "The employee will be offered private medical insurance.",
            "The Employer shall provide private medical insurance and a company car.",
        ),
        (
            "Employees will have access to private medical insurance.",
            "The Employer shall provide private medical insurance and a company car.",
        ),
        (
            "The employee will be issued a company laptop and mobile phone.",
            "The Employer shall provide a company laptop and mobile phone to the employee.",
        ),
        (
            "The buyer pays VAT on the purchase price.",
            "The seller will charge VAT on the purchase price at the standard rate.",
        ),
        (
            "The tenant must pay a deposit of five weeks' rent.",
            "The landlord will take a deposit of five weeks' rent and protect it in a scheme.",
        ),
        (
            "The borrower will be charged an early repayment fee.",
            "The lender shall charge an early repayment fee of 2%.",
        ),
        (
            "The tenant is responsible for changing light bulbs and smoke alarm batteries.",
            "The Landlord is responsible for all repairs except changing light bulbs and smoke alarm "
            "batteries, which the Tenant must do.",
        ),
        (
            "Our current accounts have no monthly fee.",
            "Many current accounts charge a monthly fee, but our current accounts have no monthly fee.",
        ),
        (
            "Proof of identity is required to open an account.",
            "Some proof of identity is required to open an account.",
        ),
        (
            "Discomfort is common for a day or two after the injection.",
            "Some discomfort is common for a day or two after the injection.",
        ),
        (
            "Two thirds of patients respond to the first treatment.",
            "Some two thirds of patients respond to the first treatment.",
        ),
        (
            "Patients are discharged within 5 days.",
            "Most patients are discharged within 2 days. All patients leave hospital within 5 days.",
        ),
        (
            "Patients recover within a week of surgery in the majority of cases.",
            "Most patients recover within a week of surgery.",
        ),
        (
            "Women are prone to hot flushes during menopause.",
            "Many women experience hot flushes during menopause.",
        ),
        (
            "Ibuprofen is usually taken with food.",
            "Ibuprofen, commonly sold as Nurofen, should be taken with food.",
        ),
        (
            "Savings accounts typically pay interest monthly.",
            "Savings accounts, often called deposit accounts, pay interest monthly.",
        ),
        (
            "Refunds are usually processed within 5 days.",
            "Refunds, as explained in our frequently asked questions, are processed within 5 days.",
        ),
        (
            "Public companies always report under generally accepted accounting principles.",
            "Public companies must report under generally accepted accounting principles.",
        ),
        (
            "Patients usually recover within a week.",
            "Most patients recover within a week, though older patients often take longer to recover.",
        ),
    ],
)
def test_correct_claims_a_second_review_found_flagged_or_fixed(claim: str, window: str) -> None:
    # a list's "and" opens no group; a duty said by pronoun, to "you", "likewise" or to each party is
    # the window's own; what a party is offered, charged or takes is no duty; an excepted item is not
    # the other party's; "our accounts" are not "many accounts"; "Some discomfort", "Some two thirds"
    # are no part; figures must agree; "commonly sold as", "often called", "frequently asked",
    # "generally accepted" are names; the claim's grade said anywhere in the clause agrees
    result = _judge(claim, window)
    assert result.label is not Judgement.CONTRADICT, result.reason
    assert result.fixes == ()

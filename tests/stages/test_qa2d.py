from __future__ import annotations

import pytest

from workers.messages import Claim
from workers.stages.extract import extract_claims
from workers.stages.qa2d import (
    answer_stated,
    fragment_span,
    qa_statement,
    read_with_question,
    unstated_answer,
    with_question,
)


@pytest.mark.parametrize(
    ("question", "answer", "expected"),
    [
        # the question word in place
        ("The Oberoi Group has a head office in what city?", "Delhi",
         "The Oberoi Group has a head office in Delhi"),
        ("Cadmium chloride is also called what?", "alcohol", "Cadmium chloride is also called alcohol"),
        ("Milhouse, who Matt Groening named after who?", "Richard Nixon",
         "Milhouse, who Matt Groening named after Richard Nixon"),
        ("Lee Jun-fan played what character in \"The Green Hornet\"?", "Kato",
         "Lee Jun-fan played Kato in \"The Green Hornet\""),
        ("The song spent how many weeks at No. 1?", "nine", "The song spent nine weeks at No. 1"),
        ("The railway was built to use what kind of track?", "standard gauge",
         "The railway was built to use standard gauge"),
        # a subject question
        ("Who founded Acme?", "Ann Lee", "Ann Lee founded Acme"),
        ("Which magazine was started first?", "Arthur's Magazine",
         "Arthur's Magazine, the magazine, was started first"),
        ("What U.S. highway gives access to Zilpo Road?", "US 60",
         "US 60, the U.S. highway, gives access to Zilpo Road"),
        # an inverted question
        ("What is the capital of France?", "Paris", "The capital of France is Paris"),
        ("What nationality was James Miller's wife?", "American", "James Miller's wife was American"),
        ("When was the Eiffel Tower built?", "1889", "The Eiffel Tower was built in 1889"),
        ("In what year was the creator born?", "1941", "The creator was born in 1941"),
        ("In which game was Malcolm Smith named MVP?", "Super Bowl XLVIII",
         "Malcolm Smith was named MVP in Super Bowl XLVIII"),
        ("Where did the style played by Die Band originate?", "Vienna",
         "The style played by Die Band did originate in Vienna"),
        ("How old is the protagonist of Catching Fire?", "16", "The protagonist of Catching Fire is 16"),
        # only the last sentence is the question
        ("Pauline Henry sang a cover song. Who wrote the song?", "Bono",
         "Pauline Henry sang a cover song. Bono wrote the song"),
    ],
)  # fmt: skip
def test_a_question_and_its_answer_make_a_statement(question: str, answer: str, expected: str) -> None:
    assert qa_statement(question, answer) == expected


@pytest.mark.parametrize(
    ("question", "answer"),
    [
        ("Are both bands American?", "yes"),  # yes / no: nothing to put in a question word's place
        ("Summarize the document.", "Paris"),  # no question word
        ("How did the war end?", "badly"),  # "how" asks for a manner, not a value
        ("", "Paris"),
        ("What is the capital of France?", ""),
    ],
)
def test_nothing_is_made_where_the_question_does_not_parse(question: str, answer: str) -> None:
    assert qa_statement(question, answer) is None


@pytest.mark.parametrize(
    ("answer", "span"),
    [
        ("Paris", (0, 5)),
        ("  1998.", (2, 6)),
        ("Mumbai, the financial capital of India.", (0, 38)),
        ("The Beatles", (0, 11)),
    ],
)
def test_a_verbless_answer_of_one_sentence_is_a_fragment(answer: str, span: tuple[int, int]) -> None:
    assert fragment_span(answer) == span


@pytest.mark.parametrize(
    "answer",
    [
        "Paris is the capital of France.",
        "Paris. It is big.",
        "Bristly Bellflowers prefer mostly sunny areas.",  # a verb in its base form
        "",
        " ... ",
    ],
)
def test_a_statement_or_several_sentences_is_no_fragment(answer: str) -> None:
    assert fragment_span(answer) is None


def test_a_fragment_answer_becomes_one_claim_read_with_its_question() -> None:
    answer = "Paris"
    claims = with_question(extract_claims(answer), answer, question="What is the capital of France?")
    assert [(c.id, c.text, c.start, c.end, c.standalone) for c in claims] == [
        ("c0", "Paris", 0, 5, "The capital of France is Paris")
    ]


def test_the_claim_keeps_the_offsets_of_the_fragment_as_written() -> None:
    answer = " Mumbai, the financial capital of India."
    question = "The Oberoi Group has a head office in what city?"
    [claim] = with_question(extract_claims(answer), answer, question=question)
    assert answer[claim.start : claim.end] == claim.text == "Mumbai, the financial capital of India"
    assert claim.standalone == "The Oberoi Group has a head office in Mumbai, the financial capital of India"


def test_an_unparsed_question_still_frames_the_fragment() -> None:
    [claim] = with_question([], "no", question="Are both bands American?")
    assert (claim.text, claim.standalone) == ("no", "Are both bands American? no")


@pytest.mark.parametrize(
    ("answer", "question"),
    [
        ("Paris is the capital of France.", "What is the capital of France?"),  # a statement already
        ("Paris. Lyon.", "What is the capital of France?"),  # two sentences
        ("Paris", "Summarize the document."),  # no question
        ("Paris", ""),
    ],
)
def test_other_answers_keep_the_claims_extraction_made(answer: str, question: str) -> None:
    claims = extract_claims(answer)
    assert with_question(claims, answer, question=question) == claims


def test_a_fragment_extraction_split_in_two_is_left_alone() -> None:
    split = [Claim(id="c0", text="Paris", start=0, end=5), Claim(id="c1", text="Lyon", start=10, end=14)]
    assert with_question(split, "Paris and Lyon", question="Which cities?") == split


def test_a_claim_read_with_its_question_is_told_from_a_resolved_pronoun() -> None:
    fragment = Claim(id="c0", text="Paris", start=0, end=5, standalone="The capital of France is Paris")
    pronoun = Claim(id="c1", text="It is big", start=0, end=9, standalone="Paris is big")
    plain = Claim(id="c2", text="Paris is big", start=0, end=12)
    assert [read_with_question(c) for c in (fragment, pronoun, plain)] == [True, False, False]


@pytest.mark.parametrize(
    ("answer", "sources", "stated"),
    [
        ("Lucy Liu", ["The film starred Drew Barrymore and Cameron Diaz."], False),
        ("Cameron Diaz", ["The film starred Drew Barrymore and Cameron Diaz."], True),
        ("Hans-Dieter Flick", ["Hansi Flick coached the team."], False),
        ("the Executioner’s Song", ["He wrote The Executioner's Song in 1979."], True),
        ("1,000 metres", ["a climb of 1,000 metres"], True),
        ("1,200 metres", ["a climb of 1,000 metres"], False),
        ("Cameron Diaz", ["Cameron Smith.", "Maria Diaz."], False),  # both words, never in one source
        ("yes", ["Both bands are from Texas."], True),  # nobody states a bare yes / no
        ("Yes, Texas", ["Both bands are from Texas."], True),
        ("Yes, Texas", ["Both bands are from Ohio."], False),
        # spelling is no absence: accents, possessives, hyphenated parts, digit groups
        ("Zürich", ["He moved to Zurich."], True),
        ("John Smith", ["John Smith's first car"], True),
        ("Paris", ["a Paris-based firm"], True),
        ("1000 metres", ["a climb of 1,000 metres"], True),
        ("no", [], True),
    ],
)
def test_a_short_answer_is_stated_when_one_source_holds_all_its_words(
    answer: str, sources: list[str], stated: bool
) -> None:
    assert answer_stated(answer, sources) is stated


def test_a_fragment_no_source_states_becomes_a_claim_and_one_stated_is_left_unchecked() -> None:
    question, sources = "Who starred in the film?", ["The film starred Cameron Diaz."]
    [claim] = unstated_answer([], "Lucy Liu", question=question, sources=sources)
    assert (claim.text, claim.standalone) == ("Lucy Liu", "Lucy Liu starred in the film")
    assert unstated_answer([], "Cameron Diaz", question=question, sources=sources) == []
    text = "Lucy Liu starred in it."  # a statement: extraction's claims, checked as usual
    claims = extract_claims(text)
    assert unstated_answer(claims, text, question=question, sources=sources) == claims

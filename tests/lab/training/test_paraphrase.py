from __future__ import annotations

from lab.training.paraphrase import (
    drop_adverbial,
    drop_appositive,
    drop_parenthetical,
    paraphrases,
    split_clause,
    swap_synonym,
)


def test_parenthetical_is_dropped() -> None:
    assert drop_parenthetical("Allie Goertz (born March 2, 1991) is an American musician.") == (
        "Allie Goertz is an American musician."
    )
    assert drop_parenthetical("Allie Goertz is an American musician.") is None


def test_relative_clause_and_appositive_are_dropped_only_before_the_verb() -> None:
    assert (
        drop_appositive("Acme, which was founded in 1990, acquired Beta in 2005.")
        == "Acme acquired Beta in 2005."
    )
    assert drop_appositive("Acme, a software firm, acquired Beta in 2005.") == "Acme acquired Beta in 2005."
    # cutting ", who lives in the future," here would break the sentence
    assert drop_appositive("It is told by Katniss, who lives in the future, post-apocalyptic Panem.") is None


def test_leading_adverbial_is_dropped_and_recapitalised() -> None:
    assert drop_adverbial("In 2010, the company purchased a factory in Ohio.") == (
        "The company purchased a factory in Ohio."
    )
    assert drop_adverbial("On the morning of September 19, 1905, the balloon ascended.") is None


def test_a_clause_that_is_a_claim_by_itself() -> None:
    sentence = "The company purchased a factory in Ohio, and it hired 300 workers there."
    assert split_clause(sentence, 0) == "The company purchased a factory in Ohio."
    assert split_clause(sentence, 1) == "It hired 300 workers there."
    # a "; " inside brackets is no clause boundary
    assert split_clause("Ike (born 1890; died 1969) was an American general and president.") is None


def test_synonym_swap() -> None:
    assert swap_synonym("The company purchased a factory in Ohio.") == "The company bought a factory in Ohio."
    assert swap_synonym("It was a book about the war.") is None  # "about" only before a number


def test_paraphrases_never_return_the_sentence() -> None:
    sentence = "In 2010, Acme (a US firm) purchased a factory in Ohio, and it hired 300 workers there."
    out = paraphrases(sentence)
    assert {"parenthetical", "adverbial", "span", "synonym"} <= set(out)
    assert sentence not in out.values()

"""Nationalities said in another order than the window's, and every case where the rule keeps quiet."""

from __future__ import annotations

import pytest

from workers.stages.nationality import nationality_clashes

MONTANA = "Excuse My French is the debut studio album by American rapper French Montana ."


def test_a_nationality_before_the_same_word_for_the_named_subject_is_a_clash() -> None:
    [clash] = nationality_clashes("French Montana is a Hungarian rapper", MONTANA)
    assert (clash.wrong, clash.right, clash.word) == ("Hungarian", "American", "rapper")
    assert "French Montana is a Hungarian rapper"[clash.start : clash.end] == "Hungarian"


def test_the_describing_word_may_come_a_few_words_after_the_windows_nationality() -> None:
    window = "The Thicket is a mystery novel written by American crime author Joe R. Lansdale ."
    [clash] = nationality_clashes("The Thicket was written by Joe R. Lansdale, a Mexican author", window)
    assert (clash.wrong, clash.right) == ("Mexican", "American")


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window says the claim's nationality too: which one is meant is not certain
        ("French Montana is a Hungarian rapper", MONTANA + " His father was Hungarian ."),
        # the sentence with the other nationality does not name the claim's subject
        ("French Montana is a Hungarian rapper", "Drake is an American rapper . French Montana sang ."),
        # two nationalities for the word: no one value to put in
        ("French Montana is a Hungarian rapper", "French Montana is a Moroccan and American rapper ."),
        # a negation is the negation rule's business
        ("French Montana is not a Hungarian rapper", MONTANA),
        # no describing word after the claim's nationality
        ("French Montana is Hungarian and young", MONTANA),
        ("French Montana is Hungarian; rapper by trade", MONTANA),
        # the window's nationality is in the claim already
        ("French Montana, an American, is a Hungarian rapper", MONTANA),
        # a lower-case "american" is no nationality the claim wrote
        ("French Montana is a hungarian rapper", MONTANA),
        # the window's phrase belongs to someone else in the sentence (a reviewer's probes)
        (
            "Barack Obama, the American president, met Xi Jinping in Beijing.",
            "Barack Obama met the Chinese president Xi Jinping in Beijing.",
        ),
        (
            "Usain Bolt is a Jamaican sprinter.",
            "usain bolt beat american sprinter justin gatlin in the final .",
        ),
        (
            "Anna Kovacs is a Hungarian tennis player.",
            "Anna Kovacs lost to American tennis player Serena Williams.",
        ),
        ("Pope Francis is an Argentine priest.", "Pope Francis met the Italian priest in Rome."),
        (
            "Usain Bolt, the Jamaican sprinter, won gold in Beijing in 2008.",
            "In Beijing in 2008, the American sprinter Tyson Gay finished fifth.",
        ),
        (
            "Lionel Messi is an Argentine footballer.",
            "lionel messi won the spanish league , the footballer said .",
        ),
        ("Sam Smith is an English singer.", "Sam Smith sang in Spanish, the singer said."),
        # a second reviewer's: a capitalised word is no modifier; a name must be whole and open its
        # clause; a modifier before the nationality only after an article; the phrase must end
        ("Novak Djokovic is a Serbian champion.", "Australian Open champion Novak Djokovic won again."),
        ("Will Smith is a Canadian actor.", "Jaden Smith, the son of Will Smith, is an American actor."),
        ("French Montana is a Hungarian rapper.", "American rapper French Montana Jr. signed."),
        ("Tom Smith is a Canadian rapper.", "The brother of Tom Smith is an American rapper."),
        ("Tom Smith is managing Canadian rapper Bob Jones.", "Tom Smith is an American rapper."),
        ("Tom Smith is a Canadian rapper.", "Tom Smith, an American rapper fan, sang."),
        ("Rafael Nadal is a Spanish champion.", "french open champion rafael nadal won , again , today ."),
        # a compound names the claim's nationality; one nationality inside the other
        ("Idris Elba is an American actor.", "Idris Elba is an American-born British actor."),
        (
            "Arnold Schwarzenegger is an Austrian actor.",
            "Arnold Schwarzenegger is an Austrian-born American actor.",
        ),
        ("Andy Murray is a British tennis player.", "andy murray , the scottish tennis player , won ."),
    ],
)
def test_no_clash_where_the_window_says_no_one_other_nationality(claim: str, window: str) -> None:
    assert nationality_clashes(claim, window) == []


def test_a_last_name_names_the_subject_and_a_lower_case_window_gives_a_capitalised_value() -> None:
    window = "christopher eubank ( born 1966 ) is a british former professional boxer ."
    [clash] = nationality_clashes("Chris Eubank is a Jamaican professional boxer", window)
    assert (clash.wrong, clash.right) == ("Jamaican", "British")


def test_a_lower_case_nationality_counts_only_in_a_sentence_written_all_in_lower_case() -> None:
    window = "Chris Eubank likes british food ."
    assert nationality_clashes("Chris Eubank likes Jamaican food", window) == []


def test_the_name_may_come_before_the_phrase_with_an_aside_in_brackets() -> None:
    window = "Christopher Livingstone Eubank ( born 8 August 1966 ) is a British former professional boxer ."
    [clash] = nationality_clashes("Chris Eubank is a Jamaican professional boxer", window)
    assert (clash.wrong, clash.right) == ("Jamaican", "British")
    [clash] = nationality_clashes(
        "Joe Lansdale is a Mexican author", "Joe Lansdale, an American author, wrote it."
    )
    assert clash.right == "American"
    # an aside between commas, on the claim's side
    [clash] = nationality_clashes(
        "Chris Eubank, born in 1966, is a former Jamaican professional boxer", window
    )
    assert (clash.wrong, clash.right) == ("Jamaican", "British")

from __future__ import annotations

import pytest

from workers.stages.roles import holder_named, role_clashes

TRUMP = "Donald Trump was the 45th president of the United States."


def _others(claim: str, window: str) -> list[str]:
    return [c.other.text for c in role_clashes(claim, window)]


def test_the_same_role_given_to_another_person_clashes() -> None:
    [clash] = role_clashes(TRUMP, "Hillary Clinton was the 45th president of the United States.")
    assert (clash.holder.text, clash.other.text) == ("Donald Trump", "Hillary Clinton")
    assert TRUMP[clash.holder.start : clash.holder.end] == "Donald Trump"
    assert clash.role == "the 45th president of the United States"


def test_a_paraphrased_copula_and_a_leading_date_still_clash() -> None:
    window = "It was a long race. In 2017, Hillary Clinton served as the 45th President of the United States."
    assert _others(TRUMP, window) == ["Hillary Clinton"]
    assert _others(TRUMP, "Hillary Clinton became the 45th president of the United States from 2017.") == [
        "Hillary Clinton"
    ]


def test_the_same_holder_is_no_clash() -> None:
    assert _others(TRUMP, TRUMP) == []
    assert _others(TRUMP, "President Donald Trump served as the 45th president of the United States.") == []


@pytest.mark.parametrize(
    "window",
    [
        "Barack Obama was the 44th president of the United States.",  # another ordinal: another role
        "Hillary Clinton met the 45th president of the United States in 2017.",  # no copula: a mention
        "Hillary Clinton was not the 45th president of the United States.",  # denied, not stated
        "If Hillary Clinton was the 45th president of the United States, things would differ.",
        "Hillary Clinton was the 45th president of the United States Golf Association.",  # another role
        "Hillary Clinton was a senator. She lost to the 45th president of the United States.",
        "Trump beat her, and Hillary Clinton was the 45th president of the United States in a novel.",
    ],
)
def test_other_roles_mentions_and_denials_are_no_clash(window: str) -> None:
    assert _others(TRUMP, window) == []


def test_a_window_naming_the_claims_holder_anywhere_is_no_clash() -> None:
    window = "Hillary Clinton was the 45th president of the United States. Trump disagreed."
    assert _others(TRUMP, window) == []
    assert holder_named(TRUMP, "Mr Trump's rival")
    assert not holder_named(TRUMP, "Hillary Clinton spoke.")


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("Tim Cook was the CEO of Apple.", "Steve Jobs was the CEO of Apple."),  # held in turn
        ("Tim Cook is the CEO of Apple.", "Steve Jobs was the CEO of Apple."),  # a past holder
        ("Tim Cook is the CEO of Apple.", "Satya Nadella is the CEO of Microsoft."),  # another firm
        ("Ann Lee is the author of a book.", "Frank Herbert is the author of a book."),  # nothing named
        ("Larry Page was the founder of Google.", "Sergey Brin was the founder of Google."),  # several
        ("Ann Lee was a president of the club.", "Bo Chan was a president of the club."),  # indefinite
        ("Ann Lee is the oldest member of Congress.", "Bo Chan is the oldest member of Congress."),
        ("Ann Lee was one of the founders of Acme.", "Bo Chan was one of the founders of Acme."),
    ],
)
def test_roles_that_several_hold_are_no_clash(claim: str, window: str) -> None:
    assert _others(claim, window) == []


def test_one_off_and_current_roles_clash() -> None:
    assert _others("Ann Lee is the author of Dune.", "Frank Herbert was the author of Dune.") == [
        "Frank Herbert"
    ]
    assert _others("Sydney is the capital of Australia.", "Canberra is the capital of Australia.") == [
        "Canberra"
    ]
    assert _others("Tim Cook is the CEO of Apple.", "Satya Nadella is the CEO of Apple.") == ["Satya Nadella"]


def test_a_holder_of_another_kind_is_no_clash() -> None:
    window = "Acme Corporation was the 45th president of the United States."
    assert _others(TRUMP, window) == []


def test_a_name_the_claim_uses_is_no_other_holder() -> None:
    claim = "Donald Trump was the 45th president of the United States after Hillary Clinton."
    assert _others(claim, "Hillary Clinton was the 45th president of the United States.") == []

"""Hard cases from real sentences: modality, conditions, similar-but-irrelevant windows."""

from __future__ import annotations

import random

from lab.training.hardcases import add_condition, change_modality, hard_cases, similar_window


def test_a_permission_becomes_a_duty() -> None:
    changed = change_modality("Members may withdraw their savings at any time.", random.Random(0))
    assert changed is not None
    assert "may" not in changed.split()
    assert changed.startswith("Members ") and changed.endswith("withdraw their savings at any time.")


def test_a_sentence_without_a_modal_gives_nothing() -> None:
    assert change_modality("The bank opened 35 new branches in Ohio.", random.Random(0)) is None


def test_a_condition_and_its_opposite_differ_only_at_the_end() -> None:
    made = add_condition("Early repayment of the loan is permitted.", random.Random(1))
    assert made is not None
    with_it, without = made
    assert with_it.startswith("Early repayment of the loan is permitted, ")
    assert without.startswith("Early repayment of the loan is permitted ")
    assert with_it != without


def test_the_similar_window_shares_words_but_not_the_figure() -> None:
    sentence = "The bank opened 35 new branches in Ohio in 2021."
    windows = [
        "The bank opened 35 new branches in Ohio in 2021. It hired staff.",
        "The bank closed old branches in Ohio and opened offices in 2019.",
        "Weather in spring is mild.",
    ]
    assert similar_window(sentence, windows) == windows[1]


def test_hard_cases_are_labelled_and_seeded() -> None:
    doc = (
        "Customers may close their account online. The fee is 2% of the balance. "
        "Transfers can take three days. The bank opened 35 branches in Ohio in 2021. "
        "The bank closed some branches in Ohio in 2019."
    )
    first = hard_cases([doc], seed=3, share=1.0)
    assert first == hard_cases([doc], seed=3, share=1.0)
    labels = {p.source: p.label for p in first}
    assert labels.get("synthetic:modality") == "CONTRADICT"
    assert all(p.label in ("SUPPORT", "CONTRADICT", "NEUTRAL") for p in first)

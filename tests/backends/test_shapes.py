"""Conflicts read from one narrow shape of text become fixes the checker weighs."""

from __future__ import annotations

from workers.backends.shapes import (
    charge_conflicts,
    direction_conflicts,
    nationality_conflicts,
    rank_conflicts,
    role_conflicts,
)
from workers.stages.align import Parsed

MONTANA = Parsed.of("Excuse My French is the debut studio album by American rapper French Montana.")
CLAIM = Parsed.of("French Montana is a Hungarian rapper.")


def test_a_nationality_conflict_carries_the_windows_nationality_as_its_fix() -> None:
    [conflict] = nationality_conflicts(CLAIM, MONTANA, set())
    [fix] = conflict.fixes
    assert (fix.wrong, fix.right) == ("Hungarian", "American")
    assert CLAIM.text[fix.start : fix.end] == "Hungarian"
    assert "nationality before 'rapper'" in conflict.reason


def test_a_nationality_already_fixed_or_stated_elsewhere_is_left_alone() -> None:
    assert nationality_conflicts(CLAIM, MONTANA, {CLAIM.text.index("Hungarian")}) == []


def test_roles_and_charges_come_with_the_windows_words() -> None:
    [role] = role_conflicts(
        Parsed.of("Donald Trump was the 45th president of the United States."),
        Parsed.of("Hillary Clinton served as the 45th President of the United States."),
    )
    assert [(f.wrong, f.right) for f in role.fixes] == [("Donald Trump", "Hillary Clinton")]
    [charge] = charge_conflicts(
        Parsed.of("Early repayment is allowed without penalty."),
        Parsed.of("Early repayment is permitted subject to a 1% prepayment fee."),
    )
    assert charge.fixes and charge.fixes[0].right.startswith("subject to a 1% prepayment fee")


def test_a_movement_the_other_way_is_fixed_only_where_the_word_fits() -> None:
    window = "The Fed cut rates in June."
    [fixed] = direction_conflicts(
        Parsed.of("The Fed raised rates in June."), Parsed.of(window), (0, len(window))
    )
    assert [(f.wrong, f.right) for f in fixed.fixes] == [("raised", "cut")]
    assert "direction: 'raised' in claim, 'cut' in evidence" in fixed.reason
    window = "The Fed raised rates in June."
    [flagged] = direction_conflicts(
        Parsed.of("The Fed will cut rates in June."), Parsed.of(window), (0, len(window))
    )
    assert flagged.fixes == ()


def test_a_rank_conflict_carries_the_windows_rank_and_a_dated_one_none() -> None:
    claim = Parsed.of("Acme is Spain's largest bank.")
    [conflict] = rank_conflicts(claim, Parsed.of("Acme is Spain's second-largest bank."), (0, 36))
    [fix] = conflict.fixes
    assert (fix.wrong, fix.right) == ("largest", "second-largest")
    dated = Parsed.of("In 2024 Acme was Spain's second-largest bank.")
    [flag] = rank_conflicts(claim, dated, (0, len(dated.text)))
    assert flag.fixes == () and "rank: 'largest' in claim" in flag.reason

from __future__ import annotations

from workers.stages.align import Pair, Parsed, pair_slots
from workers.stages.guises import counts_alike, loosened, unpaired_if_counted_apart


def _pairs(claim: str, window: str) -> tuple[Parsed, Parsed, list[Pair]]:
    c, e = Parsed.of(claim), Parsed.of(window)
    return c, e, [loosened(p, c, e) for p in pair_slots(c, e)]


def test_a_count_of_the_same_thing_is_a_rival() -> None:
    c, e, pairs = _pairs("The fund has three managers.", "The fund has five managers.")
    [pair] = pairs
    assert pair.other is not None and pair.other.text == "five" and not pair.equal
    assert counts_alike(pair, c, e)


def test_a_count_word_is_no_rival_to_a_number_of_something_else() -> None:
    c, e, pairs = _pairs(
        "The amendment to Article 8, section 4, is one of the propositions this year.",
        "There will be two propositions for voters to consider this year.",
    )
    rivals = [p for p in pairs if p.other is not None and p.other.text == "two"]
    assert rivals and not any(counts_alike(p, c, e) for p in rivals)


def test_digits_against_digits_are_left_to_the_aligner() -> None:
    c, e, pairs = _pairs("The company has 3 offices.", "The company has 4 offices.")
    assert all(counts_alike(p, c, e) for p in pairs)


def test_a_claim_count_in_digits_is_found_spelled_out() -> None:
    _, _, pairs = _pairs("Locke signed a 3-year deal.", "Locke signed a three-year deal.")
    assert all(p.equal for p in pairs)


def test_an_equal_count_of_another_thing_is_not_found() -> None:
    c, e = Parsed.of("Four female justices have served."), Parsed.of("Four are currently serving.")
    [pair] = pair_slots(c, e)
    assert pair.equal  # the aligner matches the values...
    undone = unpaired_if_counted_apart(pair, c, e)
    assert undone.other is None and not undone.equal  # ...but they count different things
    same = Parsed.of("Four female justices are serving.")
    [kept] = pair_slots(c, same)
    assert unpaired_if_counted_apart(kept, c, same).equal

from __future__ import annotations

import pytest

from workers.stages.modality import forces, modal_clashes, said_alike


@pytest.mark.parametrize(
    ("text", "force", "verb"),
    [
        ("Tenants are required to give notice.", "must", "give"),
        ("The supplier has to keep its records.", "must", "keep"),
        ("Members are entitled to transfer out.", "may", "transfer"),
        ("Applicants need not attend.", "need not", "attend"),
        ("You do not have to stop taking it.", "need not", "stop"),
        ("The bank is not obliged to allow it.", "need not", "allow"),
        ("Staff are prohibited from wearing rings.", "must not", "wear"),
        ("Tenants are not allowed to sublet.", "must not", "sublet"),
        ("You can't withdraw early.", "must not", "withdraw"),
        ("The deposit must be paid within 7 days.", "must", "paid"),
        ("Patients should also avoid alcohol.", "should", "avoid"),
    ],
)
def test_a_phrase_is_read_as_its_force_over_its_action(text: str, force: str, verb: str) -> None:
    [modal] = forces(text)
    assert (modal.force, modal.verb) == (force, verb)


def test_a_force_under_another_modal_is_no_force_and_a_month_is_no_modal() -> None:
    assert [m.force for m in forces("The tenant may be required to pay the fee.")] == ["may"]
    assert forces("Patients may need to stop taking it.") == []
    assert forces("You may not have to pay a fee.") == []
    assert forces("The rules changed in May last year.") == []


@pytest.mark.parametrize(
    ("claim", "window", "mine", "theirs"),
    [
        (
            "Tenants are required to give one month's notice.",
            "Tenants may give one month's notice before leaving.",
            "are required to",
            "may",
        ),
        (
            "Employees are allowed to carry over five days of leave.",
            "Employees must use all leave by 31 December; they may not carry over unused days.",
            "are allowed to",
            "may not",
        ),
        (
            "Applicants need not attend an interview.",
            "All applicants must attend an interview in person.",
            "need not",
            "must",
        ),
        (
            "You must stop taking the medicine before dental treatment.",
            "You do not need to stop taking it before dental treatment.",
            "must",
            "do not need to",
        ),
    ],
)
def test_a_force_the_window_says_otherwise_of_the_same_action_clashes(
    claim: str, window: str, mine: str, theirs: str
) -> None:
    [clash] = modal_clashes(claim, window)
    assert (clash.claim, clash.window) == (mine, theirs)
    assert claim[clash.start : clash.end] == mine


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the same force in other words
        (
            "Applicants must attend an interview.",
            "All applicants are required to attend an interview in person.",
        ),
        # a permission is no duty, and no duty is a permission
        ("Members need not transfer their pot.", "Members may transfer their pot at any time."),
        # a leaflet's "should" is its rule
        (
            "Once opened it has to be used within 28 days.",
            "Once opened, the bottle should be used within 28 days.",
        ),
        # the window also says the claim's force of that action (another party's rule first)
        (
            "You may give one month's notice.",
            "The landlord must give two months' notice; the tenant may give one month's notice.",
        ),
        # another action, or another party
        ("Tenants must repair the boiler.", "Tenants may decorate the boiler cupboard."),
        (
            "The landlord may inspect the garden.",
            "The tenant must maintain the garden; the agent must inspect it.",
        ),
        # the window's force is itself uncertain
        ("The tenant must pay the fee.", "The tenant may be required to pay the fee."),
        # too little of the claim in the window's sentence
        ("Employers must pay the levy on bonuses.", "Charities may pay in instalments."),
    ],
)
def test_no_clash_where_the_forces_agree_or_the_action_is_not_the_same(claim: str, window: str) -> None:
    assert modal_clashes(claim, window) == []


def test_no_clash_where_the_window_limits_its_force_to_some_cases() -> None:
    # the claim may be about the excepted case: `backends.negation` reads these
    assert (
        modal_clashes(
            "The store can't accept American Express.",
            "The store can accept all major cards except American Express.",
        )
        == []
    )
    assert (
        modal_clashes(
            "Part-time employees can't claim the annual bonus.",
            "Only full-time employees can claim the annual bonus.",
        )
        == []
    )
    assert (
        modal_clashes(
            "Tenants must give notice before leaving.",
            "Tenants may give notice before leaving if the term has ended.",
        )
        == []
    )


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # "are not to" is a prohibition, not "need not"
        ("Guests must not smoke in the rooms.", "Guests are not to smoke in the rooms."),
        # a force denied or hedged by a word before it is not the phrase's own
        ("You need not pay a fee to apply.", "You never have to pay a fee to apply."),
        ("You need not pay a fee to apply.", "No one has to pay a fee to apply."),
        ("You need not pay a fee to apply.", "You might not need to pay a fee to apply."),
        ("You need not pay a fee to apply.", "You may not have to pay a fee to apply."),
        ("Members need not attend the meeting.", "Members don't always have to attend the meeting."),
        ("You may not have to pay a fee to apply.", "You do not have to pay a fee to apply."),
        # a question is no rule
        ("You need not pay a fee to apply.", "Do I have to pay a fee to apply? No. Applications are free."),
        # "you" is the window's addressee, not its landlord or its witnesses
        ("You must give your landlord notice in writing.", "Your landlord can give you notice in writing."),
        ("You must report the accident to the police.", "Witnesses can report the accident to the police."),
        # a force over a bound is a limit
        ("Adults can take 4 tablets a day.", "Adults should take no more than 8 tablets a day."),
        # each side's rule is about a thing the other does not name
        (
            "You can take paracetamol while breastfeeding.",
            "Paracetamol is safe when breastfeeding. You should not take aspirin while breastfeeding.",
        ),
        (
            "You must pay Capital Gains Tax on shares.",
            "You do not have to pay Capital Gains Tax on your main home.",
        ),
        # a rule under consent, on either side
        (
            "Tenants may sublet with the landlord's consent.",
            "Tenants must not sublet without the landlord's consent.",
        ),
        (
            "You must not sublet your room without permission.",
            "You may sublet your room with written permission.",
        ),
    ],
)
def test_no_clash_for_a_force_read_wrongly(claim: str, window: str) -> None:
    # faults found by a code read, each a correct claim flagged
    assert modal_clashes(claim, window) == []


def test_a_modal_not_is_said_alike_where_the_window_gives_the_same_force_in_other_words() -> None:
    claim = "The defendant mustn't contact the claimant."
    window = "The defendant is prohibited from contacting the claimant."
    assert said_alike(claim, claim.index("n't"), window)
    assert not said_alike(claim, claim.index("n't"), "The defendant may contact the claimant.")

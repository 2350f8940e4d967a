"""One word of a closed set said as another (`workers.stages.swaps`)."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.swaps import denied_nearby, swap_clashes


def _swaps(claim: str, window: str) -> list[tuple[str, str | None]]:
    return [
        (c.word, c.fix) for c in swap_clashes(Parsed.of(claim), Parsed.of(window), segment=(0, len(window)))
    ]


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The board approved the deal on Tuesday.",
            "The board approved the deal on Wednesday.",
            [("Tuesday", "Wednesday")],
        ),
        (
            "The tablets are taken twice daily.",
            "The tablets are taken once daily with food.",
            [("twice", "once")],
        ),
        (
            "Jane Doe, the chief financial officer, signed the filing.",
            "Jane Doe, the chief executive officer, signed the filing.",
            [("financial", "executive")],
        ),
        (
            "The plaintiff appealed the ruling in 2021.",
            "In 2021 the defendant appealed the ruling.",
            [("plaintiff", "defendant")],
        ),
        ("The loan has a fixed rate of 5%.", "The loan has a variable rate of 5%.", [("fixed", "variable")]),
        (
            "The patient injured her left knee.",
            "The patient injured her right knee in a fall.",
            [("left", "right")],
        ),
        (
            "The drug is given orally.",
            "The drug is given intravenously every four weeks.",
            [("orally", "intravenously")],
        ),
        ("Take the tablet after meals.", "Take the tablet before meals.", [("after", "before")]),
        # "interest" is no superlative: the ordinal is no rank's
        (
            "The first interest payment is due in May.",
            "The second interest payment is due in May.",
            [("first", "second")],
        ),
        (
            "The mortgage has a fixed interest rate.",
            "The mortgage has an adjustable interest rate.",
            [("fixed", "adjustable")],
        ),
        # "an" and "a" are one word beside it; a figure the window gives nowhere is the slot rules'
        (
            "The patient has an acute infection.",
            "The patient has a chronic infection.",
            [("acute", "chronic")],
        ),
        ("The dose is 10 mg twice daily.", "The dose is 20 mg once daily.", [("twice", "once")]),
        (
            "The chief medical officer, Dr. Lee, announced the results.",
            "The chief executive officer, Dr. Lee, announced the results.",
            [("medical", "executive")],
        ),
        (
            "The defendant responded on Wednesday.",
            "The plaintiff filed on Monday and the defendant responded on Friday.",
            [("Wednesday", "Friday")],
        ),
        (
            "The patient, a 62-year-old man, tested negative.",
            "The patient, a 62-year-old man, tested positive.",
            [("negative", "positive")],
        ),
        # a condition after a word of a set leaves it read as before
        (
            "Interest is paid quarterly.",
            "Interest is paid monthly until maturity.",
            [("quarterly", "monthly")],
        ),
    ],
)
def test_a_word_of_a_closed_set_said_as_another(
    claim: str, window: str, expected: list[tuple[str, str]]
) -> None:
    assert _swaps(claim, window) == expected


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the window says the claim's word too, or the claim the window's
        (
            "Revenue rose in the first quarter.",
            "Revenue rose in the second quarter after falling in the first quarter.",
        ),
        ("The drug is taken once daily or twice daily.", "The drug is taken twice daily."),
        # no word beside it the same, or another content word of the claim not restated
        ("The plaintiff filed the motion.", "The defendant's lawyer opposed the motion."),
        ("The board met on Tuesday.", "The committee met on Wednesday."),
        # a "not", a year the window does not give, a name, a compound
        ("The board did not meet on Tuesday.", "The board met on Wednesday."),
        ("The board met on Tuesday in 2020.", "The board met on Wednesday in 2021."),
        ("The plant is in West Virginia.", "The plant is in East Virginia."),
        ("It was a first-quarter loss.", "It was a second-quarter loss."),
        # the other word in another part of the sentence, or the claim's figure in another part
        (
            "Jones was sentenced on Friday.",
            "Smith was sentenced on Tuesday, and Jones was sentenced two days later.",
        ),
        (
            "Metformin is taken twice daily.",
            "Metformin is taken two times a day, and the extended-release form once daily.",
        ),
        (
            "Net revenue was $3 billion.",
            "Revenue after deductions was $3 billion, and gross revenue was $4 billion.",
        ),
        ("Foreign sales fell 2%.", "Sales overseas fell 2%, and domestic sales rose 4%."),
        # not the same words on both sides, or one word said twice ("annual" and "yearly")
        ("The state sued the company in 2020.", "The federal government sued the company in 2020."),
        (
            "The employee was fired after a complaint.",
            "The worker was fired after a complaint against the employer.",
        ),
        ("The fund charges an annual fee of 1%.", "The fund charges a yearly fee of 1%."),
        ("The defense rested on Tuesday.", "The defence rested on Tuesday."),
        # the window says its word twice: "once ... and once" is twice
        ("The drug is taken twice daily.", "The drug is taken once daily in the morning and once at night."),
        # another sentence's words, a rank's ordinal, roles the other way round
        ("Smith filed the appeal on Tuesday.", "Smith lost at trial. Jones filed the appeal on Wednesday."),
        ("Acme is the second largest bank in Spain.", "Acme is the third largest bank in Spain."),
        ("Acme paid the lender $5 million.", "The borrower paid Acme $5 million."),
        # two words swapped: the clause says something else
        ("The plaintiff appealed on Monday.", "The defendant appealed on Friday."),
    ],
)
def test_no_swap_unless_one_word_alone_differs(claim: str, window: str) -> None:
    assert _swaps(claim, window) == []


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "The licence is transferable.",
            "The licence granted under this agreement is non-transferable and personal to the licensee.",
            [("transferable", "non-transferable")],
        ),
        (
            "The bonds are unsecured.",
            "The bonds are secured by the company's plant.",
            [("unsecured", "secured")],
        ),
        (
            "The policy is valid.",
            "The policy is invalid because the premium was not paid.",
            [("valid", "invalid")],
        ),
        (
            "The clause is enforceable.",
            "The court held that the clause is unenforceable.",
            [("enforceable", "unenforceable")],
        ),
        (
            "The company was profitable in 2022.",
            "The company was unprofitable in 2022.",
            [("profitable", "unprofitable")],
        ),
        ("The loan is secured.", "The bank said the loan is unsecured.", [("secured", "unsecured")]),
        # a report word the claim says too
        (
            "The Court of Appeal reversed the decision on Tuesday.",
            "The Court of Appeal reversed the decision on Wednesday.",
            [("Tuesday", "Wednesday")],
        ),
        (
            "The complainant appealed on Tuesday.",
            "The complainant appealed on Wednesday.",
            [("Tuesday", "Wednesday")],
        ),
        # the subject read past figures and dates, each clause's own
        (
            "The senior notes are secured obligations.",
            "The 5.25% senior notes due 2030 are unsecured obligations.",
            [("secured", "unsecured")],
        ),
        (
            "The Labour Court declared the strike legal.",
            "On 21 March 2014 the Labour Court declared the strike illegal.",
            [("legal", "illegal")],
        ),
        (
            "The tribunal ruled that the dismissal was lawful.",
            "The tribunal ruled that the dismissal was unlawful.",
            [("lawful", "unlawful")],
        ),
        # "dis-" before the words it denies, short words after "un-"
        ("The witness was honest.", "The witness was dishonest about the loan.", [("honest", "dishonest")]),
        ("The results were similar.", "The results were dissimilar.", [("similar", "dissimilar")]),
        ("The target was met.", "The target was unmet.", [("met", "unmet")]),
        ("The defendant is fit to plead.", "The defendant is unfit to plead.", [("fit", "unfit")]),
    ],
)
def test_a_word_against_its_denial_by_a_prefix(
    claim: str, window: str, expected: list[tuple[str, str]]
) -> None:
    assert _swaps(claim, window) == expected


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # read past an aside that only says when or by whom, or classifies the subject: a flag, never a
        # fix (the window may speak of another thing of the same name)
        ("The agreement is binding.", "The agreement, signed on 3 May 2021, is non-binding."),
        ("The loan was secured.", "The loan, made by Barclays in 2010, was unsecured."),
        ("The loan was secured.", "The loan, provided by Barclays in 2010, was unsecured."),
        ("The witness was honest.", "The witness, a former employee, was dishonest."),
        (
            "The board approved the deal on Wednesday.",
            "The board, which was chaired by Ms Lee, approved the deal on Tuesday.",
        ),
    ],
)
def test_a_word_read_past_an_aside_is_flagged_not_fixed(claim: str, window: str) -> None:
    [(word, fix)] = _swaps(claim, window)
    assert word in claim and fix is None


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # a denial in the claim's place, but under a condition: a flag, no fix
        ("The offer is binding.", "The offer is non-binding until the board approves it."),
        ("The contract is valid.", "The contract, if signed, is invalid."),
        ("The contract is valid.", "If signed, the contract is invalid."),
    ],
)
def test_a_denial_under_a_condition_is_a_flag(claim: str, window: str) -> None:
    [(word, fix)] = _swaps(claim, window)
    assert word in claim and fix is None  # a flag: the rules say the window differs, and fix nothing


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # a prefix that denies nothing, or a word that only begins like one
        ("The material is flammable.", "The material is inflammable."),
        ("The funds were vested.", "The funds were invested."),
        ("The staff were formed into teams.", "The staff were informed of the teams."),
        (
            "The parties agreed to mediate the dispute.",
            "The parties agreed to immediate mediation of the dispute.",
        ),
        ("The audit will cover the 2020 accounts.", "The audit will uncover errors in the 2020 accounts."),
        # the window says the claim's word too, or denies it with a "not" in its own part
        ("The deposit is refundable.", "The deposit is refundable, but the fee is non-refundable."),
        ("The policy is valid.", "The policy is not invalid."),
        # not in the claim's place: another word before it, another part, other words around it
        ("Interest income rose 8%.", "Lending income rose 8% despite lower non-interest income."),
        ("The first payment is refundable.", "Payments after the first are non-refundable."),
        ("The trust is revocable.", "The grantor established an irrevocable trust in 2015."),
        ("The director is independent.", "The board classifies the director as non-independent."),
        # a denial of another thing in the clause ("the fee paid with the deposit"), said after a rejection
        (
            "The deposit is refundable.",
            "The deposit is returnable, but the fee paid with the deposit is non-refundable.",
        ),
        (
            "The tumour was operable.",
            "Surgeons removed it, although a lesion found with the tumour was inoperable.",
        ),
        (
            "The debt is unenforceable.",
            "It cannot be recovered, though a guarantee given after the debt is enforceable.",
        ),
        (
            "The employee was unpaid.",
            "She got nothing, although the agency that placed the employee was paid.",
        ),
        (
            "The contract was lawful.",
            "The regulator, claiming the contract was unlawful, sued Acme but lost.",
        ),
        ("The patient was an inpatient.", "The patient was a patient on the cardiac ward."),
        # a denial the window reports only to reject it, or as someone's word
        ("The dismissal was lawful.", "The tribunal dismissed the claim that the dismissal was unlawful."),
        (
            "The tumour was operable.",
            "Surgeons removed the tumour that earlier scans had suggested was inoperable.",
        ),
        ("The board met on Tuesday.", "The chair denied that the board met on Wednesday."),
        # "dis-" that denies nothing; an aside about another subject, or saying the claim's word
        ("The company closed the unit.", "The company disclosed the unit's losses."),
        ("The charges were missed.", "The charges were dismissed."),
        ("The parent company is regulated.", "The subsidiary, unlike the parent company, is unregulated."),
        ("The loan is secured.", "The loan, which replaced an unsecured facility, is secured by a mortgage."),
        ("The patient tested negative.", "The patient's wife, who accompanied him, tested positive."),
        # an aside that reports, hedges or limits what follows, or sets another subject against it
        ("The contract is valid.", "The contract, the defendant argued, is invalid."),
        (
            "The patent was valid.",
            "The patent, the district court held, was invalid. The Federal Circuit reversed.",
        ),
        ("The clause is enforceable.", "The clause, in the claimant's view, is unenforceable."),
        ("The clause is enforceable.", "The clause, in some jurisdictions, is unenforceable."),
        ("The agreement is binding.", "The agreement, in the event of a default, is non-binding."),
        ("The tumour is malignant.", "The tumour, probably, is benign."),
        ("The drug is given orally.", "The drug, in neonates, is given intravenously."),
        ("The rate is variable.", "The rate, for the first two years, is fixed."),
        ("The contract was written.", "The contract, the company's website said, was oral."),
        (
            "The loan from Beta to Acme was secured.",
            "The loan from Acme to Beta, unlike the loan from Beta to Acme, was unsecured.",
        ),
        ("The guarantee is enforceable.", "The lease, not the guarantee, is unenforceable."),
        # a linking word may set the sentence against what came before: its own limits follow
        (
            "The fee is payable annually.",
            "The fee, however, is payable monthly by members on the hardship scheme.",
        ),
        ("The contract is valid.", "The contract, however, is invalid."),
        # an aside naming a part, holding the fact, or another role; a report added after the word
        ("Ondansetron is given orally.", "Ondansetron, the injectable form, is given intravenously."),
        (
            "The tumour was malignant.",
            "The tumour, which turned out to be an invasive carcinoma, was benign at first.",
        ),
        ("Acme was the buyer.", "Acme, which bought the site from Beta in 2015, was the seller in 2021."),
        (
            "The goods were fit for purpose.",
            "The goods, delivered on 3 May 2022, were unfit for purpose, the buyer alleged.",
        ),
        ("The loan was secured.", "The loan guarantee, given by the parent on 3 May 2019, was unsecured."),
        (
            "The licence is transferable.",
            "Is it the case that the licence, granted in 2015, is non-transferable? No.",
        ),
        # a time, a limit or a report the aside's first word hides ("when", "between", "often", "claims")
        ("The contract is non-binding.", "The contract, when executed by both parties, is binding."),
        ("The loan was secured.", "The loan, between 2010 and 2012, was unsecured."),
        ("The rate was variable.", "The rate, when first set in 2020, was fixed."),
        ("The drug was given orally.", "The drug, often given by injection, was given intravenously."),
        ("The contract was written.", "The contract, the buyer claims, was oral."),
        ("The contract was written.", "The contract, their lawyers argue, was oral."),
        ("The tumour was benign.", "The tumour, the scans indicate, was malignant."),
        ("The rent is paid annually.", "The rent, the first year, is paid monthly."),
        ("The theory was credited to Smith.", "The theory was discredited by Smith."),
    ],
)
def test_no_denial_unless_it_stands_in_the_claims_place(claim: str, window: str) -> None:
    assert _swaps(claim, window) == []


@pytest.mark.parametrize(
    ("claim", "window", "denied"),
    [
        ("The loan is secured and was made in 2010.", "The loan, made on 2 May 2011, is unsecured.", True),
        ("The trust is revocable.", "The grantor established an irrevocable trust.", True),
        # the window says the word itself, or rejects the denial
        ("The loan is secured.", "The loan is secured; the second loan is unsecured.", False),
        (
            "The dismissal was lawful.",
            "The tribunal rejected the claim that the dismissal was unlawful.",
            False,
        ),
        ("The deposit is refundable.", "The application fee is non-refundable.", False),
    ],
)
def test_a_denial_elsewhere_in_the_sentence(claim: str, window: str, denied: bool) -> None:
    c, w = Parsed.of(claim), Parsed.of(window)
    fixed = [s.start for s in c.slots if s.text.isdigit()]
    assert denied_nearby(c, w, segment=(0, len(window)), fixed=fixed) is denied


@pytest.mark.parametrize(
    ("claim", "window", "expected"),
    [
        (
            "Employees must take time off in lieu for additional hours worked.",
            "Employees may take time off in lieu for additional hours worked.",
            [("must", "may")],
        ),
        (
            "You may come into the office on Tuesdays and Thursdays.",
            "You must come into the office on Tuesdays and Thursdays, which are team days.",
            [("may", "must")],
        ),
        (
            "Patients should take the tablets with food.",
            "Patients must take the tablets with food.",
            [("should", "must")],
        ),
        # one meaning, two words: permission, obligation; and two prohibitions
        ("Employees can take time off in lieu.", "Employees may take time off in lieu.", []),
        ("The tenant shall pay the rent monthly.", "The tenant must pay the rent monthly.", []),
        ("Tenants must not sublet the flat.", "Tenants may not sublet the flat.", []),
    ],
)
def test_what_a_person_must_may_or_should_do(
    claim: str, window: str, expected: list[tuple[str, str]]
) -> None:
    assert _swaps(claim, window) == expected

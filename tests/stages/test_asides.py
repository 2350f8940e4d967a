import pytest

from workers.stages.align import Parsed
from workers.stages.asides import without_asides


@pytest.mark.parametrize(
    ("window", "bare"),
    [
        (
            "The agreement, signed on 3 May 2021 by both parties, is non-binding.",
            "The agreement is non-binding.",
        ),
        ("The strike, which began on 1 May, was illegal.", "The strike was illegal."),
        ("The Notes, which were issued in March 2019, are secured.", "The Notes are secured."),
        ("The witness, a former employee, was dishonest.", "The witness was dishonest."),
        ("The loan, made by Barclays, was unsecured.", "The loan was unsecured."),
        # a condition is read past too, and said where it stood
        ("The contract, if signed, is invalid.", "The contract is invalid."),
    ],
)
def test_an_aside_that_describes_its_subject_is_read_past(window: str, bare: str) -> None:
    read = without_asides(Parsed.of(window))
    assert len(read.ev.text) == len(window)  # offsets kept
    assert " ".join(read.ev.text.split()) == bare
    assert read.past(0, len(window))


@pytest.mark.parametrize(
    "window",
    [
        # limits, hedges, reports, another subject set against it
        "The drug, in neonates, is given intravenously.",
        "The rate, for the first two years, is fixed.",
        "The tumour, probably, is benign.",
        "The loan, however, was unsecured.",
        "Ondansetron, the injectable form, is given intravenously.",
        "The notes, the 2027 series, are secured.",
        "The drug, taken at doses of 5 mg or less, is given orally.",
        "The tumour, which turned out to be an invasive carcinoma, was benign at first.",
        "The clause, in the claimant's view, is unenforceable.",
        "The contract, the buyer alleged, was oral.",
        "The patent, the district court held, was invalid.",
        "The contract, the company's website said, was oral.",
        "The loan from Acme to Beta, unlike the loan from Beta to Acme, was unsecured.",
        "The drug, approved for adults in 2019, is unapproved for children.",
        "The loan, drawn in two tranches, bears interest.",
        # not an aside before a verb: a list, a sentence going on
        "The bond, the loan and the lease are secured.",
        "In 2020, the agreement was binding, but the parties later ended it.",
    ],
)
def test_an_aside_that_may_limit_hedge_or_report_is_kept(window: str) -> None:
    assert without_asides(Parsed.of(window)).ev.text == window


def test_a_condition_is_said_where_it_stood() -> None:
    window = "The offer, until signed, is non-binding."
    read = without_asides(Parsed.of(window))
    assert read.past(0, window.index("non-binding"), conditions=True)
    plain = without_asides(Parsed.of("The offer, however, is non-binding."))
    assert not plain.past(0, len(plain.ev.text), conditions=True)

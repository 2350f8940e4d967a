"""Whether a window's date may stand for a claim's year (`workers.stages.dated`)."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.dated import elsewhere
from workers.stages.slots import SlotKind


def _elsewhere(claim: str, window: str, *, which: int = -1) -> bool:
    c, w = Parsed.of(claim), Parsed.of(window)
    times = (SlotKind.YEAR, SlotKind.DATE)
    [year] = [s for s in c.slots if s.kind in times]
    dates = [s for s in w.slots if s.kind in times and s.when is not None and s.when.year != year.when.year]
    return elsewhere(c, year, w, dates[which])


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        ("The name was changed in 2001.", "On 30 December 1996 the name was changed."),
        ("The law took effect in 2020.", "The law was passed in 2018 and took effect on 1 January 2019."),
        ("The dividend was cut in 2019.", "On 3 March 2020 the board cut the dividend."),
        ("The lawsuit was settled in 2016.", "The lawsuit was filed in 2014. In 2015 it was settled."),
        (
            "The claim was filed in 2016.",
            "The claimant filed the claim in the High Court on 17 January 2017.",
        ),
        ("The firm must file its accounts by 2019.", "The firm must file its accounts by 2020."),
        ("Since 2015 the firm has grown.", "Since 2016 the firm has grown."),
        # the claim's event named before the window's date, a passive's agent, a generic subject
        ("Smith debuted for Aberdeen in 2010.", "Smith made his Aberdeen debut in 2012."),
        (
            "The show was canceled by CBS on November 14, 2011.",
            "CBS announced the cancellation of the show on November 14, 2014.",
        ),
        (
            "The Millers aired on CBS from October 3, 2006.",
            "The multi-camera series aired from October 3, 2013.",
        ),
        (
            "Judge Brown retired in 2015.",
            "Judge Brown was appointed on 3 May 1999 and retired on 10 June 2016.",
        ),
        ("Relegated in 2021-14, Arbroath changed managers.", "Arbroath were relegated after season 2013-14."),
        # the same owner on both sides, a passive's agent either way
        ("Acme's chief executive resigned in 2015.", "Acme's chief executive resigned on 3 May 2016."),
        ("Shareholders approved the deal in 2015.", "The deal was approved by shareholders on 3 March 2016."),
        # a year against a year, or a date against a date, is align's as before
        ("Smith was born in 1960.", "Smith was born in 1961 and died 40 years later."),
    ],
)
def test_the_claims_event_of_the_claims_subject(claim: str, window: str) -> None:
    assert not _elsewhere(claim, window)


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # another event's date, by its own verb
        (
            "The company was renamed in 1997.",
            "The company was founded on 30 December 1996 and renamed later.",
        ),
        # someone else's: another subject, pronouns apart, a name the window's clause lacks, roles reversed
        ("The plaintiff appealed in 2015.", "The defendant appealed on 3 March 2016."),
        ("He was appointed in 2010.", "She was appointed on 1 May 2012."),
        ("Judge Brown retired in 2015.", "Judge Green retired on 10 June 2016."),
        ("Smith was appointed chairman in 2010.", "The board appointed Jones chairman on 1 May 2012."),
        ("Smith replaced Jones as chairman in 2010.", "Jones replaced Smith as chairman on 1 May 2012."),
        # a date read from another ("two years after"), the claim's date first ("In 2020, ...")
        ("The smaller fund closed in 2016.", "The larger fund closed on 30 September 2018, two years after."),
        ("In 2020, the patient was readmitted.", "The patient was discharged on 28 December 2019."),
        # someone's subject: a modifier, a possessive
        ("Ms Lee retired in 2019.", "Ms Lee's deputy retired on 30 June 2017."),
        ("The smaller fund closed in 2016.", "The larger fund closed on 30 September 2018."),
        # a name said in another sentence only, the claim's event as an adjective, another part's subject
        (
            "The drug was approved in Europe in 2019.",
            "The drug was approved in the United States on 20 November 2018. It is also sold in Europe.",
        ),
        (
            "The bank was nationalised in 2009.",
            "The nationalised bank was sold to Virgin Money on 1 January 2012.",
        ),
        (
            "Smith was appointed in 2011.",
            "Jones was appointed on 1 May 2010, and Smith resigned on 2 June 2012.",
        ),
        # a year that names a thing
        ("The 2019 annual report was published in March.", "The annual report was published in March 2020."),
        # planned or expected, not done
        ("The merger closed in 2017.", "The merger was expected to close on 30 December 2016."),
        ("The drug was launched in 2018.", "The company plans to launch the drug on 1 March 2019."),
        # reported, not found
        ("The factory closed in 2012.", "The union alleged that the factory closed on 3 May 2013."),
        (
            "The contract was signed in 2014.",
            "The defendant claimed the contract was signed on 4 April 2015.",
        ),
        # a bound for a point, a span, a part of a year against a month
        ("The name had been changed by 1997.", "On 30 December 1996 the name was changed."),
        ("The loan must be repaid before 2021.", "The loan must be repaid on or before 31 December 2020."),
        (
            "Claims must be made within 2019.",
            "Claims must be made within the period ending 31 December 2020.",
        ),
        (
            "In 2020-21 revenue was $4.2 billion.",
            "For the year ended 31 March 2021, revenue was $4.2 billion.",
        ),
        ("The rate was cut late in 2019.", "The rate was cut on 3 March 2020."),
        # the rest of the claim not said: a name, a word, a "not"
        (
            "The drug was approved in Europe in 2019.",
            "The drug was approved in the United States on 20 November 2018.",
        ),
        (
            "The drug was approved for children in 2019.",
            "The drug was approved for adults on 20 November 2018.",
        ),
        ("The agreement was binding in 2018.", "On 4 May 2019 the agreement was not binding."),
    ],
)
def test_no_date_that_is_not_the_claims_to_give(claim: str, window: str) -> None:
    assert _elsewhere(claim, window)


def test_another_parts_subject_is_someone_else() -> None:
    window = "Jones was appointed on 1 May 2010, and Smith resigned on 2 June 2012."
    assert _elsewhere("Smith was appointed in 2011.", window, which=0)

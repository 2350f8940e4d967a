from __future__ import annotations

import pytest

from workers.stages.cases import applies_to_case


@pytest.mark.parametrize(
    "text",
    [
        "For a patient with a creatinine clearance of 40 mL/min, the recommended dose is 10 mg once daily.",
        "With a potassium of 5.7 mmol/L, the ACE inhibitor dose should not be increased.",
        "For an income of £60,000, the rate is 40%.",
        "A tobacco retailer earning 6% of its revenue from tobacco would not be excluded.",
        "A £50 cash withdrawal would be charged the £3 minimum fee, because 3% of £50 is only £1.50.",
        "An employee contributing 8% of basic salary would receive a company contribution of 6%.",
        "A 60-year-old starting levothyroxine should begin on 25 micrograms once daily.",
        "An employee with seven years' service who wants to resign has to give three months' notice.",
        "If a 22-year-old was driving at the time, the excesses would come to £550.",
        "A home 30 metres from a river has no flood cover.",
        "A tenant who moves out in month 8 stays liable for rent until the end of month 12.",
        "Tenants paying $1,800 a month would be charged a $90 late fee.",
        "Taking two capsules daily provides 2,000 IU of vitamin D3.",
        "If you are 60, you should start levothyroxine at 25 micrograms daily.",
        "If you contribute 8% of basic salary, the employer will match 6%.",
        # the asker's case said to them, with or without a comma
        "With taxable turnover of £85,000 over the last 12 months you don't yet have to register for VAT.",
        "With only 8 qualifying years, you wouldn't get any State Pension.",
        "At 5% interest you would pay £50 a year.",
        "On earnings of £10,000 a month, your benefit would be capped at £5,000 a month.",
        "As your kettle developed a fault four months after delivery, you're past the 30-day period.",
        "On a 60-day trip to Spain you'd keep the same cover as at home.",
        "Jogging for 25 minutes three times a week would meet the guideline.",
        # "may" is no month
        "For a patient with a creatinine clearance of 40 mL/min who may be frail, the dose is 10 mg.",
        # an age the claim supposes, with no comma
        "For a 55-year-old woman cervical screening is every five years.",
    ],
)
def test_a_case_of_the_claims_own_is_read(text: str) -> None:
    assert applies_to_case(text)


@pytest.mark.parametrize(
    "text",
    [
        # the document's rule said again: its bound is the document's to check
        "If potassium rises above 6.0 mmol/L, stop ACE inhibitors.",
        # no indefinite article: a fact
        "With 5,000 employees, Acme is the largest employer.",
        # no "would" or "should": a fact
        "A $5 million grant was awarded to the city.",
        # no figure
        "A patient should take 10 mg daily.",
        "For 2023, revenue was $5 billion.",
        # the figure after the opening phrase
        "In a statement, the CEO said revenue rose 5%.",
        "For a while, fees were 5%, then 6%.",
        "A new policy would cut fees. It took 5 years.",
        # facts the review found read as cases
        "Boeing delivered 528 planes in 2018.",
        "In a 2019 study, 40% of patients responded.",
        "At a 2023 meeting, the board approved a 5% rise.",
        "A study that enrolled 5,000 patients found a 20% reduction.",
        "A company that was founded in 1998 won the bid.",
        "With a market share of 30%, Acme leads the market.",
        "If your income is over £50,000, you pay 40%.",  # a bound: the rule said again
        "With over 10 qualifying years you get a State Pension.",
        # the document's rule said to the asker: no "would", no denial
        "At 65 you can claim your State Pension.",
        # the document's own figure after "Because", and a fact's gerund
        "Because the limit is £85,000, you would need to register.",
        "Accounting for 40% of revenue, the unit is the largest.",
        "With 30 qualifying years you get the full new State Pension.",
        # a time or a date is when, not a case
        "At 9:45 am you would have to attend the hearing.",
        "On 3 March 2020 you would have been sent a letter.",
    ],
)
def test_a_fact_or_a_rule_is_no_case(text: str) -> None:
    assert not applies_to_case(text)

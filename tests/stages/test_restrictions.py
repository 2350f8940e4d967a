"""Conditions dropped: a claim stated plainly where the window states it only under a condition."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.restrictions import dropped_conditions


def _dropped(claim: str, window: str) -> list[str]:
    read = Parsed.of(window)
    found = dropped_conditions(Parsed.of(claim), read, segment=read.segments[0])
    assert all(window[d.start : d.end] == d.condition for d in found)
    return [d.condition for d in found]


@pytest.mark.parametrize(
    ("claim", "window", "condition"),
    [
        (
            "Tenants may sublet the flat.",
            "Tenants may sublet the flat only with the landlord's prior written consent.",
            "only with the landlord's prior written consent",
        ),
        (
            "The medication is safe during pregnancy.",
            "The medication is safe during pregnancy only in the second trimester.",
            "only in the second trimester",
        ),
        (
            "The warranty covers water damage.",
            "The warranty covers water damage unless the device was opened by the owner.",
            "unless the device was opened by the owner",
        ),
        (
            "The deposit is refundable.",
            "The deposit is refundable provided that the tenant gives two months' notice.",
            "provided that the tenant gives two months' notice",
        ),
        (
            "Patients can take the tablet with food.",
            "Patients can take the tablet with food, except during the first week of treatment.",
            "except during the first week of treatment",
        ),
        (
            "The bonus is paid in March.",
            "The bonus is paid in March if the company meets its annual targets.",
            "if the company meets its annual targets",
        ),
        # the condition opens the window's clause
        (
            "Tenants may keep pets.",
            "If the landlord agrees, tenants may keep pets.",
            "If the landlord agrees",
        ),
        # "may only ... with": the phrase after the claim's words is the restriction
        (
            "Tenants may sublet the flat.",
            "Tenants may only sublet the flat with the landlord's consent.",
            "with the landlord's consent",
        ),
        # a comma before "but only"
        (
            "Early repayment is allowed.",
            "Early repayment is allowed, but only with the lender's consent.",
            "only with the lender's consent",
        ),
        # the condition ends where a joined clause begins
        (
            "The deposit is refundable.",
            "The deposit is refundable unless the flat is damaged, and rent is due monthly.",
            "unless the flat is damaged",
        ),
        # a name as the condition's subject; a verb that ends in "-ing"; a noun before "if"
        (
            "The merger will proceed.",
            "The merger will proceed if Congress approves it.",
            "if Congress approves it",
        ),
        (
            "Guests may bring pets.",
            "Guests may bring pets only with the manager's consent.",
            "only with the manager's consent",
        ),
        (
            "Customers can use express checkout.",
            "Customers can use express checkout if they buy fewer than ten items.",
            "if they buy fewer than ten items",
        ),
        # a curly apostrophe
        (
            "Tenants may sublet the flat.",
            "Tenants may only sublet the flat with the landlord’s consent.",
            "with the landlord’s consent",
        ),
        # a permission said in other words
        (
            "Tenants are allowed to sublet the flat.",
            "Tenants may sublet the flat only with the landlord's consent.",
            "only with the landlord's consent",
        ),
        # a final code read: a permission word with "may only"; an aside inside the condition; a
        # joined clause cut off; a denial elsewhere is no plain statement of the claim
        (
            "Tenants are allowed to sublet the flat.",
            "Tenants may only sublet the flat with the landlord's consent.",
            "with the landlord's consent",
        ),
        (
            "The deposit is refundable.",
            "The deposit is refundable unless the tenant, having left early, is in arrears.",
            "unless the tenant, having left early, is in arrears",
        ),
        (
            "Tenants may keep pets.",
            "Tenants may keep pets only with consent, as the owner can object.",
            "only with consent",
        ),
        (
            "Tenants may keep pets.",
            "Tenants may keep pets only with consent. Tenants may not keep pets without consent.",
            "only with consent",
        ),
        # "is binding" is a state, not a thing in progress
        (
            "The agreement is binding.",
            "The agreement is binding only if signed by both parties.",
            "only if signed by both parties",
        ),
    ],
)
def test_a_condition_the_claim_drops_is_found(claim: str, window: str, condition: str) -> None:
    assert _dropped(claim, window) == [condition]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the claim keeps a condition of its own: the model compares conditions
        (
            "Tenants may sublet the flat if the landlord agrees.",
            "Tenants may sublet the flat only with the landlord's prior written consent.",
        ),
        ("The offer is valid only for residents.", "The offer is valid only for residents if they apply."),
        # a concession is no condition
        (
            "The deposit is refundable.",
            "The deposit is refundable even if the tenant leaves early.",
        ),
        # the condition belongs to another clause
        (
            "Tenants may sublet the flat.",
            "Tenants may sublet the flat, and pets are allowed if the landlord agrees.",
        ),
        # the window does not restate every word of the claim
        ("Lodgers may sublet the flat.", "Tenants may sublet the flat only with consent."),
        # a time clause, not a condition
        ("He resigned in 2019.", "He resigned in 2019 when the scandal broke."),
        # "only" with nothing after it, or "only" not after a modal
        ("The offer is valid for residents.", "The offer is valid for residents only."),
        ("The drug is approved for adults.", "The drug is approved only for adults."),
        # too far from the claim's words
        (
            "The court granted the motion.",
            "The court granted the motion on Tuesday after a long hearing in the morning unless appealed.",
        ),
        # an event told in the past or in progress: "only" is "not until", "if" is "whether"
        ("The museum reopened in 2021.", "The museum reopened in 2021 only after a long refit."),
        ("Shares rallied in the morning.", "Shares rallied in the morning, only to fall back by the close."),
        (
            "The regulator is investigating the bank.",
            "The regulator is investigating the bank to see if rules were broken.",
        ),
        ("The court will decide.", "The court will decide if the merger proceeds."),
        # a hedge, not a condition
        ("The results are encouraging.", "The results are encouraging, if preliminary."),
        ("Most flights operate normally.", "Most flights operate normally, except those to Paris."),
        # "only" as "just"; "subject to" as "exposed to"
        ("The bank is small.", "The bank is only small by the statistics office's estimate."),
        ("Whistleblowers are vulnerable.", "Whistleblowers are vulnerable and subject to retaliation."),
        # the condition is on another verb or another item of a list
        ("The bridge is old.", "The bridge is old, is listed and is subject to a weight limit."),
        ("Check-in is from 3pm.", "Check-in is from 3pm, check-out by 11am unless agreed otherwise."),
        # "not only ... but", an opening "If" whose clause is not the claim's
        ("The drug is approved.", "The drug is approved not only in adults but in children."),
        (
            "Rates will stay at 5%.",
            "If markets expect a cut, they will be disappointed: rates will stay at 5%.",
        ),
        # a word that only begins like a condition; "but if" opens the next clause's condition
        ("The museum is open daily.", "The museum is open daily, exceptionally until 10pm on Fridays."),
        (
            "The deposit is refundable.",
            "The deposit is refundable, but if the tenant leaves early a fee applies.",
        ),
        # an opening participle, hedge or concession
        ("The service is free.", "Provided by the council, the service is free."),
        ("The policy is popular.", "If nothing else, the policy is popular."),
        ("Tenants may keep pets.", "If the landlord objects, tenants may still keep pets."),
        # a free choice; a condition on a later verb; a denial the claim does not make
        ("Tenants may sublet the flat.", "Tenants may sublet the flat if they wish."),
        (
            "The fee is refundable.",
            "The fee for refundable tickets, unless stated otherwise, is £5, and the fee is refundable.",
        ),
        ("The deposit is refundable.", "The deposit is not refundable unless the flat is re-let."),
        # another sentence of the window says it plainly
        (
            "Tenants may keep pets.",
            "Tenants may keep pets if the landlord agrees. Since 2020 tenants may keep pets.",
        ),
        # a second review's probes: another subject's condition, a degree, a default, a fact "with" approval
        (
            "Residents may park on the street.",
            "Residents may park on the street but visitors only with a permit.",
        ),
        ("The ticket is valid on buses.", "The ticket is valid on buses but trams only after 9.30 am."),
        (
            "Gains are taxed at 20%.",
            "Gains are taxed at 20% - 10% if the total is below the basic-rate band.",
        ),
        ("The policy is sensible.", "The policy is sensible, if a little late."),
        ("The party is ahead in the polls.", "The party is ahead in the polls, only by two points."),
        ("The president is unpopular.", "The president is unpopular, with an approval rating of 38%."),
        (
            "Parents can open a Junior ISA.",
            "Parents can open a Junior ISA to save for their children's future.",
        ),
        (
            "The law is vague.",
            "The law is vague to the extent that courts regularly disagree on its meaning.",
        ),
        (
            "The new runway is 3 km long.",
            "The new runway is 3 km long, as long as the longest runway at Heathrow.",
        ),
        (
            "Contractors are bound by the code.",
            "Contractors are bound by the code, subject to the same sanctions.",
        ),
        ("All prices include VAT.", "All prices include VAT unless otherwise stated."),
        (
            "The notice period is one month.",
            "Except where the contract says otherwise, the notice period is one month.",
        ),
        ("The process is thorough.", "If slow, the process is thorough."),
        (
            "The merger remains on track.",
            "Subject to intense political scrutiny, the merger remains on track.",
        ),
        ("Residents can vote in person.", "Residents can only vote in person at the town hall."),
        (
            "The fund can invest in equities.",
            "The fund can invest in equities listed anywhere except Russia.",
        ),
        # "It requires" may be the subject's own need; "This is" anything but a condition
        (
            "The drug is approved for children.",
            "The drug is approved for children. It requires a prescription.",
        ),
        ("Tenants may sublet the flat.", "Tenants may sublet the flat. This is a change from 2019."),
        # a permission word the window does not back with one of its own
        (
            "Tenants are allowed to sublet the flat.",
            "Tenants sublet the flat only with the landlord's consent.",
        ),
        # a third review round: a free choice, an aside after a comma, a figure's basis
        ("Students are allowed to keep the books.", "Students can keep the books as long as they like."),
        ("Guests are able to check out late.", "Guests can check out late if they'd like to."),
        (
            "Customers can collect goods in store.",
            "Customers can collect goods in store unless they prefer delivery.",
        ),
        (
            "Patients can see a GP within 48 hours.",
            "Patients can see a GP within 48 hours, if needed by phone.",
        ),
        ("Staff can take 25 days of holiday.", "Staff can take 25 days of holiday, excluding bank holidays."),
        # the final code read: an opening free choice or denial; a permission word the window says
        # of another verb; a claim in the past, hedged, or with a condition of its own
        ("Tenants may keep pets.", "If they wish, tenants may keep pets."),
        ("Tenants may keep pets.", "Unless the landlord agrees, tenants may not keep pets."),
        (
            "Tenants are permitted to sublet the flat.",
            "Tenants sublet the flat only with consent, and landlords may object.",
        ),
        ("The deposit was refundable.", "The deposit was refundable unless the flat was damaged."),
        ("Most tenants may keep pets.", "Most tenants may keep pets if the landlord agrees."),
        (
            "The deposit is refundable unless the flat is damaged.",
            "The deposit is refundable unless the flat is damaged or the rent is unpaid.",
        ),
        # a condition between commas among the claim's words is not read: a fourth review round found
        # it flagging 42 of 73 correct answers (another clause's or list item's, a credit, a concession)
        (
            "Tenants may sublet the flat.",
            "Tenants may, with the landlord's written consent, sublet the flat.",
        ),
        (
            "The café is open until 6 pm.",
            "The shop opens at 9, unless it is a holiday, and the café is open until 6 pm.",
        ),
    ],
)
def test_no_condition_is_dropped(claim: str, window: str) -> None:
    assert _dropped(claim, window) == []


def test_only_the_given_clause_is_read() -> None:
    window = "Tenants may sublet the flat. Pets are allowed only with consent."
    claim = Parsed.of("Pets are allowed.")
    assert dropped_conditions(claim, Parsed.of(window), segment=(0, 28)) == []
    [found] = dropped_conditions(claim, Parsed.of(window), segment=(29, len(window)))
    assert window[found.start : found.end] == "only with consent"


_BONUS = "Employees are eligible for the bonus."


@pytest.mark.parametrize(
    ("claim", "window", "group"),
    [
        (_BONUS, "Only full-time employees are eligible for the bonus.", "Only full-time employees"),
        (_BONUS, "Only Grade A employees are eligible for the bonus.", "Only Grade A employees"),
        (_BONUS, "Only R&D employees are eligible for the bonus.", "Only R&D employees"),
        (
            _BONUS,
            "Only employees with five years' service are eligible for the bonus.",
            "Only employees with five years' service",
        ),
        (
            "Drivers may hire the van.",
            "Only drivers who hold a full licence may hire the van.",
            "Only drivers who hold a full licence",
        ),
        (
            "Shareholders must disclose their stake.",
            "Only shareholders holding more than 5% must disclose their stake.",
            "Only shareholders holding more than 5%",
        ),
        # after an opening phrase, a colon or a quotation mark
        (
            "Investors may participate.",
            "Under the rules, only accredited investors may participate.",
            "only accredited investors",
        ),
        (
            _BONUS,
            "Bonus rules for employees: only full-time employees are eligible for the bonus.",
            "only full-time employees",
        ),
        (_BONUS, "“Only full-time employees are eligible for the bonus.”", "Only full-time employees"),
        (
            _BONUS,
            "Exclusively full-time employees are eligible for the bonus.",
            "Exclusively full-time employees",
        ),
        # a recipient of "available", "open", "valid" ...
        (
            "The discount is available to customers.",
            "The discount is available only to new customers.",
            "only to new customers",
        ),
        (
            "The discount is available to customers.",
            "The discount for customers is available only to new customers.",
            "only to new customers",
        ),
        (
            "The discount is available to customers.",
            "The discount is available to new customers only.",
            "to new customers only",
        ),
        (
            "The offer is valid in stores.",
            "The offer is valid in selected stores only.",
            "in selected stores only",
        ),
        (
            "The discount is available to customers.",
            "The discount is only available to new customers.",
            "only available to new customers",
        ),
        (
            "The staff canteen is open to staff.",
            "The staff canteen is open only to permanent staff.",
            "only to permanent staff",
        ),
        (
            "Taxpayers can claim the allowance.",
            "Only basic-rate taxpayers can claim the allowance.",
            "Only basic-rate taxpayers",
        ),
        (
            "Employees will be eligible for the bonus.",
            "From 2026, only full-time employees will be eligible for the bonus.",
            "only full-time employees",
        ),
        # "plan" is no plan to; a definition of another word is no definition of the group
        (
            "Employees are eligible for the health plan.",
            "Only full-time employees are eligible for the health plan.",
            "Only full-time employees",
        ),
        (
            _BONUS,
            'Only full-time employees are eligible for the bonus. "Employer" means the Company.',
            "Only full-time employees",
        ),
        # a claim's group that names the other part, by a pair of words or by "non-" / "un-"
        (
            "Part-time employees are eligible for the bonus.",
            "Only full-time employees are eligible for the bonus.",
            "Only full-time employees",
        ),
        (
            "Existing customers may apply for the card.",
            "Only new customers may apply for the card.",
            "Only new customers",
        ),
        (
            "Junior doctors may prescribe the drug.",
            "Only senior doctors may prescribe the drug.",
            "Only senior doctors",
        ),
        (
            "Non-resident owners must pay the surcharge.",
            "Only resident owners must pay the surcharge.",
            "Only resident owners",
        ),
        (
            "Unlicensed drivers may rent the van.",
            "Only licensed drivers may rent the van.",
            "Only licensed drivers",
        ),
    ],
)
def test_a_group_narrowed_by_only_is_found(claim: str, window: str, group: str) -> None:
    assert _dropped(claim, window) == [group]


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the claim says the group as the window does, or a word of its modifier
        # a part of the window's group, the same part said another way, or a part the window names
        (
            "New full-time employees are eligible for the bonus.",
            "Only full-time employees are eligible for the bonus.",
        ),
        (
            "Fulltime employees are eligible for the bonus.",
            "Only full-time employees are eligible for the bonus.",
        ),
        ("First-time customers may apply for the card.", "Only new customers may apply for the card."),
        ("Elderly patients may receive the vaccine.", "Only adult patients may receive the vaccine."),
        (
            "Existing customers may apply for the card.",
            "Only new customers may apply directly for the card; existing customers must apply through their "
            "account manager.",
        ),
        # the window's "only" says a kind of the claim's thing, or a time opens the sentence
        (
            "Part-time employees are eligible for parental leave.",
            "Only full-time employees are eligible for enhanced parental leave; others receive the statutory "
            "minimum.",
        ),
        (
            "Existing customers can get a credit card.",
            "Only new customers can get the 0% credit card; customers who already bank with us can get the "
            "standard credit card.",
        ),
        (
            "Part-time staff can book the training course.",
            "This week, only full-time staff can book the training course; from Monday, it opens to all.",
        ),
        (
            "Full-time employees are eligible for the bonus.",
            "Only full-time employees are eligible for the bonus.",
        ),
        ("The Berlin office is open on Sundays.", "Only the Berlin office is open on Sundays."),
        ("Patients over 65 should take the drug.", "Only patients aged over 65 should take the drug."),
        (
            "Gold card customers are eligible for the lounge.",
            "Only customers who hold a Gold card are eligible for the lounge.",
        ),
        (_BONUS, "Only employees in the bonus scheme are eligible for the bonus."),
        # "only" says when, how many, or which of a list, and the claim may name one alone
        ("Tenants are allowed to sublet.", "Only since 2020 have tenants been allowed to sublet."),
        ("The drug is available in Europe.", "Only in 2021 did the drug become available in Europe."),
        ("The drug is available in Europe.", "Only last year the drug became available in Europe."),
        ("Members may bring guests.", "Only on Sundays may members bring guests."),
        (_BONUS, "Only this year are employees eligible for the bonus."),
        (_BONUS, "Only 40 employees are eligible for the bonus."),
        (_BONUS, "Only managers and employees are eligible for the bonus."),
        ("Nurses may prescribe the drug.", "Only doctors and nurses may prescribe the drug."),
        ("The service is available in Welsh.", "The service is available in English and Welsh only."),
        (
            "Ibuprofen is approved for children.",
            "Only two painkillers are approved for children: paracetamol and ibuprofen.",
        ),
        (
            "The drug is approved for children over 12.",
            "The drug is approved only for use in children over 12.",
        ),
        # "the only", "not only", "only to", "only" as "merely", an activity's object
        ("The bank is a lender offering fixed rates.", "The bank is the only lender offering fixed rates."),
        (
            "The market is saturated.",
            "The company expanded into Asia, only to find that the market is saturated.",
        ),
        ("The deposit is refundable.", "The deposit is only partially refundable."),
        ("The increase is due to energy prices.", "The increase is due solely to higher energy prices."),
        ("Staff are required to attend training.", "Staff are required to attend induction training only."),
        # the group is another part's, or the claim's words do not follow it at once
        ("Guests may use the gym.", "Only members may use the pool, but guests may use the gym."),
        (_BONUS, "Only full-time employees get a car and all employees are eligible for the bonus."),
        (
            _BONUS,
            "Only employees with ten years' service are eligible for the pension, and all employees are "
            "eligible for the bonus.",
        ),
        (_BONUS, "Only employees with five years' service normally become eligible for the bonus."),
        # an exception the claim denies is no condition it drops
        (
            "Employees are not eligible for the bonus.",
            "Only full-time employees are not eligible for the bonus.",
        ),
        # a thing, not a person's entitlement: some meals are served
        ("Meals are served at the conference.", "Only vegetarian meals are served at the conference."),
        ("Steel may be used in the kitchen.", "Only stainless steel may be used in the kitchen."),
        # a question, a myth, a plan, the past outside the group, a definition
        (
            "The discount is available to customers.",
            "Is the discount available only to new customers? No, all customers can use it.",
        ),
        ("Adults should get the flu vaccine.", "Myth: only older adults should get the flu vaccine."),
        (_BONUS, "Under the proposals, only full-time employees would be eligible for the bonus."),
        (_BONUS, "From 2026, only full-time employees will be eligible for the bonus."),
        (
            "Customers can open an account online.",
            "At launch, only existing customers could open an account online.",
        ),
        (
            "The service is available to customers.",
            'In these terms, "customer" means a business customer. The service is available only to business '
            "customers.",
        ),
        # the claim points back, or names the group by a word of its own
        (
            "These employees are eligible for the bonus.",
            "Only full-time employees are eligible for the bonus.",
        ),
        (
            "Prime members are entitled to free delivery.",
            "Only Amazon Prime members are entitled to free delivery.",
        ),
        (
            "Patients who are pregnant should avoid the drug.",
            "Only female patients who are pregnant should avoid the drug.",
        ),
        ("RNs may administer the drug.", "Only registered nurses (RNs) may administer the drug."),
        # another group, a list in symbols, an identifying "of", counts in capitals or words
        (_BONUS, "Only large employers are eligible for the bonus."),
        ("Nurses may prescribe the drug.", "Only doctors & nurses may prescribe the drug."),
        ("Members may use the pool.", "Only members of the club may use the pool."),
        (_BONUS, "Only Two Employees Are Eligible For The Bonus."),
        (_BONUS, "Only thirty employees are eligible for the bonus."),
        # a recipient of form, place, purpose or time, or of a predicate that restricts already
        ("Dividends are paid in sterling.", "Dividends are paid only in pounds sterling."),
        ("The grant is available to students.", "The grant is available only to help students pay fees."),
        ("The card is valid for the year.", "The card is valid only for the calendar year."),
        ("Access is restricted to staff.", "Access is restricted to authorised clinical staff only."),
        ("The watch is sold in boutiques.", "The watch is sold in the company's own boutiques only."),
        ("The discount is available to customers.", "The discount is available to [...] only."),
        # a count with a hyphen; what a thing may do; "will" inside another word of the claim
        (_BONUS, "Only twenty-five employees are eligible for the bonus."),
        ("Tablets can cause drowsiness.", "Only extended-release tablets can cause drowsiness."),
        (
            "Employees are eligible for the goodwill payment.",
            "From 2026, only full-time employees will be eligible for the goodwill payment.",
        ),
    ],
)
def test_no_group_is_narrowed(claim: str, window: str) -> None:
    assert _dropped(claim, window) == []

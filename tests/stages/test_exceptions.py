"""Exceptions: a claim that states of one item what the window states of everything but it."""

from __future__ import annotations

import pytest

from workers.stages.align import Parsed
from workers.stages.exceptions import excepted


def _excepted(claim: str, window: str) -> str | None:
    read = Parsed.of(window)
    found = [excepted(Parsed.of(claim), read, segment=s) for s in read.segments]
    spans = [s for s in found if s is not None]
    return window[spans[0][0] : spans[0][1]] if spans else None


@pytest.mark.parametrize(
    ("claim", "window", "exception"),
    [
        (
            "The warranty covers batteries.",
            "The warranty covers all parts except batteries and cables.",
            "except batteries and cables",
        ),
        (
            "The warranty also covers cables.",
            "The warranty covers all parts except batteries and cables.",
            "except batteries and cables",
        ),
        (
            "Contractors are eligible for the scheme.",
            "All staff apart from contractors are eligible for the scheme.",
            "apart from contractors",
        ),
        # the exception opens the clause: its list ends at the comma
        (
            "Contractors are eligible for the scheme.",
            "Apart from contractors, all staff are eligible for the scheme.",
            "Apart from contractors",
        ),
        (
            "The policy covers theft.",
            "The policy covers accidental damage and fire but excludes theft.",
            "excludes theft",
        ),
        (
            "The policy covers theft.",
            "The policy covers all losses excluding theft and wear and tear.",
            "excluding theft and wear and tear",
        ),
        (
            "Ireland joined the agreement.",
            "All EU members, with the exception of Ireland, joined the agreement.",
            "with the exception of Ireland",
        ),
        # a name or a figure is the item as well as a word
        (
            "The store accepts American Express.",
            "The store accepts all major cards except American Express.",
            "except American Express",
        ),
        (
            "Smith voted for the bill.",
            "All ministers except Smith voted for the bill.",
            "except Smith",
        ),
        (
            "Senior managers receive the bonus.",
            "Every employee receives the bonus with the exception of senior managers.",
            "with the exception of senior managers",
        ),
        # a word of the group said again in the item, and the item's own rule in another sentence
        # that says none of the claim's predicate
        (
            "Refunds are available on sale items.",
            "Refunds are available on all items except sale items.",
            "except sale items",
        ),
        (
            "Hungary voted in favour of the motion.",
            "Every member state except Hungary voted in favour of the motion. Hungary abstained.",
            "except Hungary",
        ),
        # a clause about the item that says no word of the claim's
        (
            "The fund holds energy stocks.",
            "The fund holds stocks in every sector except energy stocks, which are capped by its charter.",
            "except energy stocks",
        ),
        # an exclusion in a sentence of its own, for a claim of cover
        (
            "The policy covers theft.",
            "The policy covers accidental damage and fire. Theft is excluded from cover.",
            "Theft is excluded",
        ),
        (
            "The policy covers water damage.",
            "The policy covers only accidental damage to the device. Water damage and theft are excluded.",
            "Water damage and theft are excluded",
        ),
    ],
)
def test_an_item_the_window_excepts_is_found(claim: str, window: str, exception: str) -> None:
    assert _excepted(claim, window) == exception


@pytest.mark.parametrize(
    ("claim", "window"),
    [
        # the claim says what the window says of everything but the item, or says the exception
        ("The warranty covers parts.", "The warranty covers all parts except batteries."),
        ("Batteries are not covered.", "The warranty covers all parts except batteries."),
        (
            "The warranty covers all parts except batteries.",
            "The warranty covers all parts except batteries.",
        ),
        ("Only managers may enter.", "Nobody may enter except managers."),
        # a denial or a ban: the exception is the case that holds
        ("Managers may enter the vault.", "No staff may enter the vault except managers."),
        ("Residents may park on the street.", "Parking on the street is prohibited except for residents."),
        # a condition, a time, a clause or a hedge, not an item
        ("Staff may work remotely.", "Staff may not work remotely except in an emergency."),
        ("The shop is open on Sunday.", "The shop is open every day except when it snows."),
        ("A rash can be a symptom.", "Symptoms include fever and cough but not always a rash."),
        ("The phone is durable.", "Apart from being cheap, the phone is also durable."),
        ("The firm stands out.", "The firm stands apart from its rivals."),
        # "besides", not "except": no group to except from, or "also"
        ("The tour visits Paris.", "Apart from Paris, the tour also visits Lyon and Nice."),
        ("The company sells software.", "Other than software, the company sells hardware and services."),
        # a verb before the exception: a participle in the list is the item's own
        ("The fund invests in bonds.", "The fund invests in everything except bonds issued before 2000."),
        # a figure's basis
        (
            "The laptop costs £1,199 including VAT.",
            "The laptop costs £999 excluding VAT or £1,199 including VAT.",
        ),
        # the window says what holds of the item itself
        (
            "Pensioners travel free on buses.",
            "Everyone pays the full bus fare apart from pensioners, who travel free.",
        ),
        (
            "Senior staff get leave.",
            "All employees get 25 days of leave apart from senior staff, who get 30 days.",
        ),
        (
            "The captain was injured in the final.",
            "The captain played every game except the final, in which he was injured.",
        ),
        (
            "Smith voted against the bill.",
            "All ministers except Smith voted for the bill; Smith voted against it.",
        ),
        (
            "Batteries are covered.",
            "The main warranty covers all parts except batteries, but batteries are covered by the retailer.",
        ),
        # the item is a word of a longer one
        ("The warranty covers the battery.", "The warranty covers all parts except the battery charger."),
        ("The museum is open in winter.", "The museum is open all year except for two weeks in winter."),
        # the list ends before another clause that says the claim
        ("The diet includes fish.", "The diet excludes meat but includes fish."),
        ("The car has heated seats.", "The car has every option except a sunroof, including heated seats."),
        ("The bakery sells bread.", "The bakery sells cakes but not pies, and it sells bread."),
        (
            "Staff are eligible for the scheme.",
            "Apart from contractors, all staff are eligible for the scheme.",
        ),
        # reported, asked, past against present, another sentence saying the claim plainly
        ("Contractors are eligible.", "The union says all staff except contractors are eligible."),
        ("Contractors are eligible.", "Are all staff except contractors eligible?"),
        ("Contractors are eligible.", "Until 2020, all staff except contractors were eligible."),
        (
            "The policy covers theft.",
            "The policy covers all losses except theft. Theft is covered under a rider.",
        ),
        (
            "Students pay a reduced fee.",
            "Everyone pays the full fee apart from students, who pay a reduced fee.",
        ),
        # the claim says only that the item belongs to the group the exception takes it from
        ("Ireland is an EU country.", "All EU countries except Ireland and Cyprus are in the Schengen area."),
        ("Ringo was a member of the band.", "Every member of the band except Ringo wrote songs."),
        ("The final was one of the team's matches.", "The team won all its matches except the final."),
        (
            "Contractors work for the company.",
            "Everyone who works for the company, apart from contractors, gets health insurance.",
        ),
        # the item is the other side of a bound
        (
            "The vaccine is approved for infants over six months.",
            "The vaccine is approved for all age groups except infants under six months.",
        ),
        # an exclusion that something puts back, or from something else than the claim says
        (
            "The premium policy includes theft.",
            "Theft is excluded from the basic policy but included in the premium policy.",
        ),
        (
            "The policy covers pre-existing conditions after 12 months.",
            "Pre-existing conditions are excluded for the first 12 months. After 12 months the policy"
            " covers them.",
        ),
        (
            "Smokers are eligible for the higher premium.",
            "Smokers are excluded from the standard rate. They are eligible for the higher premium.",
        ),
        # an exclusion the claim does not state as cover, or one that excludes nothing
        ("Theft is common.", "The policy covers fire. Theft is excluded."),
        ("The policy covers theft.", "The policy covers theft and fire. Nothing is excluded."),
    ],
)
def test_no_exception_is_found(claim: str, window: str) -> None:
    assert _excepted(claim, window) is None

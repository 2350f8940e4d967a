"""Claims that apply a document's rules to a case of their own. Pure.

An answer often applies what a document lays down to the asker's case: "For a patient with a
creatinine clearance of 40 mL/min, the recommended dose is 10 mg once daily" against a label's bands
("CrCl 30 to 49 mL/min: 10 mg once daily"; "50 mL/min or above: no adjustment"); "A 60-year-old
starting levothyroxine should begin on 25 micrograms" against "Adults over 50 years: 25 micrograms";
"An employee contributing 8% of basic salary would receive 6%, as the match is capped there". The
case's figure is the question's, not the document's, and which band it falls in is a judgment the
rules cannot make: they made the 40 mL/min "50 mL/min", the 60-year-old "a 50-year-old" and the 8%
the default 4%, each a correct answer turned wrong. Such a claim is never corrected: where the rules
or the model doubt it, it is flagged.

A case holds a figure that is a point ("aged 60", "two capsules"; not a bound, "aged 12 or over", a
year, nor a number in a name, "type 2 diabetes"), in one of these shapes:
- an opening phrase up to its comma: "For a patient with a creatinine clearance of 40 mL/min,", "If
  a 22-year-old was driving,", "Assuming a 5% return,"; "With a potassium of 5.7 mmol/L," where
  the rest says what should or must be done;
- an indefinite subject before a modal or a present tense: "A £50 cash withdrawal would be charged
  ...", "A 60-year-old starting levothyroxine should begin ...", "An employee with seven years'
  service has to give ...", "A home 30 metres from a river has no flood cover";
- an indefinite subject a relative clause describes, not in the past: "A tenant who moves out in
  month 8 stays liable ...";
- a plural subject a participle describes, before a modal: "Tenants paying $1,800 a month would be
  charged ...";
- a gerund subject: "Taking two capsules daily provides 2,000 IU".
Not a case: "If potassium rises above 6.0 mmol/L, stop ACE inhibitors" (the document's rule said
again, its bound checked as the document's), "With 5,000 employees, Acme is the largest employer"
(no indefinite article: a fact), "A $5 million grant was awarded" (a past event), "In a 2019 study,
40% responded", "A study that enrolled 5,000 patients found ...", "Boeing delivered 528 planes".
A rule's own figure in such a subject is read as a case too ("A 30-day notice period is required"):
it is flagged where wrong, not corrected.

Usage::

    applies_to_case("A 60-year-old starting levothyroxine should begin on 25 micrograms.")  # True
    applies_to_case("The recommended dose for adults over 50 is 25 micrograms.")          # False
"""

from __future__ import annotations

import re

__all__ = ["applies_to_case"]

# Up to the phrase's end: a comma, full stop, colon or semicolon before a space ("£60,000" and "5.7"
# go on).
_ON = r"(?:(?![,.;:](?:\s|\Z)).)"
# The main verb of a case: a modal, or a present tense that states a rule's outcome ("A home 30 metres
# from a river has no flood cover"; not a past event: "A $5 million grant was awarded").
_MODAL = (
    r"\b(?:would|should|must|will|can|has\s+to|have\s+to|needs?\s+to|has|is|are|gets|pays|receives"
    r"|qualifies|stays|remains|falls|counts)\b"
)
# A plural subject states the document's rule again unless the verb is hypothetical ("Adults aged
# 18-65 are eligible" is the rule; "Tenants paying $1,800 a month would be charged" a case).
_HYPOTHETICAL = r"\b(?:would|should)\b"
_BEFORE_HYPOTHETICAL = rf"(?:(?!{_HYPOTHETICAL}){_ON})"
_ANY_MODAL = r"\b(?:would|should|can|could|will|must|may|might|shall)\b"
_BEFORE_MODAL = rf"(?:(?!{_MODAL}){_ON})"
_OPENING = re.compile(
    rf"\A\s*(?P<case>(?:For\s+an?|(?:If|When|Where)\s+(?:an?|someone|anyone|you|your)\b|Assuming|Supposing|Given)\s+{_ON}*),\s",
    re.IGNORECASE,
)
# "With a potassium of 5.7 mmol/L, the dose should not be increased": with a rule's word after it
# (not "With a market share of 30%, Acme leads the market").
_WITH = re.compile(
    rf"\A\s*(?P<case>With\s+an?\s+{_ON}*),\s(?=.*\b(?:would|should|must|can|may|needs?|recommended"
    r"|required|advised)\b)",
    re.IGNORECASE,
)
# An opening phrase with no figure may come first: "For annual pass holders, a 60-minute ride ...".
_LEAD = rf"\A\s*(?:(?:For|In|Among|Under)\s+{_ON}{{1,60}},\s+)?"
_INDEFINITE = r"(?:An?|Any|Anyone|Someone|Anybody|Somebody)"
_SUBJECT = re.compile(rf"{_LEAD}(?P<case>{_INDEFINITE}\s+{_BEFORE_MODAL}{{0,100}}?){_MODAL}", re.IGNORECASE)
# "A tenant who moves out in month 8 stays liable ...": an indefinite subject its relative clause
# describes, the figure within five words of the "who", before any modal.
# Not a past event ("A study that enrolled 5,000 patients found ...", "A company that was founded in
# 1998 ..."): the relative clause's first two words are no past tense.
_PAST = r"(?:\w+ed|was|were|had|did|went|made|took|got|gave|found|won|sold|bought|paid|left|began|saw)\b"
_DESCRIBED = re.compile(
    rf"{_LEAD}(?P<case>{_INDEFINITE}\s+(?:\w+\s+){{0,3}}?(?:who|that|whose)\s+(?!(?:\w+\s+)?{_PAST})"
    rf"(?:(?!{_ANY_MODAL})\S+\s+){{0,5}}\S+)",
    re.IGNORECASE,
)
# "Tenants paying $1,800 a month would be charged ...", "Patients weighing 80 kg ... should receive".
_GENERIC = re.compile(
    rf"\A\s*(?P<case>[A-Z][a-z]+s\s+(?:\w+ing|aged|with|weighing)\b{_BEFORE_HYPOTHETICAL}{{0,100}}?)"
    rf"{_HYPOTHETICAL}"
)
# "Taking two capsules daily provides 2,000 IU": a gerund subject holding a figure in its first words
# (not a preposition or a noun that ends in "-ing": "During 2020", "Following the 2019 merger").
_GERUND = re.compile(
    r"\A\s*(?!(?:During|Including|According|Following|Excluding|Regarding|Concerning|Notwithstanding"
    r"|Beginning|Starting|Pending|Considering|Using|Being|Having|Something|Nothing|Everything|Anything"
    r"|Spring|Morning|Evening|Building|Meeting|Funding|Training|Spending|Lending|Pricing|Earnings|Beijing)\b)"
    # a figure or a determiner right after it: "Taking two capsules", not "Boeing delivered 528"
    r"(?P<case>[A-Z][a-z]+ing\s+(?=[$£€\d]|(?:a|an|the|one|two|three|four|five|six|your|their|his|her)\s)"
    r"(?:\S+\s+){0,2}\S+)"
)
_SHAPES = (_OPENING, _WITH, _SUBJECT, _DESCRIBED, _GENERIC, _GERUND)
# The case's own figure is a point: "aged 60", "a CrCl of 40 mL/min", "two capsules". A bound is the
# document's rule said again ("Anyone aged 12 or over", "with CrCl below 30"), and a number in a name
# no figure ("type 2 diabetes", "stage 3").
_NUMBER = r"(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
_POINT = re.compile(
    r"(?<!\w)(?<![\w.,$£€])(?<!type )(?<!stage )(?<!grade )(?<!phase )(?<!level )(?<!class )(?<!tier )"
    r"(?<!category )(?<!schedule )(?<!section )(?<!article )(?<!clause )(?<!over )(?<!under )(?<!above )"
    r"(?<!below )(?<!least )(?<!than )(?<!to )(?<!up )(?!(?:19|20)\d\d\b)"
    rf"(?:[$£€]?\d[\d,]*(?:\.\d+)?|{_NUMBER}\b)(?![\w,.]*\s+(?:or|and)\s+(?:over|older|above|more|under|younger"
    r"|below|less|fewer|higher|lower)\b)(?![\d,.]*\s*\+)(?![\d,.]*\s*(?:-|–|to\s)\s*[$£€]?\d)",
    re.IGNORECASE,
)


def applies_to_case(text: str) -> bool:
    """Whether the claim `text` applies the document's rules to a case its own figure describes."""
    for shape in _SHAPES:
        m = shape.match(text)
        if m is not None and _POINT.search(m.group("case")):
            return True
    return False

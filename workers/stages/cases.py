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
- a gerund subject: "Taking two capsules daily provides 2,000 IU", "Jogging for 25 minutes three
  times a week would meet the guideline";
- the asker's own case said to them, with what would or would not follow: "With taxable turnover of
  £85,000 you don't yet have to register", "On earnings of £10,000 a month, your benefit would be
  capped at £5,000", "As your kettle developed a fault four months after delivery, you're past the
  30-day period" (not "At 65 you can claim your State Pension": the rule said to them; nor a time or
  a date, "At 9:45 am you would have to attend");
- an age the claim supposes: "For a 55-year-old woman cervical screening is every five years".
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

from workers.stages._text import MONTH_NAMES

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
# The asker's own case, said to them, with what would or would not follow: "With taxable turnover of
# £85,000 over the last 12 months you don't yet have to register", "With only 8 qualifying years, you
# wouldn't get any State Pension", "On earnings of £10,000 a month, your benefit would be capped",
# "As your kettle developed a fault four months after delivery, you're past the 30-day period". Not
# the document's rule said to them: "At 65 you can claim your State Pension", "With 30 qualifying
# years you get the full pension" (no "would", no denial).
_YOURS = re.compile(
    # "As", "Since", "Because" only of the asker's own: not "Because the limit is £85,000, you would ..."
    r"\A\s*(?P<case>(?:With|At|On|Earning|Having|Paying|(?:As|Since|Because)\s+(?=you|your))\s*"
    r"(?:(?!\byou\b)[^,.;:]|[,.]\d){1,100}?)"
    r",?\s+(?:you|your)\b[^,.;:]{0,40}?(?:\b(?:would|wouldn't|don't|do\s+not|doesn't|won't|can't|cannot|aren't"
    r"|isn't|needn't|still)\b|'d\b|'re\s+(?:past|over|under|not|still|within|outside|entitled))",
    re.IGNORECASE,
)
# ... where the opening phrase is not a time or a date ("At 9:45 am you must attend", "On 3 March you
# were sent a letter"; months capitalised: "who may be frail" is no date).
_TIME = re.compile(
    r"\b\d{1,2}:[0-5]\d\b(?!:?\d)|\b\d{1,2}\s*(?:am|pm|a\.m\.|p\.m\.)(?!\w)"
    rf"|\b{MONTH_NAMES}\b"
)
# An age of someone the claim supposes: "For a 55-year-old woman cervical screening is every five years".
_AGED = re.compile(
    r"\A\s*(?P<case>For\s+an?\s+(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|twelve)[- ]"
    r"(?:year|month|week)s?[- ]old)\b",
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
    # a figure, a determiner or "for" and a duration right after it: "Taking two capsules", "Jogging
    # for 25 minutes", not "Boeing delivered 528", "Accounting for 40% of revenue"
    r"(?P<case>[A-Z][a-z]+ing\s+(?=[$£€\d]|(?:a|an|the|one|two|three|four|five|six|your|their|his|her)\s"
    r"|for\s+(?:\d+|one|two|three|four|five|six|ten|twenty|thirty)\s+(?:minutes?|hours?|days?|weeks?|months?|years?)\b)"
    r"(?:\S+\s+){0,2}\S+)"
)
_SHAPES = (_OPENING, _WITH, _YOURS, _AGED, _SUBJECT, _DESCRIBED, _GENERIC, _GERUND)
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
        if m is None or (shape is _YOURS and _TIME.search(m.group("case"))):
            continue
        if _POINT.search(m.group("case")):
            return True
    return False

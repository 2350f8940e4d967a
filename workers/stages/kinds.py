"""What kind of thing a name names, from the word that says so: a value of another kind is no fix.

A name often carries its kind in one word, its head: "Westchester *County*", "the South American
*Championships*", "the *University* of Texas". The rule checks replace a claim's name
with the window's name in the same role ("born in X" against "born in Y"), but a window may state a
name of another kind in that role: a hamlet for a county ("in Westchester County" against "in Carle
Place"), a city for a championship. Put in, such a fix says something the evidence does not. So a name
with a head only stands in for a name with the same head, and a name without one only for a name
without one; the claim is then flagged as unconfirmed instead of corrected.

A country says its kind by being one: "Germany" is no value for a coach's name ("Hans-Dieter
Flick", HaluEval). The price: a country and any other place no longer replace each other either ("born
in Texas" against "born in Mexico", "Germany" against "Munich" are flagged, not corrected), since a name
list cannot tell a person from a place. Smaller places are left without a kind on purpose: a town the
window names where the claim has a state ("based in Roseau" for "based in Michigan") is a true and
more precise statement, and such fixes moved answers toward their correct versions. Names that are
as often something else (a state, a town, a city, a person: "Georgia", "Jordan", "Chad", "Holland",
"Singapore", "Israel") are left without a kind. A nationality ("Polish", "French") stands for another
or for a one-word name the lists do not know ("Mandarin", "Khmer"), not for a longer name: "her Polish
rival" against "Poland's Anna Harkowska" is flagged, not made "her Poland rival".

Usage::

    same_kind("Westchester County", "Nassau County")  # True
    same_kind("Westchester County", "Carle Place")    # False
    same_kind("Paris", "Lyon")                         # True: neither says its kind
    same_kind("Hans-Dieter Flick", "Germany")          # False: a country
    same_kind("British", "Scottish")                   # False: both may hold
    region_of("based in Michigan", (9, 17), "based in Roseau, Minnesota", (9, 15))  # "Minnesota"
"""

from __future__ import annotations

import re

from workers.stages._text import wordset

__all__ = ["head", "names_another", "nested_nationalities", "region_of", "same_kind"]

# Words that name a kind of administrative area, institution, event or body when they end a name (or
# come before its "of"). Left out on purpose: words that are common surnames or parts of place names
# ("Bay", "Park", "Rivers", "Temple", "Ocean", "Island", "Lake"), where a fix of another shape is often
# right ("Green Bay" -> "Milwaukee", "Zack Snyder" -> "Michael Bay"), and the words that end country
# names ("United States", "Czech Republic").
_HEADS = wordset(
    "county parish province district borough township municipality prefecture canton "
    "university college academy institute seminary "
    "championship tournament olympics cup award prize trophy medal festival "
    "party airport stadium arena league club council committee agency department ministry "
    "corporation company magazine newspaper hospital museum cathedral station"
)

# Lower-case, without "the"; each a whole name. Left out: names as often something else (module doc).
_COUNTRY_NAMES = (
    "united states", "united states of america", "united kingdom", "great britain", "soviet union",
    "south africa", "south korea", "north korea", "new zealand", "saudi arabia", "sri lanka",
    "costa rica", "el salvador", "puerto rico", "ivory coast", "sierra leone", "burkina faso",
    "czech republic", "dominican republic", "papua new guinea", "east timor", "cape verde",
    "united arab emirates", "bosnia and herzegovina", "north macedonia", "trinidad and tobago",
    "west germany", "east germany", "vatican city", "san marino", "america", "korea", "congo",
    "south sudan", "equatorial guinea", "guinea-bissau", "côte d'ivoire", "timor-leste", "bosnia",
    "northern ireland", "viet nam", "central african republic", "solomon islands", "marshall islands",
    "yugoslavia", "czechoslovakia", "prussia", "persia", "republic of ireland",
    "people's republic of china", "democratic republic of the congo", "republic of the congo",
)  # fmt: skip
_COUNTRIES = wordset(
    """afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas
    bahrain bangladesh barbados belarus belgium belize benin bhutan bolivia botswana brazil brunei
    bulgaria burundi cambodia cameroon canada chile china colombia comoros croatia cuba cyprus czechia
    denmark ecuador egypt eritrea estonia eswatini ethiopia fiji finland france gabon gambia germany
    ghana greece grenada guatemala guinea guyana haiti honduras hungary iceland india indonesia iran
    iraq ireland italy jamaica japan kazakhstan kenya kiribati kosovo kyrgyzstan laos latvia lesotho
    liberia libya liechtenstein lithuania madagascar malawi malaysia maldives mali malta mauritania
    mauritius mexico micronesia moldova mongolia montenegro morocco mozambique myanmar burma namibia
    nauru nepal netherlands nicaragua niger nigeria norway oman pakistan palau palestine panama
    paraguay peru philippines poland portugal qatar romania russia rwanda samoa senegal serbia
    seychelles slovakia slovenia somalia spain sudan suriname sweden switzerland syria taiwan
    tajikistan tanzania thailand togo tonga tunisia turkey turkmenistan tuvalu uganda ukraine uruguay
    uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe england scotland britain usa us uk uae
    ussr"""
) | frozenset(_COUNTRY_NAMES)


# A nationality is said by an adjective: "her Polish rival" is not corrected to "her Poland rival".
_DEMONYMS = wordset(
    """american british english french german italian spanish portuguese dutch belgian swiss austrian
    polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian swedish norwegian
    danish finnish icelandic irish scottish welsh canadian mexican brazilian argentine argentinian
    chilean peruvian colombian venezuelan cuban australian chinese japanese korean indian pakistani
    bangladeshi afghan iranian iraqi israeli egyptian saudi syrian lebanese moroccan algerian tunisian
    libyan nigerian kenyan ethiopian ghanaian thai vietnamese indonesian malaysian filipino
    singaporean taiwanese nepalese serbian croatian bosnian slovenian albanian estonian latvian
    lithuanian belarusian armenian soviet jamaican haitian ecuadorian bolivian paraguayan
    uruguayan guatemalan honduran salvadoran nicaraguan panamanian trinidadian bahamian barbadian qatari
    emirati kuwaiti omani jordanian yemeni sudanese somali ugandan tanzanian zimbabwean zambian
    senegalese cameroonian ivorian congolese angolan mozambican rwandan malian burmese cambodian
    laotian mongolian kazakh uzbek azerbaijani cypriot maltese macedonian montenegrin
    moldovan kosovar fijian samoan tongan"""
)


# Nationalities one of which may contain the other: "a British tennis player" and "the Scottish tennis
# player" may both be true, so neither is a fix for the other.
_NESTED = {
    "british": wordset("english scottish welsh irish"),
    "soviet": wordset(
        "russian ukrainian belarusian armenian azerbaijani kazakh uzbek estonian latvian lithuanian moldovan"
    ),
    "cypriot": wordset("greek turkish"),
    "kosovar": wordset("albanian serbian"),
}


def nested_nationalities(a: str, b: str) -> bool:
    """Whether the nationalities `a` and `b` may both hold ("British", "Scottish")."""
    a, b = a.lower(), b.lower()
    return b in _NESTED.get(a, frozenset()) or a in _NESTED.get(b, frozenset())


# Words that make a country's name another place's: "Inner Mongolia" is in China, "New Mexico" in the
# United States. Compass words are left out: "West Germany", "South Korea" are, or were, the country.
_ELSEWHERE = wordset("new inner outer equatorial")
# What a nationality names alone as often as in full: "the French army", "American" for the airline.
_BODIES = wordset("army navy government economy people team airlines airline republic empire parliament")


def names_another(a: str, b: str) -> bool:
    """Whether the longer of two names, holding every word of the shorter, names something else: a
    nationality inside a longer name ("German" in "German City of Berlin", "French" in "French
    Montana"), a country after a word that moves it ("Mongolia" in "Inner Mongolia")."""
    short, long = sorted((a.lower().strip(), b.lower().strip()), key=len)
    if short == long:
        return False
    if _gazetted(short) == "nationality":
        rest = long.split()
        # "South Korean", "Dawn French": the nationality, or a surname, ends the name; "French Army",
        # "American Airlines": a body of that nation, so often called by the adjective alone.
        return rest[0] == short and not set(rest[1:]) <= _BODIES and _gazetted(long) != "nationality"
    before = long.removesuffix(short).split()
    return _gazetted(short) == "country" and bool(before) and before[-1] in _ELSEWHERE


def _gazetted(name: str) -> str | None:
    key = " ".join(name.lower().strip(".,'’").split())
    key = key[4:] if key.startswith("the ") else key
    if key in _COUNTRIES:
        return "country"
    return "nationality" if key in _DEMONYMS else None


def head(name: str) -> str | None:
    """The word of `name` that says its kind, singular and lower-case ("country" for the name of
    one, "nationality" for "Polish"); None where no word does."""
    words = name.split()
    if not words:
        return None
    if kind := _gazetted(name):
        return kind
    lower = [w.lower().strip(".,'’") for w in words]
    word = lower[lower.index("of") - 1] if "of" in lower[1:] else lower[-1]
    if word.endswith("s") and word[:-1] in _HEADS:  # "Championships"
        word = word[:-1]
    return word if word in _HEADS else None


def same_kind(a: str, b: str) -> bool:
    """Whether the names `a` and `b` may be values of one thing: the same head, or neither has one. A
    nationality and a one-word name without a kind may ("Polish", "Khmer"; a language: "Mandarin"),
    a nationality and a longer one may not ("Poland's Anna Harkowska")."""
    ha, hb = head(a), head(b)
    if {ha, hb} == {"nationality", None}:
        return len((b if hb is None else a).split()) == 1
    return ha == hb and not (ha == "nationality" and nested_nationalities(a, b))


# First-level divisions a "City, Region" apposition names: US states, Canadian provinces, Australian
# states. Each a whole name, lower-case.
_REGIONS = (
    "alabama", "alaska", "arizona", "arkansas", "california", "colorado", "connecticut", "delaware",
    "florida", "georgia", "hawaii", "idaho", "illinois", "indiana", "iowa", "kansas", "kentucky",
    "louisiana", "maine", "maryland", "massachusetts", "michigan", "minnesota", "mississippi",
    "missouri", "montana", "nebraska", "nevada", "new hampshire", "new jersey", "new mexico",
    "new york", "north carolina", "north dakota", "ohio", "oklahoma", "oregon", "pennsylvania",
    "rhode island", "south carolina", "south dakota", "tennessee", "texas", "utah", "vermont",
    "virginia", "washington", "west virginia", "wisconsin", "wyoming",
    "alberta", "british columbia", "manitoba", "new brunswick", "newfoundland and labrador",
    "nova scotia", "ontario", "prince edward island", "quebec", "saskatchewan",
    "new south wales", "queensland", "south australia", "tasmania", "victoria", "western australia",
)  # fmt: skip
_REGION_WORDS = sorted((r.replace(" ", r"\s+") for r in _REGIONS), key=len, reverse=True)
# "Roseau, Minnesota", "Carmel, Hamilton County, Indiana": the region a place is said to be in; not
# one of a list ("Toledo, Kansas City and Omaha", "Boston, New York and Chicago"), a possessive
# ("Adams, Virginia's delegate") or "Washington, D.C.".
_APPOSED = re.compile(r",\s+(?:(?:[A-Z][\w.'-]*\s+){1,3}(?:County|Parish),\s+)?")
_REGION_AFTER = re.compile(
    r"(?:" + "|".join(_REGION_WORDS) + r")\b(?!['’]s|\s+[A-Z]|,\s*(?:D\.?C\.?|[A-Z][\w.'-]*\s+(?:and|or)\b)"
    r"|\s+(?:and|or)\s+[A-Z])",
    re.IGNORECASE,
)
# The place is where something is: "born in", "based in", "located at".
_LOCATIVE = re.compile(r"\b(?:in|at|near|outside|from)\s+(?:the\s+)?\Z", re.IGNORECASE)


def region_of(claim: str, value: tuple[int, int], window: str, place: tuple[int, int]) -> str | None:
    """The region the window places a rival place in, where the claim names a region instead: "based
    in Michigan" against "based in Roseau, Minnesota" is fixed with "Minnesota", a value of the
    claim's level, not "Roseau". None where the claim's value (`claim[value[0]:value[1]]`) is no
    region, either name is no place ("signed by Washington"; a place follows "in", "at", "from"...),
    or the window says no region right after its place (`window[place[0]:place[1]]`)."""
    claimed = " ".join(claim[value[0] : value[1]].lower().split())
    if claimed not in _REGIONS or not _LOCATIVE.search(claim, 0, value[0]):
        return None
    if not _LOCATIVE.search(window, 0, place[0]):
        return None
    apposed = _APPOSED.match(window, place[1])
    region = _REGION_AFTER.match(window, apposed.end()) if apposed else None
    return region.group(0) if region and region.group(0)[:1].isupper() else None

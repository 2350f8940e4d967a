"""Groups narrowed by "only": "Employees are eligible" against "Only full-time employees are ...". Pure.

A claim that says of a whole group what its document says only of part of it ("Investors may
participate" against "Only accredited investors may participate"; "The discount is available to
customers" against "... to new customers only") shares every word of the document's sentence but
the narrowing ones, so similarity is high and the cross-encoder reads support. `restrictions` flags
it as a condition the claim drops, never fixes it.

Three review rounds of probes and two code reads shaped what is read (the first versions flagged
48 of 132, 36 of 111 and 65 of 113 correct answers). Read:

- a subject opening the clause (or after a comma or colon): "Only <modifiers> <the claim's word>",
  or "Only <the claim's word> <who / with / over / aged ...> ..." up to the verb ("Only employees
  with five years' service are eligible"), followed at once by the claim's other words, where the
  claim says what its subject may, must or is entitled to do ("may participate", "are eligible",
  "qualify"): of a thing, "Meals are served" is true of some meals when "Only vegetarian meals are
  served", and "Tablets can cause drowsiness" of some tablets (a verb of what a thing may do after
  the modal is not read);
- the recipient of a predicate of whom ("available", "open", "eligible", "offered" ...): "available
  only to new customers", "is only available to new customers", and "<predicate> to / for / in / on
  / at <modifiers> <the claim's word> only" ("valid in selected stores only");
- for the subject, a claim's group that names the other part by a pair of words that part a group
  of people in two, or by "non-" or "un-" ("Part-time employees are eligible" against "Only
  full-time employees are eligible"; "Non-resident owners must pay" against "Only resident owners
  must pay"), where the window does not name the claim's part elsewhere (`_contrasted`).

Not read, each from a false flag: "only" telling when, how many, how much or which of a list ("Only
in 2021 did ...", "Only thirty places ...", "Only minor changes are ...", "Only doctors and nurses
may ...": no preposition, auxiliary, conjunction, count or time stands between "only" and the noun);
punctuation between ("Only registered nurses (RNs)"); an identifying "of" ("Only members of the
club"); a recipient of a predicate of form, selling place, purpose or time ("paid only in
sterling", "sold in its own boutiques only", "given only to help pay fees", "valid only for the
calendar year"), or of a predicate that restricts already
("restricted to staff"); a claim whose own group has a modifier or points back ("Patients over
65", "Prime members", "These employees": it says the group another way); a claim that says a word
of the window's modifier ("Gold card customers" against "customers who hold a Gold card"); a
sentence that asks, reports, plans or states a condition ("Is the discount available only to ...?",
"Myth: only older adults ...", "Under the proposals, only ... would"), the past or a future the
claim does not tell outside the group ("At launch, only existing customers could ..."), or a window
that defines the group ('"employees" means full-time employees'); a denied claim ("Only part-time
staff are not eligible" is an exception).

Usage::

    window = Parsed.of("Only full-time employees are eligible for the bonus.")
    narrowed_group(Parsed.of("Employees are eligible for the bonus."), window, segment=(0, 52))
    # (0, 24): "Only full-time employees"
"""

from __future__ import annotations

import itertools
import re

from workers.stages._text import SYMBOL_TOKEN, wordset
from workers.stages.align import Parsed, covered
from workers.stages.clauses import negated, stems_between
from workers.stages.slots import terms_match, values_match
from workers.stages.terms import content_terms

__all__ = ["names_other_part", "narrowed_group"]


_ONLY = re.compile(r"(?<![\w'’-])(?:only|solely|exclusively)(?![\w'’-])", re.IGNORECASE)
# "the only", "not only", "if only" narrow nothing.
_NOT_NARROWING = re.compile(r"(?<![\w'’-])(?:the|an?|its|their|his|her|our|my|your|not|if)\s*\Z", re.I)
# Words no modifier of a group is: a preposition, an auxiliary, a conjunction, a pronoun, a count, a
# time, a degree, or a verb of purpose. "only" then tells when, how many, how much, what for or
# which of a list, and the claim may say less ("Only in 2021 did ...", "Only three branches ...",
# "Only minor changes ...", "available only to help students pay fees").
_NOT_GROUP = wordset(
    """a an one two three four five six seven eight nine ten eleven twelve twenty dozen hundred this that
    these some any all each every no few several many most half last next later earlier first and or nor
    but if then now when where while once twice since until after before by of with from in on at to for
    into over under about around during than as so just partly partially slightly briefly due minor
    preliminary partial slight modest mild basic initial limited occasional rare rarely token is are was
    were be been being am do does did has have had may might can could must shall should will would it
    its there here who which whose what & thirteen fourteen fifteen sixteen seventeen eighteen nineteen
    thirty forty fifty sixty seventy eighty ninety thousand million billion dozens hundreds thousands
    handful help support cover enable pay fund buy assist ensure meet make use allow let"""
)
# Predicates of whom or where something is for: "available only to new customers"; not of form,
# place or purpose ("paid only in sterling", "given only to help pay fees", "sold in its own
# boutiques only"), nor one that restricts already ("restricted to residents" is weaker, not wrong).
_RECIPIENT = re.compile(
    r"available|open|eligible|valid|appl(?:y|ies)|offered|accessible|granted"
    r"|issued|suitable|recommended|intended|approved|licen[cs]ed|indicated|allowed|permitted",
    re.IGNORECASE,
)
# What opens a modifier after a group's noun ("Only employees with five years' service ...") and
# the verb that ends it ("... are eligible"); also where a claim's own group ends.
_POST = wordset(
    """who that whose with aged over under above below from in at holding earning living enrolled
    registered employed resident"""
)
# A recipient that is a time or a purpose is how long or what for, not for whom ("valid only for
# the calendar year", "available only for private hire").
_TIME = wordset(
    "year years month months week weeks day days hour hours period term season quarter night hire use sale"
)
# A claim that points back ("These employees are eligible") says the group an earlier sentence named.
_POINTING = wordset("these those such this that")
_MODAL_WORDS = wordset("may might can could must shall should will would")
_ENTITLED = re.compile(
    r"eligible|entitled|allowed|permitted|required|obliged|obligated|able|liable|exempt|invited|welcome"
    r"|qualified|authori[sz]ed|licen[cs]ed|covered|insured|responsible",
    re.IGNORECASE,
)
# What a thing may do, not a person ("Only extended-release tablets can cause drowsiness").
_CHANCE = wordset(
    """not have only contain contains cause include affect vary change occur result lead increase reduce
    differ interact trigger produce damage harm exceed fail break expire"""
)
# Pairs of modifiers that part a group of people in two, and that `stages.swaps` does not fix already
# ("domestic" and "international", "male" and "female", "temporary" and "permanent" it replaces).
_CONTRASTS = frozenset(
    frozenset(pair)
    for pair in (
        ("fulltime", "parttime"),
        ("new", "existing"),
        ("new", "current"),
        ("senior", "junior"),
        ("single", "married"),
        ("business", "personal"),
        ("corporate", "individual"),
        ("retail", "professional"),
        ("retail", "institutional"),
        ("employed", "selfemployed"),
        ("home", "overseas"),
        ("undergraduate", "postgraduate"),
    )
)
_TO_DO = wordset("required allowed permitted obliged obligated able")
_VERB = wordset(
    """is are be may might can could must shall should will would do does remain remains become becomes
    qualify qualifies get gets receive receives need needs"""
)
# Where a part of the clause ends ("Only members may use the pool, but guests may use the gym");
# not a thousands separator.
_PART_END = re.compile(r",(?!\d)|;|:|\s(?:and|but|or|whereas|while|yet)\s", re.IGNORECASE)
_JOINS = wordset("and or but nor & whereas while yet")
_TRAILING = re.compile(
    r"(?P<pred>[\w'’-]+)\s+(?P<group>(?:to|for|in|at|on)(?:\s+[^\s,;:()]+){1,5}?)\s+(?:only|solely|exclusively)"
    r"(?=\s*(?:[.,;:!?)]|\Z))",
    re.IGNORECASE,
)
# A sentence that tells what someone says, believes, plans or asks, or a condition's clause: no
# standing narrowing ("Is the discount available only to new customers?", "Myth: only older adults
# ...", "If only full-time staff are ..."). In the group's part of the clause but outside the group,
# the past or a hypothetical ("At launch, only existing customers could ..."; not "Only taxpayers
# who have been resident ...", whose "been" is the group's).
_FRAMED = re.compile(
    r"\b(?:says?|said|claims?\s+that|claimed|argues?|according\s+to\s+(?:critics|some|many|rumou?rs?|reports)"
    r"|myths?|misconceptions?|untrue|believes?|thinks?|suggests?|rumou?rs?|assumes?|propos(?:ed|es|als?)"
    r"|plans?\s+to|planned|whether|if)\b|\b(?:false|wrong|incorrect)\s*(?::|that\b)|\?",
    re.IGNORECASE,
)
_WILL = re.compile(r"\bwill\b", re.IGNORECASE)
_PAST = re.compile(
    r"\b(?:was|were|had|did|been|could|would|originally|formerly|previously|initially|launch|used\s+to)\b",
    re.IGNORECASE,
)
_DEFINES = re.compile(
    r"([\w'’-]+)\W{0,2}\s+(?:means|refers\s+to|is\s+defined\s+as|shall\s+mean|includes\s+only)\b", re.I
)


def narrowed_group(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> tuple[int, int] | None:
    """(start, end) in the window of the group its clause `segment` narrows with "only" and words the
    claim does not say, where the claim says the whole group; None where there is none."""
    if not _ONLY.search(ev.text, *segment):  # every shape holds "only" (or "solely", "exclusively")
        return None
    if negated(claim, (0, len(claim.text))) or _FRAMED.search(ev.text, *segment):
        return None
    if _WILL.search(ev.text, *segment) and not _WILL.search(claim.text):
        return None  # "From 2026, only full-time employees will be eligible": not yet
    groups = (_group(claim, ev, segment, m) for m in _ONLY.finditer(ev.text, *segment))
    trailing = (_trailing(claim, ev, segment, m) for m in _TRAILING.finditer(ev.text, *segment))
    found = next((g for g in itertools.chain(groups, trailing) if g is not None), None)
    return None if found is None else found[0]


def names_other_part(claim: Parsed, ev: Parsed, *, segment: tuple[int, int]) -> bool:
    """Whether the claim's group is the other part of the one the window's clause `segment` narrows
    with "only" ("Part-time employees" against "Only full-time employees"): then the claim denied
    ("Part-time employees are not eligible") is what the window says."""
    if not _ONLY.search(ev.text, *segment) or _FRAMED.search(ev.text, *segment):
        return False
    found = (_group(claim, ev, segment, m) for m in _ONLY.finditer(ev.text, *segment))
    return any(g is not None and g[1] for g in found)


def _group(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], only: re.Match[str]
) -> tuple[tuple[int, int], bool] | None:
    """(start, end) of "Only <words> <claim's word> [<post-modifier>]" opening the clause, or of
    "<claim's predicate> only to <words> <claim's word>", with words the claim does not say; and
    whether the claim's group is its other part (`_contrasted`)."""
    before = ev.text[segment[0] : only.start()]
    opens = not before.strip(" \"'“”‘’([") or before.rstrip().endswith((",", ":"))
    words = list(itertools.islice(SYMBOL_TOKEN.finditer(ev.text, only.end(), segment[1]), 7))
    if _NOT_NARROWING.search(before) or opens == _recipient(claim, before, words):
        return None
    if not opens:  # "available only to", "only available to"
        words = words[2:] if _RECIPIENT.fullmatch(words[0].group()) else words[1:]
    head = _head(claim, ev, words)
    if head is None:
        return None
    other = frozenset[str]()
    if not _bare(claim, head.group(), subject=opens):
        other = _contrasted(claim, ev, head, only.end()) if opens else frozenset()
        if not other:
            return None
    end = _post_modified(claim, ev, head, segment[1]) if opens and not other else None
    if end is None and not other and not _unsaid(claim, ev, (only.end(), head.start())):
        return None
    found = _held(claim, ev, segment, (only.start(), end or head.end()), tight=opens, skip=other)
    return None if found is None else (found, bool(other))


def _recipient(claim: Parsed, before: str, words: list[re.Match[str]]) -> bool:
    """Whether "only" follows a predicate of whom the claim says and precedes "to" or "for"
    ("available only to"), or precedes both ("only available to")."""
    said = [w.group() for w in words[:2]]
    prior = SYMBOL_TOKEN.findall(before)[-1:]
    if len(said) == 2 and _RECIPIENT.fullmatch(said[0]) and said[1].lower() in ("to", "for"):
        return _claims(claim, said[0])
    return bool(prior) and bool(said) and said[0].lower() in ("to", "for") and _predicate(claim, prior[0])


def _predicate(claim: Parsed, word: str) -> bool:
    return _RECIPIENT.fullmatch(word) is not None and _claims(claim, word)


def _trailing(
    claim: Parsed, ev: Parsed, segment: tuple[int, int], m: re.Match[str]
) -> tuple[tuple[int, int], bool] | None:
    """(start, end) of "to <words> <claim's word> only" after the claim's predicate of whom or where."""
    words = list(SYMBOL_TOKEN.finditer(ev.text, m.start("group"), m.end("group")))[1:]
    if (
        not words
        or not _predicate(claim, m.group("pred"))
        or len(words) > 4
        or _head(claim, ev, words) is not words[-1]
    ):
        return None
    if not _bare(claim, words[-1].group(), subject=False):
        return None
    if not _unsaid(claim, ev, (words[0].start(), words[-1].start())):
        return None
    found = _held(claim, ev, segment, (m.start("group"), m.end()), tight=False)
    return None if found is None else (found, False)


def _head(claim: Parsed, ev: Parsed, words: list[re.Match[str]]) -> re.Match[str] | None:
    """The first of the claim's words among `words`' first four (after "the" or "those"), where those
    before it are modifiers (no punctuation, preposition, auxiliary, conjunction, count or time) and
    it names no time ("valid only for the calendar year" is how long, not for whom)."""
    if words and words[0].group().lower() in ("the", "those"):
        words = words[1:]
    at = next((i for i, w in enumerate(words[:4]) if _claims(claim, w.group(), whole=True)), None)
    if at is None or words[at].group().lower() in _TIME:
        return None
    between = ev.text[words[0].start() : words[at].start()]
    return (
        None
        if re.search(r"[,;:()/]", between) or any(_not_group(w.group()) for w in words[:at])
        else words[at]
    )


def _bare(claim: Parsed, head: str, *, subject: bool) -> bool:
    """Whether the claim says the group `head` names with no modifier of its own: a subject with no
    word before it nor up to its verb ("Employees are", not "Full-time employees are", "Patients
    over 65 should" nor "Patients who ..."); a recipient right after its preposition (the last of
    the claim's mentions), the claim's last word."""
    words = SYMBOL_TOKEN.findall(claim.text)
    heads = {t.stem for t in content_terms(head)}
    at = [i for i, w in enumerate(words) if any(t.stem in heads for t in content_terms(w))]
    if not at:
        return False
    if not subject:
        lead = [w.lower() for w in words[: at[-1]] if w.lower() != "the"][-1:]
        return lead in (["to"], ["for"], ["in"], ["at"], ["on"]) and not _content(words[at[-1] + 1 :])
    after, before = words[at[0] + 1 :], [w.lower() for w in words[: at[0]]]
    verb = next((i for i, w in enumerate(after) if w.lower() in _VERB), None)
    if verb is None or after[0].lower() in _POST or _content(before) or _POINTING.intersection(before):
        return False
    return not _content(after[:verb]) and _entitles([w.lower() for w in after[verb : verb + 4]])


def _contrasted(claim: Parsed, ev: Parsed, head: re.Match[str], only: int) -> frozenset[str]:
    """The claim's modifiers of the subject group `head` names, where one of them names another part
    of it than one of the window's, by a pair of words that part a group in two ("Part-time
    employees are eligible" against "Only full-time employees are eligible"; "Existing customers"
    against "Only new customers"), and the window names the claim's part nowhere; none where the
    claim is no such subject. A review round that
    read any modifier the window does not say flagged 31 of 164 correct answers ("Fulltime",
    "Licensed" for "licenced", "First-time" for "new", "British" for "UK")."""
    words = SYMBOL_TOKEN.findall(claim.text)
    heads = {t.stem for t in content_terms(head.group())}
    at = next((i for i, w in enumerate(words) if any(t.stem in heads for t in content_terms(w))), None)
    if not at or any(not content_terms(w) or _not_group(w) for w in words[:at]):
        return frozenset()
    after = words[at + 1 :]
    verb = next((i for i, w in enumerate(after) if w.lower() in _VERB), None)
    if verb is None or after[0].lower() in _POST or _content(after[:verb]):
        return frozenset()
    if not _entitles([w.lower() for w in after[verb : verb + 4]]):
        return frozenset()
    theirs = [_plain(m.group()) for m in SYMBOL_TOKEN.finditer(ev.text, only, head.start())]
    opposed = [w for w in words[:at] if any(_opposed(_plain(w), other) for other in theirs)]
    # a window that names the claim's part elsewhere gives it a rule of its own ("...; existing
    # customers must apply through their account manager")
    if not opposed or any(re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", ev.text, re.I) for w in opposed):
        return frozenset()
    return frozenset(t.stem for w in words[:at] for t in content_terms(w))


def _plain(word: str) -> str:
    return re.sub(r"[-'’]", "", word.lower())


def _opposed(mine: str, theirs: str) -> bool:
    """Whether two modifiers name two parts of one group: a pair of `_CONTRASTS`, or one the other
    denied by "non-" or "un-" ("non-resident", "unlicensed")."""
    if frozenset((mine, theirs)) in _CONTRASTS:
        return True
    return any(mine == f"{p}{theirs}" or theirs == f"{p}{mine}" for p in ("non", "un"))


def _entitles(said: list[str]) -> bool:
    """Whether the claim's verb (and the word after it) says what a person may, must or is entitled
    to do ("may participate", "are eligible", "qualify"): of a thing, "Meals are served" is true of
    some meals when "Only vegetarian meals are served" (two review rounds: 33 of 113 such flags)."""
    if said[0] in _MODAL_WORDS and said[1:2] == ["be"]:  # "will be eligible"
        said = said[1:]
    elif said[0] in _MODAL_WORDS:
        return len(said) > 1 and said[1] not in _CHANCE
    if said[0] in ("is", "are", "be", "remain", "remains", "become", "becomes") and len(said) > 1:
        # "are required to publish", not "are required before sale" (of a thing)
        return _ENTITLED.fullmatch(said[1]) is not None and (said[1] not in _TO_DO or said[2:3] == ["to"])
    return said[0] in ("qualify", "qualifies", "receive", "receives", "get", "gets", "need", "needs")


def _content(words: list[str]) -> bool:
    return any(content_terms(w) for w in words)


def _post_modified(claim: Parsed, ev: Parsed, head: re.Match[str], stop: int) -> int | None:
    """Where a modifier after the group's noun ends ("employees with five years' service"): before
    the verb that follows it, when it holds words the claim does not say and none that it says."""
    words = list(itertools.islice(SYMBOL_TOKEN.finditer(ev.text, head.end(), stop), 10))
    if not words or words[0].group().lower() not in _POST:
        return None
    for i, word in enumerate(words[1:], start=1):
        gap = ev.text[words[i - 1].end() : word.start()]
        if re.search(r"[,;:()/]", gap) or word.group().lower() in _JOINS or _claims(claim, word.group()):
            return None
        if word.group().lower() in _VERB:
            end = words[i - 1].end()
            return end if _unsaid(claim, ev, (head.end(), end)) else None
    return None


def _held(
    claim: Parsed,
    ev: Parsed,
    segment: tuple[int, int],
    group: tuple[int, int],
    *,
    tight: bool,
    skip: frozenset[str] = frozenset(),
) -> tuple[int, int] | None:
    """`group`, where its part of the clause says all the claim's words (but its own modifiers `skip`,
    where it names another part of the group: then nothing but them, and nothing before the group)
    with the claim's polarity, in no past, and nothing after them; for a subject (`tight`), the
    claim's words follow it at once; and the window defines no group."""
    part = _part(ev, segment, group)
    if not _said(claim, ev, part, skip) or _unsaid(
        claim, ev, (max(_last(claim, ev, part), group[1]), part[1])
    ):
        return None  # "Only senior staff may use the car park overnight": another case than the claim's
    opening = ev.text[segment[0] : group[0]].strip(" \"'“”‘’([")
    if skip and (opening or _unsaid(claim, ev, (group[1], part[1]))):
        # another part of the group: only where its "only" opens the sentence ("This week, only ..." is a
        # time) and says no kind of the claim's thing ("... for enhanced parental leave; others receive
        # the statutory minimum"): a review round found 10 of 167 such correct answers flagged
        return None
    outside = ((part[0], group[0]), (group[1], part[1]))
    if any(negated(ev, span) or _PAST.search(ev.text, *span) for span in outside):
        return None
    after = next((t for t in ev.terms if group[1] <= t.start < part[1]), None)
    if tight and (after is None or not _claims(claim, ev.text[after.start : after.end])):
        return None
    return None if _defined(ev, ev.text[group[0] : group[1]]) else group


def _defined(ev: Parsed, group: str) -> bool:
    """Whether the window defines a word of `group` ('"customer" means a business customer')."""
    heads = {t.stem for t in content_terms(group)}
    return any(t.stem in heads for m in _DEFINES.finditer(ev.text) for t in content_terms(m.group(1)))


def _last(claim: Parsed, ev: Parsed, part: tuple[int, int]) -> int:
    """Where the last of the window's words in `part` that are the claim's ends."""
    stems = [t.stem for t in claim.terms]
    ends = [
        t.end for t in ev.terms if part[0] <= t.start < part[1] and any(terms_match(s, t.stem) for s in stems)
    ]
    return max(ends, default=part[0])


def _part(ev: Parsed, segment: tuple[int, int], group: tuple[int, int]) -> tuple[int, int]:
    """The part of the clause `segment` around `group`, between the joins before and after it."""
    ends = list(_PART_END.finditer(ev.text, segment[0], group[0]))
    after = _PART_END.search(ev.text, group[1], segment[1])
    return (ends[-1].end() if ends else segment[0], after.start() if after else segment[1])


def _said(claim: Parsed, ev: Parsed, span: tuple[int, int], skip: frozenset[str] = frozenset()) -> bool:
    """Whether the window's `span` says every content word (but those in `skip`) and value of the claim."""
    values = [v for v in ev.values if span[0] <= v.start < span[1]]
    stems = [t.stem for t in claim.terms if t.stem not in skip]
    words = covered(stems, stems_between(ev, *span, values=True)) == 1.0
    return words and all(any(values_match(c, v) for v in values) for c in claim.values)


def _claims(claim: Parsed, word: str, *, whole: bool = False) -> bool:
    """Whether `word` is one of the claim's content words: the same stem ("employees" is no
    "employers", which a prefix would match); `whole`: a whole word of the claim's ("full-time" is
    no word of "Part-time employees", nor "resident" of "Non-resident owners")."""
    if whole:
        mine = {t.stem for t in content_terms(word)}
        return bool(mine) and any(
            {t.stem for t in content_terms(w)} == mine for w in SYMBOL_TOKEN.findall(claim.text)
        )
    stems = {c.stem for c in claim.terms}
    return any(t.stem in stems for t in content_terms(word))


def _not_group(word: str) -> bool:
    """Whether `word` cannot modify a group (a lone capital is a name: "Grade A staff")."""
    parts = word.lower().split("-")
    if word[0].isdigit() or (len(parts) > 1 and all(w in _NOT_GROUP for w in parts)):  # "twenty-five"
        return True
    return (len(word) > 1 and word.lower() in _NOT_GROUP) or word in _NOT_GROUP


def _unsaid(claim: Parsed, ev: Parsed, span: tuple[int, int]) -> bool:
    """Whether the window says in `span` a word or a value the claim does not say."""
    stems = [t.stem for t in claim.terms]
    values = (v for v in ev.values if span[0] <= v.start < span[1])
    new_word = any(not any(terms_match(s, w) for s in stems) for w in stems_between(ev, *span, values=True))
    return new_word or any(not any(values_match(c, v) for c in claim.values) for v in values)

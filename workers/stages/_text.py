"""Word lists and token heuristics shared by the text stages (extract, decompose, route). Pure.

No tagger is used: a "verb" is an auxiliary, a common irregular past form, or an "-ed"/"-s" word in a
position where a noun or adjective is unlikely. The heuristics prefer missing a split to inventing one.

Usage::

    words("It was founded in 1998")            # ['It', 'was', 'founded', 'in', '1998']
    is_clause(words("it is based in Oslo"), subject_first=True)   # True
    entity_spans("The firm moved to New York in 2020.")            # [(18, 26)]
"""

from __future__ import annotations

import re
from collections.abc import Sequence

__all__ = [
    "AUX",
    "DETERMINERS",
    "FUNCTION_WORDS",
    "MONTHS",
    "MONTH_NAMES",
    "NUMBER_WORDS",
    "ORDINAL_WORDS",
    "REPORTED",
    "SOURCE_NOUN",
    "STOPWORDS",
    "SUBJECT_PRONOUNS",
    "SYMBOL_TOKEN",
    "WEEKDAYS",
    "affirmed",
    "content_words",
    "entity_spans",
    "has_verb",
    "in_compound",
    "in_name",
    "is_clause",
    "is_verb",
    "lower_words",
    "same_case",
    "sentence_around",
    "words",
    "wordset",
]


# What an answer calls the text it summarises ("the passage", "this report"): a sentence framed by it is
# about the source (`stages.extract`), and its frame is not part of the fact (`backends.checker`).
SOURCE_NOUN = r"(?:passage|text|article|document|source|report|summary|story|excerpt)"
# Calendar words, in order (a month's number is its place plus one).
MONTHS = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip
# The full month names as a pattern, capitalised ("9 January"; "may" is no month).
MONTH_NAMES = "(?:" + "|".join(m.capitalize() for m in MONTHS) + ")"
_CAPITALISED = re.compile(r"[A-Z]")
# Numbers written as words, by value (0-20).
NUMBER_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty",
)  # fmt: skip
# The ordinals up to "twentieth", by value less one.
ORDINAL_WORDS = (
    "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
    "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth",
    "eighteenth", "nineteenth", "twentieth",
)  # fmt: skip
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# Up to three words of one clause before what follows ("not" ... "all": "does not work in all").
FEW_WORDS = r"(?:\s+(?!(?:and|or|but)\b)[\w'’-]+){0,3}?"


# A denial, to read a text without it: "does not accept", "isn't covered", "cannot", "can't", "won't".
_NOT = re.compile(r"\bnot\b|n['’]t\b|(?<=can)not\b", re.IGNORECASE)
_CONTRACTED_NOT = {"can": "can", "won": "will", "shan": "shall"}
_WHOLE_NOT = re.compile(r"\b(can|won|shan)['’]t\b", re.IGNORECASE)


def affirmed(text: str) -> str | None:
    """`text` without its "not" ("does not accept" read "does accept", "cannot" and "can't" "can",
    "won't" "will"), or None where it denies nothing that way: what removing the "not" leaves."""
    if not _NOT.search(text):
        return None
    text = _WHOLE_NOT.sub(lambda m: _CONTRACTED_NOT[m.group(1).lower()], text)
    return _NOT.sub(" ", text)


# A word with its hyphens, apostrophes, "&" and currency signs: "full-time", "AT&T", "£999".
SYMBOL_TOKEN = re.compile(r"[\w&'’%£$€-]+")
_SENTENCE_END = re.compile(r"[.!?](?=\s|\Z)")


def sentence_around(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) of the sentence around `text[start:end]`, its clauses after a ";" included."""
    starts = [m.end() for m in _SENTENCE_END.finditer(text, 0, start)]
    stop = _SENTENCE_END.search(text, end)
    return (starts[-1] if starts else 0, stop.start() if stop else len(text))


def same_case(model: str, word: str) -> str:
    """`word` capitalized as `model` is ("Rose" -> "Fell"), lower case otherwise."""
    return word[:1].upper() + word[1:] if model[:1].isupper() else word.lower()


def in_compound(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is joined to another word by a hyphen ("double-blind", "cost-cutting")."""
    return text[end : end + 1] == "-" or (start > 0 and text[start - 1] == "-")


def in_name(text: str, start: int, end: int) -> bool:
    """Whether text[start:end] is a capitalised word beside another: part of a name ("Niagara Falls",
    "West Virginia")."""
    if not text[start : start + 1].isupper():
        return False
    before, after = text[:start].split()[-1:], text[end:].split()[:1]
    return any(_CAPITALISED.match(w) for w in before + after)


def lower_words(text: str) -> frozenset[str]:
    """Every run of word characters in `text`, lowercased ("France's" gives "france" and "s"): what a
    text names, to test another's words against."""
    return frozenset(w.lower() for w in re.findall(r"\w+", text))


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text`, for writing word lists compactly."""
    return frozenset(text.split())


_WORD_BODY = r"\w+(?:['’-]\w+)*(?:[.,]\d+)*%?"
_WORD = re.compile(rf"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]|{_WORD_BODY}")
_WORD_WHOLE = re.compile(_WORD_BODY)

AUX = wordset(
    "is are was were be been being am has have had does do did will would can could may might shall should "
    "must isn't aren't wasn't weren't hasn't haven't hadn't doesn't don't didn't won't wouldn't can't "
    "couldn't shouldn't remains remained becomes became seems seemed"
)
_CONTRACTED = wordset(
    "it's he's she's that's there's they're we're they've we've i'm i've it'll they'll there're"
)
_IRREGULAR = wordset(
    "rose fell grew won lost made began came went took gave found wrote said sold bought built led left "
    "held paid kept met ran saw spent stood told thought brought caught taught felt got knew sent shot "
    "struck drew drove ate flew forgot froze hid hit hurt lay laid meant put rode rang shook shut sang sank "
    "sat slept spoke spread stole stuck swore threw understood woke wore withdrew cost cut dealt fought fed "
    "sought beat broke chose dug hung let sprang overtook doubled tripled shrank shrunk swung slid fled "
    "arose oversaw underwent outgrew forecast upheld withheld undertook"
)
# A report of what someone said, suggested or rejected: what follows it is no one's finding ("The
# tribunal dismissed the claim that the dismissal was unlawful", "The union alleged that the factory
# closed on 3 May 2013").
REPORTED = re.compile(
    r"\b(?:alleg\w*|suggest\w*|whether|rumou?r\w*|object(?:ed|ing|ion|ions)|claim(?:ed|ing)|argu(?:ed|ing|es)"
    r"|assert(?:ed|ing|ion)|contend\w*|contention|maintain(?:ed|ing|s)\s+that|believ(?:ed|ing)|fear(?:ed|ing)"
    r"|submitt(?:ed|ing)|complain(?:ed|ing|s|t|ts)?|declin(?:ed|ing)\s+to|refus(?:ed|ing)\s+to|revers(?:ed|ing)|set\s+aside"
    r"|overturn\w*|quash\w*|den(?:y|ies|ied|ying)|disput\w*|(?:claims?|reports?|argument)\s+that)\b",
    re.IGNORECASE,
)
SUBJECT_PRONOUNS = wordset("it he she they we i you there one")
DETERMINERS = wordset(
    "the a an its his her their our my your this that these those each every some many most all no both "
    "several few such another other either neither"
)
_PREPOSITIONS = wordset(
    "of in on at to for with by from as into onto over under about after before during since until than "
    "between among through across against within without per via near around upon towards toward"
)
FUNCTION_WORDS = (
    _PREPOSITIONS
    | wordset(
        "and or but nor so yet while whereas although though because if when where which who whom whose what "
        "also then thus hence however therefore moreover still just only even always never often perhaps "
        "sometimes besides whereas afterwards not too very more less much same"
    )
    | frozenset(("its", "this", "has"))
)
STOPWORDS = (
    FUNCTION_WORDS
    | DETERMINERS
    | SUBJECT_PRONOUNS
    | AUX
    | wordset(
        "how why what when where who which me him them us it's is was do does did be been being "
        "please tell know about can could would should there here"
    )
)
_NOT_ED = wordset("hundred indeed speed seed feed breed greed sacred naked wicked kindred")


def words(text: str, *, split_cjk: bool = True) -> list[str]:
    """Word tokens; a figure like "4.2", "1,000" or "12%" is one token.

    Each CJK character is one token (a fair count of words), unless `split_cjk` is False (for queries).
    """
    return (_WORD if split_cjk else _WORD_WHOLE).findall(text)


def content_words(text: str, *, split_cjk: bool = True) -> list[str]:
    """Words that are not stop words, in order, without case-insensitive repeats."""
    seen: set[str] = set()
    out: list[str] = []
    for w in words(text, split_cjk=split_cjk):
        low = w.lower()
        if low not in STOPWORDS and low not in seen:
            seen.add(low)
            out.append(w)
    return out


def _strong_verb(low: str) -> bool:
    return (
        low in AUX
        or low in _IRREGULAR
        or low in _CONTRACTED
        or (low.endswith("ed") and len(low) > 4 and low not in _NOT_ED)
    )


def _weak_verb(low: str) -> bool:
    # "-s" is a plural as often as a verb; callers only trust it in a verb-friendly position.
    return (
        low.endswith("s")
        and len(low) > 3
        and not low.endswith(("ss", "us", "is"))
        and low not in FUNCTION_WORDS
        and low.isalpha()
    )


def _low(word: str) -> str:
    return word.lower().replace("’", "'")


def is_verb(ws: Sequence[str], i: int) -> bool:
    """Whether `ws[i]` reads as a finite verb; capitalised words after the first are taken for names."""
    w = ws[i]
    low = _low(w)
    if i > 0 and not w.islower():
        return False
    if low in AUX or low in _IRREGULAR or low in _CONTRACTED:
        return True
    if i == 0:
        # a leading "-s" word is a plural subject ("Profits fell", "Results for 2023") far more often
        return _strong_verb(low)
    prev = ws[i - 1].lower()
    # "the limited", "400 jobs", "of based": after these a participle or plural is not the verb.
    if prev in DETERMINERS or prev in _PREPOSITIONS or prev[:1].isdigit():
        return False
    return _strong_verb(low) or _weak_verb(low)


def has_verb(ws: Sequence[str], *, start: int = 0) -> bool:
    """Whether a verb follows `start`; a final "-s" word ("Apples, pears") is taken for a plural."""
    last = len(ws) - 1
    return any(is_verb(ws, i) and (i < last or _strong_verb(_low(ws[i]))) for i in range(start, len(ws)))


def _subject_start(ws: Sequence[str]) -> bool:
    first = ws[0]
    low = first.lower()
    if low in SUBJECT_PRONOUNS or low in DETERMINERS or first[:1].isdigit():
        return True
    if low in FUNCTION_WORDS or low.endswith(("ing", "ly")) or _strong_verb(low):
        return False
    if first[:1].isupper():
        return True
    # "profits fell": a plural subject; "employs 400 people": a verb with no subject.
    return not _weak_verb(low) or (len(ws) > 1 and is_verb(ws, 1))


def is_clause(ws: Sequence[str], *, subject_first: bool) -> bool:
    """Whether the words hold a subject and a finite verb; `subject_first` asks the subject to lead."""
    if not ws:
        return False
    low = _low(ws[0])
    if len(ws) < 2:
        return low in _CONTRACTED
    if low in _CONTRACTED:
        return True
    if low in SUBJECT_PRONOUNS and low != "one":
        return any(is_verb(ws, i) or ws[i].lower() not in STOPWORDS for i in range(1, min(4, len(ws))))
    if subject_first and not _subject_start(ws):
        return False
    return has_verb(ws, start=1)


_ENTITY_WORD = re.compile(r"[^\W\d_][\w'’.&-]*")
_JOINERS = frozenset(("of", "de", "del", "der", "van", "von", "da", "la", "le", "&", "and", "for"))


def entity_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of runs of capitalised words ("New York", "Bank of England"), in text order."""
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    pending: list[tuple[int, int]] = []
    last = 0
    for m in _ENTITY_WORD.finditer(text):
        w = m.group().rstrip(".")
        if run and text[last : m.start()].strip():
            # punctuation between words ends a name: "Paris, France" is two
            _flush(run, spans)
            run, pending = [], []
        last = m.start() + len(w)
        if w[:1].isupper() and not (not run and w.lower() in STOPWORDS):
            run.extend(pending)
            pending = []
            run.append((m.start(), m.start() + len(w)))
        elif run and w.lower() in _JOINERS and not pending:
            pending = [(m.start(), m.end())]
        else:
            _flush(run, spans)
            run, pending = [], []
    _flush(run, spans)
    return spans


def _flush(run: list[tuple[int, int]], spans: list[tuple[int, int]]) -> None:
    if run:
        spans.append((run[0][0], run[-1][1]))

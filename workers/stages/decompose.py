"""Stage 2, query decomposition: per claim a direct, a context and a contradiction query. Pure.

- DIRECT: the claim as written.
- CONTEXT: the claim's subject and named entities with the question's content words, to find the passage
  about the same thing even when it is worded differently (skipped when it would repeat DIRECT).
- CONTRADICTION: the claim with its key slot (percentage, amount, figure, date, else the main named entity)
  taken out, so a passage stating a different value still matches lexically and densely.

Usage::

    queries = decompose(claim, question="What was revenue growth?")
    # for "Revenue rose 12% in 2023": DIRECT the claim, CONTEXT "Revenue growth",
    # CONTRADICTION "Revenue rose in 2023"
    key_slot("The firm was founded in 1998")    # (25, 29, "date")
"""

from __future__ import annotations

import re

from workers.messages import Claim, Query, QueryKind
from workers.stages._text import STOPWORDS, content_words, entity_spans, is_verb, words

__all__ = ["decompose", "key_slot"]

_MONTHS = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?"
    r"|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
)
_DIGITS = r"\d+(?:,\d{3})*(?:\.\d+)?"
_NUM = rf"(?<![\w.-]){_DIGITS}"
_SCALE = r"(?:\s?(?:bn|billion|mn|million|m|k|thousand|trillion|tn)\b\.?)?"
# Most specific first: the first kind found is the slot a contradiction would change.
_SLOTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("percentage", re.compile(rf"[-+]?{_NUM}\s?(?:%|percent\b|per\s+cent\b|percentage\s+points?\b)")),
    ("amount", re.compile(rf"(?:[$€£¥]|\b(?:USD|EUR|GBP|JPY|CHF)\s?){_DIGITS}{_SCALE}")),
    ("figure", re.compile(rf"{_NUM}\s?(?:bn|billion|mn|million|thousand|trillion|tn)\b")),
    (
        "measure",
        re.compile(rf"{_NUM}\s?(?:mg|mcg|µg|g|kg|ml|mL|l|km|m|cm|mm|mi|mph|km/h|°[CF]|kWh|MW|GW)(?!\w)"),
    ),
    (
        "date",
        re.compile(
            rf"\b{_MONTHS}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?|\b\d{{1,2}}\s+{_MONTHS}\s+\d{{4}}"
        ),
    ),
    ("date", re.compile(r"\b\d{4}-\d{2}-\d{2}\b")),
    ("number", re.compile(_NUM)),
)
_YEAR = re.compile(r"^(?:1[5-9]|20)\d{2}$")
# Words that only make sense with the removed value: "approximately [400]", "up to [5 mg]".
_MODIFIER = re.compile(
    r"\b(?:around|about|approximately|nearly|almost|over|under|roughly|some|only|just|exactly|up\s+to"
    r"|more\s+than|less\s+than|at\s+least|at\s+most)\s*\Z",
    re.IGNORECASE,
)
# A preposition left dangling: "founded in [1998]" -> "founded", but "operates in [14] countries" keeps it.
_DANGLING = re.compile(r"\b(?:in|on|at|by|of|to|from|since|during|until|than)\s*\Z", re.IGNORECASE)
_NEXT_WORD = re.compile(r"\s*(\w+)")
_STOP = re.compile(r"\b\w+(?:'\w+)?\b")
_POLARITY = re.compile(r"\s*\b(?:not|never|no longer|none|all|only|always)\b", re.IGNORECASE)


def decompose(claim: Claim, *, question: str = "") -> tuple[Query, ...]:
    """Direct lookup, context check, and a contradiction search with the key slot left open."""
    direct = claim.text.strip()
    queries = [Query(kind=QueryKind.DIRECT, text=direct)]
    context = _context(direct, question)
    if context and _norm(context) != _norm(direct):
        queries.append(Query(kind=QueryKind.CONTEXT, text=context))
    queries.append(Query(kind=QueryKind.CONTRADICTION, text=_contradiction(direct)))
    return tuple(queries)


def key_slot(text: str) -> tuple[int, int, str] | None:
    """(start, end, kind) of the value a contradiction would change, or None when the claim has none."""
    plain_year: tuple[int, int, str] | None = None
    for kind, pattern in _SLOTS:
        for m in pattern.finditer(text):
            if kind == "number" and _YEAR.match(m.group()):
                # a bare year is a weaker slot than a count in the same claim ("In 2023 it had 400 staff")
                plain_year = plain_year or (m.start(), m.end(), "date")
                continue
            return m.start(), m.end(), kind
    return plain_year or _entity_slot(text)


def _entity_slot(text: str) -> tuple[int, int, str] | None:
    spans = entity_spans(text)
    # the subject entity is what the claim is about; another entity is the likelier wrong value
    later = [s for s in spans if s[0] > 0]
    # a lone capitalised first word ("Water is ...") is as likely a common noun as a name
    first = [s for s in spans if s[0] == 0 and " " in text[s[0] : s[1]]]
    chosen = later[-1] if later else (first[0] if first else None)
    return (chosen[0], chosen[1], "entity") if chosen else None


def _contradiction(text: str) -> str:
    slot = key_slot(text)
    if slot is None:
        flipped = _squash(_POLARITY.sub("", text))
        return flipped if flipped and flipped != text else _squash(_STOP.sub(_drop_stopword, text)) or text
    start, end, _ = slot
    head, tail = _MODIFIER.sub("", text[:start]), text[end:]
    follower = _NEXT_WORD.match(tail)
    if follower is None or follower.group(1).lower() in STOPWORDS:
        head = _DANGLING.sub("", head)
    return _squash(f"{head} {tail}") or text


def _drop_stopword(m: re.Match[str]) -> str:
    return "" if m.group().lower() in STOPWORDS else m.group()


def _context(text: str, question: str) -> str:
    ws = words(text, split_cjk=False)
    verb = next((i for i in range(len(ws)) if is_verb(ws, i)), len(ws))
    subject = [w for w in ws[:verb] if w.lower() not in STOPWORDS and not w[:1].isdigit()]
    entities = [w for s, e in entity_spans(text) for w in words(text[s:e], split_cjk=False)]
    return " ".join(_dedupe([*subject, *entities, *content_words(question, split_cjk=False)]))


def _dedupe(parts: list[str]) -> list[str]:
    seen: set[str] = set()
    kept: list[str] = []
    for part in parts:
        if part.lower() not in seen:
            seen.add(part.lower())
            kept.append(part)
    return kept


def _squash(text: str) -> str:
    text = re.sub(r"\s+([,.;:!?%)])", r"\1", text)
    text = re.sub(r"([(])\s+", r"\1", text)
    text = re.sub(r"\(\s*\)|,\s*(?=,)", "", text)
    return re.sub(r"\s{2,}", " ", text).strip(" ,;:")


def _norm(text: str) -> str:
    return " ".join(w.lower() for w in words(text))

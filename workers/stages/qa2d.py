"""Short answers read with their question (QA2D): "Paris" to "What is the capital of France?" is checked
as "The capital of France is Paris". Pure.

An answer that is a fragment ("Paris", "1998", "Mumbai, the financial capital of India.") states nothing
on its own: as a hypothesis for the verifier it means nothing, and extraction does not even make a
claim of a one- or two-word fragment, so a wrong one passed unchecked. Here such an answer becomes one
claim whose `text` and offsets are the fragment as written (corrections edit it there) and whose
`standalone` is the question turned into a statement with the fragment in the place of the question
word, for retrieval and checking (as `stages.standalone` does for a leading pronoun):

- the question word in place ("... has a head office in what city?" + "Delhi"): replaced by the answer,
  "... has a head office in Delhi";
- a subject question ("Who founded Acme?", "Which magazine was started first?"): the answer as the
  subject, "Ann Lee founded Acme", "Arthur's Magazine is the magazine that was started first";
- an inverted question ("What is the capital of France?", "When was the tower built?", "Where did the
  style originate?"): the subject put back before its verb, the answer after it, "the capital of France
  is Paris", "the tower was built in 1889", "the style did originate in Vienna".

Nothing is made where the question does not parse (a yes / no question, no question word): the claim
then reads "<question> <answer>", which still says what the fragment answers. An answer with a finite
verb is a statement already and is left as extraction made it; so is an answer of more than one
sentence, and any answer when there is no question.

By default (`retrieval.short_answers_stated`) only a fragment whose words no document states becomes
such a claim (`unstated_answer`): "Lucy Liu" where no source names her is unsupported whatever the
question asks, and verification says so (`stages.verify.unstated`, with `answer_stated`).

Usage::

    claims = with_question(extract_claims(text), text, question="What is the capital of France?")
    qa_statement("What is the capital of France?", "Paris")       # "the capital of France is Paris"
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from workers.messages import Claim
from workers.stages._text import (
    AUX,
    DETERMINERS,
    FUNCTION_WORDS,
    SUBJECT_PRONOUNS,
    has_verb,
    is_verb,
    words,
    wordset,
)
from workers.stages.extract import claim_type, split_sentences

__all__ = [
    "answer_stated",
    "fragment_span",
    "qa_statement",
    "read_with_question",
    "unstated_answer",
    "with_question",
]

_WORD = re.compile(r"\w+(?:['’.-]\w+)*")
_WH = frozenset(("what", "which", "whose", "who", "whom", "where", "when", "how"))
# "how" asks for a value only with one of these ("How did ..." asks for a manner: no slot to fill).
_HOW = frozenset(("many", "much", "old", "long", "far", "tall", "big", "large", "high", "often", "deep"))
# Question words followed by the noun they ask about ("which city", "how many albums").
_DETERMINER_WH = frozenset(("what", "which", "whose", "how"))
_DO = frozenset(("do", "does", "did"))
# "what kind of track": the noun goes on past "of".
_KIND = frozenset(("kind", "kinds", "type", "types", "sort", "sorts", "form", "forms", "name", "names"))
# Participles the "-ed" rule misses ("When was she born?").
_PARTICIPLES = wordset(
    "born known grown given taken written shown seen done drawn sung begun chosen spoken worn driven "
    "ridden eaten fallen forgotten hidden risen stolen thrown won sold built made held led named"
)
_INVERTING = frozenset(AUX) - frozenset(("remains", "remained", "becomes", "became", "seems", "seemed"))
# Words that open a relative clause inside the subject: a participle after one is not the main verb.
_RELATIVE = frozenset(("who", "whom", "whose", "which", "that", "where", "when"))
_PREPOSITIONS = wordset(
    "of in on at to for with by from as into onto over under about after before during since until "
    "between among through across against within without near around upon"
)
# The preposition that puts an answer in the slot of "where" / "when".
_SLOT_WORD = {"where": "in ", "when": "in "}
_YES_NO = frozenset(("yes", "no"))
_DIGIT_GROUP = re.compile(r"(?<=\d),(?=\d{3})")
_NOT_CONTENT = FUNCTION_WORDS | DETERMINERS
# An answer with more words than this is no fragment.
_MAX_FRAGMENT_WORDS = 25
_TRAILING = " \t\n.!;:,"
# Punctuation between two words that ends a noun phrase ("which performer, and actress").
_BREAKS = frozenset(",;:()[]—–")


@dataclass(frozen=True, slots=True)
class _Token:
    text: str
    start: int
    end: int

    @property
    def low(self) -> str:
        return self.text.lower().replace("’", "'")


def with_question(claims: Sequence[Claim], answer: str, *, question: str) -> list[Claim]:
    """The claims, or for a fragment answer to a question one claim on the fragment read with it."""
    span = fragment_span(answer) if _is_question(question) else None
    if span is None:
        return list(claims)
    start, end = span
    if any(not (c.start <= start and end <= c.end) for c in claims) or len(claims) > 1:
        return list(claims)  # extraction split it: it is no plain fragment
    text = answer[start:end]
    standalone = qa_statement(question, text) or f"{_clean_question(question)}? {text}"
    sentence_start, sentence_end = split_sentences(answer)[0]
    return [
        Claim(
            id="c0",
            text=text,
            start=start,
            end=end,
            sentence=claims[0].sentence if claims else 0,
            sentence_start=sentence_start,
            sentence_end=sentence_end,
            claim_type=claims[0].claim_type if claims else claim_type(text),
            standalone=standalone,
        )
    ]


def unstated_answer(
    claims: Sequence[Claim], answer: str, *, question: str, sources: Sequence[str]
) -> list[Claim]:
    """The claims, plus the fragment answer's claim when none of `sources` states its words.

    "Lucy Liu" to "Who starred in ...?" against a text that never names her is unsupported whatever the
    question asks; a fragment whose words are all there is left unchecked, as extraction leaves it (read
    with its question, the verifier flags more right answers than it catches wrong ones,
    docs/VERIFIER-HISTORY.md).
    """
    read = with_question(claims, answer, question=question)
    if len(read) != 1 or not read_with_question(read[0]) or answer_stated(read[0].text, sources):
        return list(claims)
    return read


def answer_stated(text: str, sources: Sequence[str]) -> bool:
    """Whether one of `sources` holds every content word and figure of the short answer `text` (a "yes" or
    "no" aside: no source states those; they answer a claim the question makes)."""
    wanted = _content(text) - _YES_NO
    return not wanted or any(wanted <= _content(s) for s in sources)


def _content(text: str) -> set[str]:
    """Content words, folded so that spelling is no absence: case, accents ("Zürich"), a possessive
    ("Smith's"), hyphenated parts ("Paris-based"), digit groups ("1,000")."""
    plain = unicodedata.normalize("NFKD", text.replace("’", "'"))
    plain = "".join(c for c in plain if not unicodedata.combining(c)).lower()
    tokens = (_DIGIT_GROUP.sub("", t).removesuffix("'s") for t in words(plain))
    return {part for t in tokens for part in t.split("-") if part and part not in _NOT_CONTENT}


def read_with_question(claim: Claim) -> bool:
    """Whether the claim is a short answer read with its question: its text stands inside its standalone
    statement (a pronoun's standalone replaces the pronoun, so never holds the claim as written)."""
    s = claim.standalone
    return s is not None and s != claim.text and claim.text in s


def fragment_span(answer: str) -> tuple[int, int] | None:
    """(start, end) of the answer's text without trailing punctuation when it is one verbless sentence."""
    sentences = split_sentences(answer)
    if len(sentences) != 1:
        return None
    start, end = sentences[0]
    while end > start and answer[end - 1] in _TRAILING:
        end -= 1
    ws = words(answer[start:end])
    if (
        not ws
        or len(ws) > _MAX_FRAGMENT_WORDS
        or (len(ws) >= 3 and (has_verb(ws) or _base_form(answer[start:end])))
    ):
        return None
    return start, end


def _base_form(text: str) -> bool:
    """A plain lower-case word straight after a name ("Bellflowers prefer sunny areas"): most likely a
    verb in its base form, which the verb heuristics do not see; "Mumbai, the capital" has a comma."""
    tokens = list(_WORD.finditer(text))
    return any(
        a.group()[:1].isupper()
        and b.group().islower()
        and b.group() not in FUNCTION_WORDS
        and b.group() not in DETERMINERS
        and not text[a.end() : b.start()].strip()
        for a, b in itertools.pairwise(tokens)
    )


def qa_statement(question: str, answer: str) -> str | None:
    """The question as a statement with `answer` in the place of its question word; None if it won't parse."""
    whole = _clean_question(question)
    a = answer.strip().rstrip(_TRAILING)
    sentences = split_sentences(whole)
    if not sentences or not a:
        return None
    # "X was known for a song. Which album was it from?": the question is the last sentence.
    context, q = whole[: sentences[-1][0]], whole[sentences[-1][0] :]
    tokens = [_Token(m.group(), m.start(), m.end()) for m in _WORD.finditer(q)]
    if not tokens:
        return None
    lead = 1 if tokens[0].low in _PREPOSITIONS and len(tokens) > 1 else 0
    if tokens[lead].low in _WH:
        statement = _fronted(q, tokens, lead, a)
    else:
        wh = [i for i, t in enumerate(tokens) if t.low in _WH and i > lead]
        statement = _in_place(q, tokens, wh[-1], a) if wh else None
    return f"{context}{statement[:1].upper()}{statement[1:]}" if statement else None


def _clean_question(question: str) -> str:
    return " ".join(question.split()).rstrip(" ?？").strip()


def _is_question(question: str) -> bool:
    q = question.strip()
    first = next(iter(words(q)), "").lower()
    return bool(q) and (q.endswith(("?", "？")) or first in _WH or first in _INVERTING)


def _wh_phrase(q: str, tokens: Sequence[_Token], i: int, *, in_place: bool = False) -> int | None:
    """The index after the question word and the noun it asks about ("which city" -> after "city");
    the noun ends at punctuation, a verb, and in place at a preposition ("what character in ...")."""
    word = tokens[i].low
    j = i + 1
    if word == "how":
        if j >= len(tokens) or tokens[j].low not in _HOW:
            return None
        j += 1
    elif word not in _DETERMINER_WH:
        return j
    plain = [t.text for t in tokens]
    start = j
    while j < len(tokens) and not _stops_noun(q, tokens, plain, j, first=j == start, in_place=in_place):
        j += 1
    return j


def _stops_noun(
    q: str, tokens: Sequence[_Token], plain: list[str], j: int, *, first: bool, in_place: bool
) -> bool:
    low = tokens[j].low
    gap = q[tokens[j - 1].end : tokens[j].start]
    if low in AUX or low in _WH or low in _RELATIVE or (not first and any(c in _BREAKS for c in gap)):
        return True
    if first:  # the first word after "which" is its noun unless it is plainly a verb ("What happened")
        return is_verb([low], 0)
    if low in _PREPOSITIONS:
        return in_place and not (low == "of" and tokens[j - 1].low in _KIND)
    return not in_place and is_verb(plain, j)


def _fronted(q: str, tokens: Sequence[_Token], lead: int, a: str) -> str | None:
    """A question that opens with its question word (after at most one preposition)."""
    wh = tokens[lead].low
    end = _wh_phrase(q, tokens, lead)
    if end is None or end >= len(tokens):
        return None
    noun = q[tokens[lead + 1].start : tokens[end - 1].end] if end > lead + 1 else ""
    if wh == "how":
        noun = q[tokens[lead + 2].start : tokens[end - 1].end] if end > lead + 2 else ""
    verb = tokens[end]
    rest = q[verb.end :].strip()
    prefix = q[tokens[0].start : tokens[0].end] + " " if lead else ""
    if verb.low in _INVERTING and _inverted(rest, tokens, end):
        return _declarative(verb.text, rest, wh=wh, prefix=prefix, a=a, how_noun=noun)
    if lead or wh in ("where", "when", "how"):
        return None  # "In which year won ...", "Where lies ...": not a subject question
    if not noun:
        return f"{a} {q[verb.start :]}"
    # "Which magazine was started first" -> "Arthur's Magazine, the magazine, was started first"
    after = q[tokens[end - 1].end :]
    return f"{a}, the {noun}{after}" if after.lstrip()[:1] == "," else f"{a}, the {noun}, {q[verb.start :]}"


def _inverted(rest: str, tokens: Sequence[_Token], verb: int) -> bool:
    """Whether a subject follows the auxiliary ("was the tower built") rather than a verb ("was started")."""
    if verb + 1 >= len(tokens) or not rest:
        return False
    nxt = tokens[verb + 1]
    low = nxt.low
    return (
        low in DETERMINERS
        or low in SUBJECT_PRONOUNS
        or nxt.text[:1].isupper()
        or nxt.text[:1].isdigit()
        or rest[:1] in "\"'“‘"
        or low.endswith(("'s", "’s"))
    )


def _declarative(aux: str, rest: str, *, wh: str, prefix: str, a: str, how_noun: str) -> str:
    """When was the tower built -> the tower was built in <a>; What is X -> X is <a>."""
    aux = aux.lower()
    ws = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(rest)]
    low = [w.lower() for w, _, _ in ws]
    if aux in _DO:
        verb = _base_verb(ws, low)
        if verb is None:
            return f"{rest} {_slot(wh, a, prefix)}".strip()
        body = f"{rest[: ws[verb][1]].rstrip()} {aux} {rest[ws[verb][1] :]}"
    else:
        verb = _participle(ws, low)
        body = f"{rest[: ws[verb][1]].rstrip()} {aux} {rest[ws[verb][1] :]}" if verb else f"{rest} {aux}"
    answer = f"{a} {how_noun}" if wh == "how" and how_noun and how_noun.lower() not in a.lower() else a
    return f"{body} {_slot(wh, answer, prefix)}"


def _base_verb(ws: Sequence[tuple[str, int, int]], low: Sequence[str]) -> int | None:
    """The verb after a do-support subject: the first plain word after its first name ("did Donahue
    replace"), else the last word ("did the style originate"); None when neither is a plain word."""
    named = next((k for k, (w, _, _) in enumerate(ws) if w[:1].isupper()), None)
    if named is not None:
        after = range(named + 1, len(ws))
        found = next((k for k in after if ws[k][0].islower() and not _function(low[k])), None)
        if found is not None:
            return found
    last = len(ws) - 1
    return last if last >= 1 and ws[last][0].islower() and not _function(low[last]) else None


def _function(low: str) -> bool:
    return low in FUNCTION_WORDS or low in DETERMINERS or low in AUX


def _participle(ws: Sequence[tuple[str, int, int]], low: Sequence[str]) -> int | None:
    """The main verb's participle in the inverted rest ("the tower built"), before any relative clause."""
    for k in range(1, len(ws)):
        if low[k] in _RELATIVE or low[k] in AUX:
            return None
        participle = low[k] in _PARTICIPLES or (is_verb(["it", low[k]], 1) and not low[k].endswith("s"))
        if ws[k][0].islower() and participle:
            return k
    return None


def _slot(wh: str, a: str, prefix: str) -> str:
    if prefix:
        return f"{prefix.lower()}{a}"
    return f"{_SLOT_WORD.get(wh, '')}{a}"


def _in_place(q: str, tokens: Sequence[_Token], i: int, a: str) -> str | None:
    """In place: "... has a head office in what city" -> "... has a head office in Delhi"."""
    end = _wh_phrase(q, tokens, i, in_place=True)
    if end is None:
        return None
    wh = tokens[i].low
    previous = tokens[i - 1].low if i > 0 else ""
    fill = a if previous in _PREPOSITIONS else f"{_SLOT_WORD.get(wh, '')}{a}"
    if wh == "how" and end > i + 2:  # "spent how many weeks" + "nine" -> "spent nine weeks"
        noun = q[tokens[i + 2].start : tokens[end - 1].end]
        fill = fill if noun.lower() in a.lower() else f"{fill} {noun}"
    return f"{q[: tokens[i].start]}{fill}{q[tokens[end - 1].end :]}".strip()

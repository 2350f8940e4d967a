"""Stage 1, fact extraction: atomic, checkable claims with character offsets. Pure: no I/O.

Sentences come from a rule-based splitter (abbreviations, figures, initials, lists, CJK). A sentence is a
claim unless it is conversational or procedural (a question, greeting, recommendation to the reader,
imperative, a heading without a verb, or a sentence about the source that names nothing: "The passage
describes the casting."). An instruction that states a figure or a frequency is a claim: "Take one 70
mg tablet once a week" is what the document lays down, and checkable. A sentence joining independent
clauses yields one claim per clause.
A claim that opens with a pronoun ("It orbits ...") also carries `standalone`, the same claim with the
pronoun replaced by the previous claim's subject, for retrieval and checking (`stages.standalone`).

Usage::

    claims = extract_claims("Revenue rose 12% in 2023. We recommend reviewing Section 4.", max_claims=50)
    # one claim; "We recommend ..." is procedural, not a claim
    split_sentences("Dr. Smith left. He returned.")     # [(0, 15), (16, 28)]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import lru_cache

from workers.messages import Claim
from workers.stages._text import MONTH_NAMES, SOURCE_NOUN, has_verb, is_clause, is_verb, words, wordset
from workers.stages.frequency import frequencies
from workers.stages.standalone import with_standalone

__all__ = ["claim_type", "extract_claims", "split_sentences"]

# ---- sentence splitting ---------------------------------------------------------------------------

_CLOSERS = "\"'”’»)\\]}」』）"
_CITE = r"(?:\[\d+(?:[,–-]\s*\d+)*\])*"
# The third form: a full stop with no space after it, between a word or figure and a capitalised word
# ("founded in 1997.Kings of Leon is ..."), as in text joined from several sources.
_TERMINAL = re.compile(
    rf"([.!?…]+)[{_CLOSERS}]*{_CITE}(?=\s|$)|([。！？]+)[{_CLOSERS}]*|(?<=[a-z\d)])(\.)(?=[A-Z][a-z])"
)
_LINE = re.compile(r"[^\n\u2028\u2029]+")
# A list item's marker; "1.Abigail Adams" (no space, a capitalised word after) is one too, "5.A of" not.
_MARKER = re.compile(
    r"(?:[-*•‣◦▪●▸►–—+]|\d{1,3}[.)]|\(\d{1,3}\)|[a-z][.)]|\([a-z]\)|#{1,6})[ \t]+|\d{1,3}[.)](?=[A-Z][a-z])"
)
_NEXT = re.compile(r"\s*[\"'“‘«(\[]*([^\s\"'“‘«(\[]*)")
_PREV = re.compile(r"[^\s(\[\"'“‘«]*\Z")
_ALNUM = re.compile(r"[^\W_]")
_DOTTED = re.compile(r"(?:[^\W\d_]{1,2}\.)+[^\W\d_]{1,2}")
_LAST_WORD = re.compile(r"(\w+)\W*\Z")
_SPACED = re.compile(r"\w [.,](?=\s)")
_JOINED = re.compile(r"\w[.,](?=\s)")

# Never end a sentence: a title or a Latin abbreviation is always followed by more.
_NEVER_BREAK = wordset(
    "dr mr mrs ms prof sen rep gen gov capt lt col sgt rev hon mt ft vs v cf approx e.g i.e viz nr "
    "resp dept univ assoc ave blvd"
)
# Abbreviations only before a number: "No. 5", "Fig. 2", "Jan. 2020".
_BEFORE_NUMBER = wordset(
    "no nos fig figs p pp vol art sec ch ref eq para jan feb mar apr jun jul aug sep sept oct nov dec"
)
# May end a sentence or not ("Acme Inc. The firm ..." vs "Acme Inc. CEO ..."): only before a usual opener.
_AMBIGUOUS = wordset("inc ltd co corp llc plc jr sr etc al st bros")
_STARTERS = wordset(
    "the a an it its this that these those he she they we i you there in on at for after before when while "
    "since although though however but and also as by his her their our my your both many most some each "
    "other another one all if today yesterday meanwhile furthermore moreover additionally then thus "
    "therefore so what how who where why overall finally first second third during despite"
)
# A line ending in one of these continues on the next line (hard-wrapped text).
_CONTINUES = wordset(
    "and or but of the a an in on at to for with by from as that which who is was are were than its their "
    "his her our"
)


def split_sentences(text: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence; survives abbreviations, figures like "$4.2 bn." and lists.

    A list item is always its own sentence and its marker ("1.", "-", "*") is left out. A blank line always
    ends a sentence; a single line break does unless the text plainly runs on (next line lower case, or the
    line ends in "," or a word like "the"). Spans never include surrounding whitespace.
    """
    spans: list[tuple[int, int]] = []
    for start, end in _blocks(text):
        spans.extend(_split_block(text, start, end))
    return spans


def _blocks(text: str) -> Iterator[tuple[int, int]]:
    """Groups of lines that may hold several sentences: a paragraph's wrapped lines, or one list item."""
    start = end = -1
    gap_from = 0
    for m in _LINE.finditer(text):
        s, e = _strip(text, m.start(), m.end())
        if s >= e:
            continue
        marker = _MARKER.match(text, s, e)
        s = marker.end() if marker else s
        if start < 0 or marker or text.count("\n", gap_from, m.start()) > 1 or not _runs_on(text, end, s):
            if start >= 0:
                yield start, end
            start = s
        end, gap_from = e, m.end()
    if start >= 0:
        yield start, end


def _runs_on(text: str, line_end: int, next_start: int) -> bool:
    nxt = _NEXT.match(text, next_start)
    if _detached(text, line_end - 1, nxt.group(1) if nxt else ""):
        return False
    if text[next_start].islower() or text[line_end - 1] == ",":
        return True
    last = _LAST_WORD.search(text, max(0, line_end - 24), line_end)
    return last is not None and last.group(1).lower() in _CONTINUES


def _strip(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _split_block(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    cur = start
    for m in _TERMINAL.finditer(text, start, end):
        if m.end() < end and _is_boundary(text, m, start, end):
            yield from _emit(text, cur, m.end())
            cur = m.end()
    yield from _emit(text, cur, end)


def _emit(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    s, e = _strip(text, start, end)
    # a span of only punctuation or symbols ("---", "***") is layout, not a sentence
    if s < e and _ALNUM.search(text, s, e):
        yield s, e


def _is_boundary(text: str, m: re.Match[str], start: int, end: int) -> bool:
    if m.group(2):
        return True
    nxt = _NEXT.match(text, m.end(), end)
    follower = nxt.group(1) if nxt else ""
    if _detached(text, m.start(), follower):
        return True
    if follower[:1].islower():
        return False
    if (m.group(1) or m.group(3)) != ".":
        return True
    prev = _PREV.search(text, max(start, m.start() - 32), m.start())
    token = prev.group().lstrip("$€£¥-–*_") if prev else ""
    return _abbreviation_allows_break(token, follower)


def _detached(text: str, at: int, follower: str) -> bool:
    """A full stop with a space before it ends a sentence whatever case follows, in tokenized text
    ("impressed on trial . the skilful 17-year-old ...", lower-cased news sources), which writes every
    sentence end so. Not after an abbreviation ("mr . smith"), in a spaced ellipsis (". . ."), after a
    run of spaces, or in ordinary text ("Run pip install . to install it.")."""
    if text[at] != "." or at < 2 or text[at - 1] not in " \t" or text[at - 2] in ". \t":
        return False
    if not _tokenized(text):
        return False
    if text[at + 1 : at + 3].lstrip().startswith("."):
        return False
    found = _PREV.search(text, max(0, at - 33), at - 1)
    token = found.group() if found else ""
    # "p . 5" is read as before; any other abbreviation never ends a sentence here
    return (token.lower() in _BEFORE_NUMBER or not _abbreviation(token)) and _abbreviation_allows_break(
        token, follower
    )


@lru_cache(maxsize=16)
def _tokenized(text: str) -> bool:
    """Whether `text` puts a space before its full stops and commas, as tokenizers write: three at
    least, and more than three times as many as it writes without one (the first 20,000 characters)."""
    spaced, joined = len(_SPACED.findall(text, 0, 20_000)), len(_JOINED.findall(text, 0, 20_000))
    return spaced >= 3 and spaced > 3 * joined


def _abbreviation(token: str) -> bool:
    low = token.lower()
    single = len(token) == 1 and token.isalpha()
    return low in _NEVER_BREAK or low in _AMBIGUOUS or single or bool(_DOTTED.fullmatch(token))


def _abbreviation_allows_break(token: str, follower: str) -> bool:
    low = token.lower()
    if low in _NEVER_BREAK:
        return False
    if low in _BEFORE_NUMBER:
        return not (follower[:1].isdigit() or follower[:1] == "#")
    if low in _AMBIGUOUS or (len(token) == 1 and token.isupper()) or _DOTTED.fullmatch(token):
        word = follower.rstrip(",.;:!?")
        return word[:1].isupper() and word.lower() in _STARTERS
    return True


# ---- claims ---------------------------------------------------------------------------------------

_TRAILER = re.compile(rf"(?:[.!?…。！？:;,]+[{_CLOSERS}]*|\[\d+(?:[,–-]\s*\d+)*\]|\s+)+\Z")
_LEAD = re.compile(r"[\s*_>#\"'“‘«]*")
_SEP = re.compile(r"\s*;\s*|,\s+(?:and|but|while|whereas)\s+|\s+(?:and|but)\s+", re.IGNORECASE)
_NON_CLAIM = re.compile(
    r"""(?:
      (?:hi|hello|hey|dear|greetings|thanks(?!\s+to\b)|thank\s+you|you(?:'re|\s+are)\s+welcome|good\s+(?:morning|afternoon
         |evening)|best\s+regards|kind\s+regards|regards|cheers|sincerely|great\s+question|good\s+question)\b
     |(?:we|i)(?:\s+would|'d|\s+strongly|\s+also)?\s+(?:recommend|suggest|advise|encourage|urge)\b
     |(?:please|kindly)\b|let(?:'s|\s+me|\s+us)\b|(?:i|we)\s+hope\b|hope\s+(?:this|that|it)\s+helps
     |feel\s+free\b|(?:don't|do\s+not)\s+hesitate\b|here(?:'s|\s+is|\s+are)\b|below\s+(?:is|are)\b
     |(?:i|we)(?:'m|\s+am|'re|\s+are)\s+(?:happy|glad|here|sorry|not\s+sure|unable|an\s+ai)\b
     |(?:i|we)\s+(?:can|cannot|can't|will|would|don't|do\s+not|apologi[sz]e)\b|sorry\b|as\s+an\s+ai\b
     |you\s+(?:should|can|could|may|might|must|need|will\s+need|'ll\s+need|want|'ll\s+want)\b
     |if\s+you\s+(?:have|need|want|would|'d|are\s+interested)\b|if\s+(?:this|that)\s+helps
     |for\s+(?:more|further|additional)\s+(?:information|details|help)\b
     |it(?:'s|\s+is|\s+may\s+be|\s+might\s+be|\s+would\s+be)\s+(?:worth\s+(?!(?:not|mention|remember|point|bear|know|highlight|emphasi[sz]|stress)ing|nothing)\w+ing(?!\s+that)|a\s+good\s+idea\s+to
         |(?:sensible|advisable|wise|best)\s+to)\b
     |(?:make|be)\s+sure\b|remember\s+to\b|(?:keep|bear)\s+in\s+mind\b|(?:do\s+not|don't)\s+\w
     |(?:always|never)\s+(?:consult|check|talk|speak|ask|seek|read|follow|use|take|contact)\b
    )""",
    re.IGNORECASE | re.VERBOSE,
)
_IMPERATIVES = wordset(
    "consult contact check review see refer read visit call ask talk speak ensure consider try avoid seek "
    "follow click go discuss verify confirm reach take use keep start stop install run open select choose "
    "enter download apply submit get tell email schedule book monitor store limit remember make be "
    "look find compare double-check continue wait"
)
# Instructions whose figure or frequency a document states (a dose, a deadline, a limit), not steps in a
# user interface ("click", "download", "enter").
_INSTRUCTIONS = wordset("take use apply avoid stop store limit submit keep continue wait start")
# A figure with what it measures: "70 mg", "two tablets", "within 30 days", "below 25°C" (not "one of
# the methods", "5 tips", "the 2023 changes").
_MEASURED = re.compile(
    r"(?:\b(?:\d[\d,.]*|one|two|three|four|five|six|seven|eight|nine|ten|twelve)\s*"
    r"(?:mg|mcg|µg|μg|g|kg|ml|mL|l|L|micrograms?|milligrams?|grams?|units?|tablets?|capsules?|doses?|drops?"
    r"|puffs?|sachets?|patch(?:es)?|injections?|minutes?|hours?|days?|weeks?|months?|years?|times|%|°)"
    r"(?![\w])|°[CF])",
    re.IGNORECASE,
)
# What the asker can, must or will do, with a figure a document lays down: "You can pay in between £25
# and £300 a month", "You must register within 30 days", "You'll earn 1.00% AER instead" (not "You
# should consult your doctor", "You can find details in Section 4").
_YOU_MAY = re.compile(
    r"you(?:\s+(?:should|can|could|may|might|must|need)|(?:\s+will|'ll)\s+need)\b"
    r"(?!\s+(?:want|wish|like|consider|try|find)\b)",  # advice: "You may want to ..."
    re.IGNORECASE,
)
# What the asker must, may, need not or must not do, where the action is the document's rule ("You must
# stop taking it before dental treatment", "you can't take money out before it matures"), not advice
# ("You can find details in Section 4", "You may want to ..."; "you should", "could", "might" stay advice).
_YOU_RULE = re.compile(
    r"you(?:\s+will|'ll)?\s+(?:must(?:\s+not)?|need\s+(?:to|not)|can(?:not|'t|\s+not)?|may(?:\s+not)?)"
    r"\s+(?:(?:also|only|still|then|always|first|\w+ly|need\s+to|be\s+able\s+to)\s+)*(?P<verb>[a-z]+)\b"
    r"(?P<touch>\s+in\s+touch\b)?",
    re.IGNORECASE,
)
_ADVICE = wordset(
    "consult contact check review see refer read visit call phone email ask talk speak seek discuss want "
    "wish like consider try find look learn go click follow reach remember note let search download browse"
)
_FIGURE = re.compile(
    r"[£$€¥]\s?\d|\d\s?%|\d\s*(?:per\s*cent|percent)\b|\b(?:1[89]|20)\d\d\b"
    rf"|\b\d{{1,2}}\s+{MONTH_NAMES}\b",
    re.IGNORECASE,
)
_NOVEL = re.compile(
    r"\b(?:(?:a|the|this)\s+new\s+(?:study|studies|trial|analysis|paper|report|research|survey|data|review)"
    r"|recent(?:ly)?\s+(?:discovered|published|found|reported|identified|study|studies|research|trial|findings)"
    r"|newly\s+(?:discovered|identified|found|reported)|for\s+the\s+first\s+time|first[- ]ever|preliminary"
    r"|emerging\s+(?:evidence|data|research|findings)|novel|early\s+(?:results|findings|data)|pilot\s+study"
    r"|pre-?print|not\s+yet\s+(?:been\s+)?peer[- ]reviewed)\b",
    re.IGNORECASE,
)
_ESTABLISHED = re.compile(
    r"\b(?:standard\s+of\s+care|guidelines?\s+(?:recommend|state|advise|suggest|call)\w*"
    r"|(?:well[- ])?established\s+(?:protocol|practice|guideline|treatment|standard|fact|science|evidence"
    r"|method|procedure|therapy|principle|consensus|theory|norm|approach)s?"
    r"|(?:is|are|has\s+been|have\s+been)\s+(?:well[- ])?established|established\s+that|well[- ]established"
    r"|widely\s+(?:accepted|recogni[sz]ed|used|adopted)|according\s+to\s+(?:the\s+)?(?:protocol|guidelines?"
    r"|standards?)|standard\s+(?:treatment|practice|protocol|procedure|therapy)|first[- ]line"
    r"|scientific\s+consensus|long[- ]standing)\b",
    re.IGNORECASE,
)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")
# A sentence about the source rather than the world ("The passage describes the casting."): what the
# text covers, no fact to check. Only a short, simple one: one that names something, gives a figure or
# a count, says "that", "how", "as" ... or goes on past a comma or an "and" stays a claim.
_ABOUT_SOURCE = re.compile(
    rf"(?:the|this)\s+{SOURCE_NOUN}\s+(?:also\s+)?"
    r"(?:describes|discusses|covers|mentions|provides|focuses|highlights|summari[sz]es|outlines|explains"
    r"|details|presents|addresses|touches|deals|talks|is\s+about(?!\s+to\b))\b"
    r"(?P<rest>.*)",
    re.IGNORECASE | re.DOTALL,
)
_NAMES_SOMETHING = re.compile(
    r"[A-Z\d,;:()]|\b(?:that|how|why|whether|what|when|where|which|who|whom|whose|as|and|but|or|while"
    r"|whereas|no|not|never|none|nothing|without|one|two|three|four|five|six|seven|eight|nine|ten|dozen"
    r"|hundred|thousand|million|billion|first|second|third|single|both|all|every|only)\b"
)


def extract_claims(answer: str, *, max_claims: int = 200) -> list[Claim]:
    """Atomic claims, `answer[c.start:c.end] == c.text`, ids `c0, c1, ...` in text order; a claim opening
    with a pronoun has its `standalone` text."""
    claims: list[Claim] = []
    for index, (s, e) in enumerate(split_sentences(answer)):
        if len(claims) >= max_claims:
            break
        sentence = answer[s:e]
        if not _is_claim_sentence(sentence):
            continue
        kind = claim_type(sentence)
        for cs, ce in _clauses(answer, s, _body_end(answer, s, e))[: max_claims - len(claims)]:
            claims.append(
                Claim(
                    id=f"c{len(claims)}",
                    text=answer[cs:ce],
                    start=cs,
                    end=ce,
                    sentence=index,
                    sentence_start=s,
                    sentence_end=e,
                    claim_type=kind,
                )
            )
    # A claim opening with "It", "Its", "The company" ... also gets a text that stands on its own.
    return with_standalone(claims)


def claim_type(sentence: str) -> str:
    """The sentence's kind: `novel` (new, preliminary findings), `established` (protocol) or `general`."""
    if _NOVEL.search(sentence):
        return "novel"
    return "established" if _ESTABLISHED.search(sentence) else "general"


def _is_claim_sentence(sentence: str) -> bool:
    lead = _LEAD.match(sentence)
    body = sentence[lead.end() if lead else 0 :]
    tail = body.rstrip(_CLOSERS + " ")
    if not body or tail.endswith(("?", "？", ":", "：")) or _about_source(body):
        return False
    if _procedural(body):
        return False
    ws = words(body)
    if (_is_imperative(ws) and not _stated_instruction(ws, body)) or (
        len(ws) < 3 and not any(w[:1].isdigit() for w in ws)
    ):
        return False
    return _has_ending(tail) or has_verb(ws) or ": " in body


def _about_source(body: str) -> bool:
    m = _ABOUT_SOURCE.match(body)
    return m is not None and _NAMES_SOMETHING.search(m.group("rest")) is None


def _has_ending(tail: str) -> bool:
    # a line without a full stop and without a verb is a heading ("Key findings", "Results for 2023")
    return tail.endswith((".", "!", "…", "。", "！")) or bool(_CJK.search(tail))


def _is_imperative(ws: list[str]) -> bool:
    if not ws or ws[0].lower() not in _IMPERATIVES:
        return False
    # "Contact lenses are ...", "Use of opioids rose ...": a noun subject with its own verb
    return not any(is_verb(ws, i) for i in (1, 2) if i < len(ws)) and ws[1:2] != ["of"]


def _stated_instruction(ws: list[str], body: str) -> bool:
    """An instruction that states what a document lays down, with a figure or how often: "Take one 70 mg
    tablet once a week", "Submit the form within 30 days", "Store below 25°C". A dose, a deadline or a
    frequency is checkable, and a wrong one is the answer's most dangerous error ("Take one tablet each
    day" for a weekly drug); "Consult your doctor" or "Click Save and wait 5 seconds" stays advice."""
    if ws[0].lower() not in _INSTRUCTIONS:
        return False
    return bool(_MEASURED.search(body) or frequencies(body))


def _lays_down(body: str) -> bool:
    """Whether a sentence states a figure, a date or how often: a rule's, a dose's, a price's."""
    return bool(_FIGURE.search(body) or _MEASURED.search(body) or frequencies(body))


def _body_end(text: str, start: int, end: int) -> int:
    """The sentence's end without its terminal punctuation, closing quotes or citation marks."""
    tail_from = max(start, end - 48)
    m = _TRAILER.search(text, tail_from, end)
    return max(start, m.start()) if m else end


def _clauses(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Split at ";" / "and" / "but" / "while" / "whereas" only where both sides are independent clauses."""
    seps = _outside_brackets(text, start, list(_SEP.finditer(text, start, end)))
    pieces: list[tuple[int, int]] = []
    seg = checked = start
    left_ok = False
    for i, m in enumerate(seps):
        if not left_ok:
            # only the words added since the last look: a left side that once has a verb keeps it
            chunk = words(text[checked : m.start()])
            left_ok = is_clause(chunk, subject_first=False) if checked == seg else has_verb(chunk)
            checked = m.start()
        right_end = seps[i + 1].start() if i + 1 < len(seps) else end
        if left_ok and is_clause(words(text[m.end() : right_end]), subject_first=True):
            pieces.append((seg, m.start()))
            seg = checked = m.end()
            left_ok = False
    pieces.append((seg, end))
    return [p for p in (_trim(text, s, e) for s, e in pieces) if _is_claim_piece(text[p[0] : p[1]])]


def _outside_brackets(text: str, start: int, seps: list[re.Match[str]]) -> list[re.Match[str]]:
    """The separators not inside an open bracket, counting from `start` once (not once per separator:
    a 3,000-clause sentence was quadratic)."""
    kept: list[re.Match[str]] = []
    paren = square = 0
    pos = start
    for m in seps:
        chunk = text[pos : m.start()]
        paren += chunk.count("(") - chunk.count(")")
        square += chunk.count("[") - chunk.count("]")
        pos = m.start()
        if paren <= 0 and square <= 0:
            kept.append(m)
    return kept


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    s, e = _strip(text, start, end)
    while e > s and (text[e - 1] in ",;:" or text[e - 1].isspace()):
        e -= 1
    return s, e


def _is_claim_piece(piece: str) -> bool:
    return bool(_CJK.search(piece)) or (len(words(piece)) >= 2 and not _procedural(piece))


def _procedural(text: str) -> bool:
    """Conversation or advice, not a claim; what the asker can or must do is a claim where it states
    a figure, a date or how often (`_lays_down`)."""
    if not _NON_CLAIM.match(text):
        return False
    rule = _YOU_RULE.match(text)
    told = rule is not None and rule["verb"].lower() not in _ADVICE and not rule["touch"]
    return not (_YOU_MAY.match(text) and (_lays_down(text) or told))

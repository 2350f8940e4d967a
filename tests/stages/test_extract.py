"""Stage 1, extraction: sentence spans and claims on small hand-written answers."""

from __future__ import annotations

import gc
import time

import pytest

from workers.messages import Claim
from workers.stages.extract import claim_type, extract_claims, split_sentences


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


def texts(claims: list[Claim]) -> list[str]:
    return [c.text for c in claims]


# ---- split_sentences ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Dr. Smith joined Acme Inc. in 2010. He left in 2015.",
            ["Dr. Smith joined Acme Inc. in 2010.", "He left in 2015."],
        ),
        (
            "It opened in Jan. 2020, e.g. in Oslo. See No. 5 and Fig. 2 vs. Fig. 3. Done.",
            ["It opened in Jan. 2020, e.g. in Oslo.", "See No. 5 and Fig. 2 vs. Fig. 3.", "Done."],
        ),
        (
            "He moved to the U.S. In 2010 he joined the U.S. Army, i.e. the land force.",
            ["He moved to the U.S.", "In 2010 he joined the U.S. Army, i.e. the land force."],
        ),
        (
            "J. K. Rowling wrote it. John F. Kennedy read it.",
            ["J. K. Rowling wrote it.", "John F. Kennedy read it."],
        ),
        ("Acme Inc. The firm grew.", ["Acme Inc.", "The firm grew."]),
    ],
)
def test_abbreviations_and_initials_do_not_end_sentences(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_a_full_stop_with_no_space_ends_a_sentence_between_a_word_and_a_capitalised_word() -> None:
    # Text joined from several sources without a space (HaluEval's knowledge passages are so joined).
    text = "It was formed in Vancouver, British Columbia.Kings of Leon formed in 1999.Its singer is Caleb."
    assert sentences(text) == [
        "It was formed in Vancouver, British Columbia.",
        "Kings of Leon formed in 1999.",
        "Its singer is Caleb.",
    ]
    # Not inside abbreviations, initials, figures or addresses.
    for kept in (
        "He moved to St.Louis in 1990.",
        "Mr.Smith left.",
        "Pi is 3.14.",
        "See www.example.com.",
        "U.S.Army units.",
    ):
        assert sentences(kept) == [kept]


def test_a_detached_full_stop_ends_a_sentence_whatever_follows() -> None:
    # Tokenized, lower-cased news (CNN / Daily Mail sources): every sentence ends " ." and the next
    # starts in lower case, often on a new line; read as one sentence, a document was one window.
    text = (
        "west ham , sources say , are discussing a deal . \nthe forward , 17 , was invited . he has offers ."
    )
    assert sentences(text) == [
        "west ham , sources say , are discussing a deal .",
        "the forward , 17 , was invited .",
        "he has offers .",
    ]
    for kept in (
        "It rose 5 % on the day.",
        "He left at 5 p.m. on Monday.",
        "Run pip install . to install it.",
        "he went to the u.s . in 2001 , aged 17 , and left , alone , at last .",
    ):
        assert sentences(kept) == [kept]  # not tokenized throughout, or after an abbreviation
    mixed = "We used Python 3 , NumPy , and SciPy. Run pip install . to install it."
    assert sentences(mixed) == ["We used Python 3 , NumPy , and SciPy.", "Run pip install . to install it."]
    assert sentences("mr . smith arrived , then left . he was , in fact , late , again .") == [
        "mr . smith arrived , then left .",
        "he was , in fact , late , again .",
    ]


def test_money_with_scale_mid_sentence() -> None:
    text = "Revenue was $4.2 bn. in 2023, up from $3.9 bn. a year earlier. Profit was 1.5%."
    assert sentences(text) == [
        "Revenue was $4.2 bn. in 2023, up from $3.9 bn. a year earlier.",
        "Profit was 1.5%.",
    ]


def test_money_with_scale_at_sentence_end() -> None:
    assert sentences("Revenue was $4.2 bn. The company grew.") == [
        "Revenue was $4.2 bn.",
        "The company grew.",
    ]


def test_ellipses_quotes_brackets_and_citations() -> None:
    text = 'Wait... what happened? He said "it works." Then he left! Nobody knew (really.) '
    text += "Growth was 5%.[1] Fine."
    assert sentences(text) == [
        "Wait... what happened?",
        'He said "it works."',
        "Then he left!",
        "Nobody knew (really.)",
        "Growth was 5%.[1]",
        "Fine.",
    ]


def test_a_marker_without_a_space_is_still_a_marker() -> None:
    # Factcheck-GPT: "were: \r\n1.Abigail Adams" made "were: 1" a sentence, whose "1" was then "corrected".
    text = "The four were: \r\n1.Abigail Adams (1797-1801) \r\n2.Marilyn Nelson (2009-2013)"
    assert sentences(text) == ["The four were:", "Abigail Adams (1797-1801)", "Marilyn Nelson (2009-2013)"]
    assert sentences("It grew 3.5% in 2023.Sales rose.") == ["It grew 3.5% in 2023.", "Sales rose."]
    # "5.A" is a clause number, not a marker (a line break alone still ends the sentence before it)
    assert sentences("It applies under Section\n5.A of the Act.") == [
        "It applies under Section",
        "5.A of the Act.",
    ]


def test_lists_are_one_sentence_per_item_without_marker() -> None:
    text = (
        "Key points:\n1. First item here.\n2) Second item. With two.\n- dash item\n* star item\n• bullet item"
    )
    assert sentences(text) == [
        "Key points:",
        "First item here.",
        "Second item.",
        "With two.",
        "dash item",
        "star item",
        "bullet item",
    ]


def test_newlines_headings_and_wrapped_lines() -> None:
    text = "Summary\nThe company was founded in\nOslo in 1998.\n\nIt grew\n\nquickly.\r\nIt has 40 staff"
    assert sentences(text) == [
        "Summary",
        "The company was founded in\nOslo in 1998.",
        "It grew",
        "quickly.",
        "It has 40 staff",
    ]


def test_unicode_cjk_and_emoji() -> None:
    text = "苏黎世是瑞士最大的城市。它位于北部。Zürich has 🚀 400k people. Ça va bien."
    assert sentences(text) == [
        "苏黎世是瑞士最大的城市。",
        "它位于北部。",
        "Zürich has 🚀 400k people.",
        "Ça va bien.",
    ]


@pytest.mark.parametrize("text", ["", "   \n\n  ", "---\n***", "...!?"])
def test_no_sentences_in_blank_or_layout_text(text: str) -> None:
    assert split_sentences(text) == []


def test_spans_exclude_whitespace_and_are_ordered() -> None:
    text = "  First one.   Second one!\n\n   Third?  "
    spans = split_sentences(text)
    assert sentences(text) == ["First one.", "Second one!", "Third?"]
    assert all(not text[s].isspace() and not text[e - 1].isspace() for s, e in spans)
    assert [s for s, _ in spans] == sorted(s for s, _ in spans)


def test_long_text_is_fast() -> None:
    parts = ["Dr. Smith joined Acme Inc. in 2010. ", "Revenue was $4.2 bn. in 2023, up 12%. ", "- an item\n"]
    text = ("".join(parts) * 2000)[:100_000]
    t0 = time.perf_counter()
    spans = split_sentences(text)
    elapsed = time.perf_counter() - t0
    assert len(spans) > 3500
    assert elapsed < 0.5


# ---- extract_claims -------------------------------------------------------------------------------


def test_procedural_sentence_is_not_a_claim() -> None:
    claims = extract_claims("Revenue rose 12% in 2023. We recommend reviewing Section 4.", max_claims=50)
    assert texts(claims) == ["Revenue rose 12% in 2023"]
    assert claims[0].id == "c0" and claims[0].sentence == 0


@pytest.mark.parametrize(
    "text",
    [
        "We recommend reviewing Section 4.",
        "Please consult your doctor.",
        "Let me know if you have questions.",
        "I hope this helps!",
        "Here is a summary:",
        "What was the revenue in 2023?",
        "Hi there, thanks for asking.",
        "Consult your doctor before taking it.",
        "Do not exceed the stated dose.",
        "Key Findings",
        "Results for 2023",
        "If you have more questions, just ask.",
        "You should check the latest filing.",
    ],
)
def test_conversational_and_procedural_sentences_are_not_claims(text: str) -> None:
    assert extract_claims(text) == []


def test_a_sentence_about_the_source_is_a_claim_only_when_it_names_or_states_something() -> None:
    text = (
        "The passage describes the casting. This summary covers the main individuals mentioned. "
        "The document discusses several repayment options. The passage describes two people named "
        "Tim Roth. The article mentions that the teams play again tonight. The text is about 3 dogs."
    )
    assert texts(extract_claims(text)) == [
        "The passage describes two people named Tim Roth",
        "The article mentions that the teams play again tonight",
        "The text is about 3 dogs",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "This report covers the whole region, and sales fell sharply.",
        "The report is about to be released.",
        "The article details how the company lost money in every quarter.",
        "The report explains why inflation rose sharply.",
        "The document describes the drug as safe and effective.",
        "The report mentions no casualties.",
        "The text is about three dogs.",
        "The text mentions Apple.",
    ],
)
def test_a_sentence_about_the_source_that_states_something_stays_a_claim(text: str) -> None:
    assert extract_claims(text) != []


def test_noun_subjects_that_look_like_imperatives_are_claims() -> None:
    text = (
        "Contact lenses are made of plastic. Use of opioids rose 5% in 2020. Thanks to funding, it grew 20%."
    )
    assert texts(extract_claims(text)) == [
        "Contact lenses are made of plastic",
        "Use of opioids rose 5% in 2020",
        "Thanks to funding, it grew 20%",
    ]


def test_compound_sentence_splits_into_claims_with_offsets() -> None:
    text = "Intro line here. The company was founded in 1998 and it is based in Oslo."
    claims = extract_claims(text)
    assert texts(claims) == ["Intro line here", "The company was founded in 1998", "it is based in Oslo"]
    founded, based = claims[1], claims[2]
    assert (founded.id, based.id) == ("c1", "c2")
    assert founded.start == text.index("The company") and based.start == text.index("it is based")
    assert founded.sentence == based.sentence == 1
    assert text[founded.sentence_start : founded.sentence_end] == text[text.index("The company") :]
    assert (based.sentence_start, based.sentence_end) == (founded.sentence_start, founded.sentence_end)


def test_split_on_semicolon_but_while() -> None:
    text = "Revenue rose 5%, while costs fell 2%; profits doubled, but margins shrank."
    assert texts(extract_claims(text)) == [
        "Revenue rose 5%",
        "costs fell 2%",
        "profits doubled",
        "margins shrank",
    ]


@pytest.mark.parametrize(
    "text",
    [
        "Revenue rose 12% and 15% in 2022 and 2023.",
        "Smith and Jones wrote it.",
        "It was founded in 1998 and employs 400 people.",
        "The tired and hungry workers returned home.",
        "Exports went to Oslo, Norway; Bergen, Norway and Paris, France.",
        "Apples, pears and plums are fruit.",
    ],
)
def test_no_split_without_two_independent_clauses(text: str) -> None:
    assert texts(extract_claims(text)) == [text.rstrip(".")]


def test_procedural_clause_of_a_compound_sentence_is_dropped() -> None:
    text = "The company was founded in 1998, and we recommend reviewing Section 4."
    assert texts(extract_claims(text)) == ["The company was founded in 1998"]


def test_claim_excludes_terminal_punctuation_and_citations() -> None:
    text = 'Growth was 5%.[1] Sales hit a record!\nThe CEO said "we won."'
    assert texts(extract_claims(text)) == ["Growth was 5%", "Sales hit a record", 'The CEO said "we won']


def test_list_items_are_claims_with_their_own_sentence_index() -> None:
    text = "Key facts:\n1. Acme was founded in 1998.\n2. It employs 400 people.\n- Headquartered in Oslo"
    claims = extract_claims(text)
    assert texts(claims) == ["Acme was founded in 1998", "It employs 400 people", "Headquartered in Oslo"]
    assert [c.sentence for c in claims] == [1, 2, 3]


def test_unicode_offsets() -> None:
    text = "Zürich 🇨🇭 has 400,000 people, and its lake is 40 km long. 苏黎世是瑞士最大的城市。Ça coûte 5 €."
    claims = extract_claims(text)
    assert texts(claims) == [
        "Zürich 🇨🇭 has 400,000 people",
        "its lake is 40 km long",
        "苏黎世是瑞士最大的城市",
        "Ça coûte 5 €",
    ]
    assert all(text[c.start : c.end] == c.text for c in claims)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "Revenue rose 12% in 2023. We recommend reviewing Section 4.",
        "Dr. Smith joined Acme Inc. in 2010; he left in 2015, but he returned in 2018.",
        "The company reported revenue of $4.2 bn. in 2023, and its profit was $1.1 bn.",
        "Summary\n\n1. The firm was founded in 1998.\n2. It is based in Oslo and it has 40 staff.\n",
        "  \n  Zürich ist groß. 東京は日本の首都です。The café 🍰 opened in 2021 and it sells cake!  ",
        'He said "prices rose 3%," while analysts expected 2%. Is that right? Yes.',
        "A new study found that coffee lowers risk by 10%.\nGuidelines recommend 2 g per day.",
        "Growth (in real terms, and adjusted) was 2.1%. The U.S. economy grew and Europe stalled.",
        "Hi! I hope this helps. Let me know if you need more. Revenue: $4.2 bn\r\nMargin: 12%",
        "Apples, pears and plums are fruit… The harvest began in Sept. 2020, whereas it ended in Oct.",
    ],
)
def test_offsets_always_match_and_ids_are_ordered(text: str) -> None:
    claims = extract_claims(text)
    spans = split_sentences(text)
    for i, c in enumerate(claims):
        assert c.id == f"c{i}"
        assert text[c.start : c.end] == c.text and c.text == c.text.strip() and c.text
        assert (c.sentence_start, c.sentence_end) == spans[c.sentence]
        assert c.sentence_start <= c.start < c.end <= c.sentence_end
        assert c.text[-1] not in ".!?;,"
    assert [c.start for c in claims] == sorted(c.start for c in claims)


def test_empty_text_and_cap() -> None:
    text = "A rose 1%. B rose 2%. C rose 3%. D rose 4%."
    assert extract_claims("") == []
    assert texts(extract_claims(text, max_claims=2)) == ["A rose 1%", "B rose 2%"]
    assert extract_claims(text, max_claims=0) == []


def test_cap_applies_inside_a_compound_sentence() -> None:
    text = "Revenue rose 5%, while costs fell 2%; profits doubled."
    assert texts(extract_claims(text, max_claims=2)) == ["Revenue rose 5%", "costs fell 2%"]


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        ("A new study found that coffee lowers risk by 10%.", "novel"),
        ("Researchers recently discovered a new moon.", "novel"),
        ("For the first time, the drug cut deaths.", "novel"),
        ("Preliminary data suggest a benefit.", "novel"),
        ("Emerging evidence links sleep to memory.", "novel"),
        ("Metformin is the standard of care for type 2 diabetes.", "established"),
        ("Guidelines recommend 150 minutes of exercise weekly.", "established"),
        ("It is widely accepted that smoking causes cancer.", "established"),
        ("According to the protocol, samples are frozen.", "established"),
        ("The company was established in 1998.", "general"),
        ("Revenue rose 12% in 2023.", "general"),
    ],
)
def test_claim_type(sentence: str, kind: str) -> None:
    assert claim_type(sentence) == kind
    claims = extract_claims(sentence)
    assert claims and {c.claim_type for c in claims} == {kind}


def _long_answer(times: int) -> str:
    return (
        "Apples and pears and " * (625 * times)
        + "are fruit. "
        + "The firm grew, and it won. " * (125 * times)
    )


def _best_seconds(*texts: str, rounds: int = 5) -> list[float]:
    """Each text's best time, the texts run in turn round after round, so a busy spell slows them all.
    The garbage collector is off while they run: its passes over every live object made the long text's
    times swing from 7x to 16x the short one's on a loaded machine, and they are not the code's growth."""
    best = [float("inf")] * len(texts)
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            for i, text in enumerate(texts):
                t0 = time.process_time()  # this process's CPU time: other processes' load is not in it
                extract_claims(text, max_claims=5000)
                best[i] = min(best[i], time.process_time() - t0)
    finally:
        gc.enable()
    return best


def test_long_answer_extraction_grows_linearly() -> None:
    # A complexity guard, not a speed figure (those are in `make bench`): eight times the text measured
    # beside the text itself, so a loaded machine slows both. Linear measured ~9x; the quadratic bracket
    # count this guards against measured ~21x.
    assert len(extract_claims(_long_answer(4), max_claims=5000)) == 1001
    small, large = _best_seconds(_long_answer(1), _long_answer(8))
    assert large < 14.0 * small


def test_a_claim_opening_with_a_pronoun_gets_a_standalone_text() -> None:
    text = (
        "The Hubble Space Telescope was launched in 1990. It orbits Earth at about 540 km. "
        "Its mirror is 2.4 metres wide. Hubble has a 2.4-metre mirror."
    )
    claims = extract_claims(text)
    assert [c.standalone for c in claims] == [
        None,
        "The Hubble Space Telescope orbits Earth at about 540 km",
        "The Hubble Space Telescope's mirror is 2.4 metres wide",
        None,
    ]
    # Offsets stay on the text as written.
    assert all(text[c.start : c.end] == c.text for c in claims)


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("Take one 70 mg tablet once a week.", True),  # a dose and how often: what the leaflet says
        ("Submit the form within 30 days of the incident.", True),
        ("Take the tablets each day with water.", True),
        ("Take the tablets with food.", False),  # advice, nothing to check a word of
        ("Consult your doctor.", False),
        ("Click Save and wait 5 seconds.", False),  # a step in an interface
        ("Use one of the methods below.", False),  # a figure that measures nothing
        ("Continue reading for 5 tips.", False),
        ("Take note of the 2023 changes.", False),
        ("Store below 25°C.", True),
    ],
)
def test_an_instruction_with_a_figure_or_a_frequency_is_a_claim(text: str, claim: bool) -> None:
    assert bool(extract_claims(text)) is claim


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("You can pay in between £25 and £300 each month.", True),
        ("You must register within 30 days of going over the threshold.", True),
        ("You'll need to file by 31 January 2025.", True),
        ("You can't make withdrawals; if you close the account early, you'll earn 1.00% AER instead.", True),
        ("You should check the latest filing.", False),
        ("You can find details in Section 4.", False),
        ("You may want to speak to an adviser.", False),
        ("You may want to save £20,000 first.", False),  # advice, even with a figure
        ("You will need to file by 31 January 2025.", True),
    ],
)
def test_what_the_asker_can_or_must_do_is_a_claim_where_it_states_a_figure(text: str, claim: bool) -> None:
    assert bool(extract_claims(text)) is claim


@pytest.mark.parametrize(
    ("text", "claim"),
    [
        ("You must stop taking the medicine before dental treatment.", True),
        ("You need not attend the hearing in person.", True),
        ("You can't take money out before the bond matures.", True),
        ("You may keep the deposit until the tenancy ends.", True),
        ("You'll need to provide proof of address.", True),
        ("You can find the form on our website.", False),
        ("You can contact the helpline for advice.", False),
        ("You may want to speak to an adviser.", False),
        ("You should stop taking it before surgery.", False),  # "should" stays advice
        ("You could ask your pharmacist.", False),
        # an assistant's own suggestion, which no document states
        ("It's worth speaking to a financial adviser before you decide.", False),
        ("It's a good idea to keep a copy for your records.", False),
        ("It is sensible to book early.", False),
        ("It's worth £500.", True),
        ("It's worth noting that the annual fee rose to £95 in 2023.", True),
        ("It's worth knowing that you cannot withdraw money before the bond matures.", True),
        ("It is worth highlighting that the excess is £250 per claim.", True),
        ("It's worth nothing if the policy lapses.", True),
        # advice past an adverb or "need to"
        ("You can always contact the helpline.", False),
        ("You can usually find this on your payslip.", False),
        ("You may need to speak to your GP first.", False),
        ("You can get in touch with our team.", False),
        ("You can get a refund within 14 days.", True),
    ],
)
def test_what_the_asker_must_may_or_need_not_do_is_a_claim_where_it_is_a_rule(text: str, claim: bool) -> None:
    # "You must stop taking the medicine before dental treatment" is the document's rule, stated
    # without a figure: left out as advice, a wrong one ("you do not need to stop") passed unchecked.
    assert bool(extract_claims(text)) is claim

from __future__ import annotations

from collections import Counter

from lab.training.synthetic import synthesize

DOCS = [
    "Acme Corporation was founded in Arizona in 1997 by two engineers. The company employs 1,200 people "
    "at its plant in Phoenix. In 2012, Acme acquired Beta Systems for $40 million. Its revenue increased "
    "by 12% in 2020, the largest rise in its history. The firm is not listed on any stock exchange.\n\n"
    "Acme's chief executive, who joined in 2015, is Maria Lopez. She was previously a manager at Gamma "
    "Industries in Texas.",
    "The Blue Ridge trail is 35 km long and crosses three valleys. Hikers usually need four days to "
    "finish it. The trail was opened in 1968 and was extended in 1985. It is maintained by the Blue Ridge "
    "Trail Society, which has more than 500 members. The highest point on the route is 1,400 metres "
    "above sea level.",
    "Hat Check Girl is a 1932 American comedy film directed by Sidney Lanfield. It was written by Barry "
    "Conners and Philip Klein. The film stars Sally Eilers and Ben Lyon. It was released in September "
    "1932 and earned about $300,000. Ginger Rogers played a small role in it before she became famous.",
    "Lake Mira is a freshwater lake in northern Finland. It covers an area of 42 square kilometres. "
    "The lake freezes every winter and is popular with ice fishers. Its water level fell by 2 metres "
    "during the drought of 2018. A small museum near the shore opened in 2004.",
]


def test_same_seed_same_pairs_other_seed_other_pairs() -> None:
    assert synthesize(DOCS, seed=3) == synthesize(DOCS, seed=3)
    assert synthesize(DOCS, seed=3) != synthesize(DOCS, seed=4)


def test_labels_are_balanced_and_kinds_are_varied() -> None:
    pairs = synthesize(DOCS, seed=0)
    labels = Counter(p.label for p in pairs)
    assert set(labels) == {"SUPPORT", "CONTRADICT", "NEUTRAL"}
    assert max(labels.values()) <= 1.2 * min(labels.values()) and min(labels.values()) >= 15
    sources = {p.source for p in pairs}
    assert all(s.startswith("synthetic:") for s in sources)
    contradict = {p.source for p in pairs if p.label == "CONTRADICT"}
    assert len(contradict) >= 4  # figures, dates, negation, ... not one kind only


def test_contradictions_differ_from_their_sentence_and_hold_it_in_the_evidence() -> None:
    pairs = synthesize(DOCS, seed=1)
    sentences = [s for doc in DOCS for s in doc.replace("\n\n", " ").split(". ")]
    for pair in (p for p in pairs if p.label == "CONTRADICT"):
        assert pair.claim not in pair.evidence
        assert len(pair.evidence) <= 350 or pair.evidence.count(". ") == 0
        # some sentence of the evidence is the claim's source: they differ in a few words only
        claim_words = set(pair.claim.split())
        assert any(len(claim_words ^ set(s.split())) <= 8 for s in sentences if s in pair.evidence)


def test_support_evidence_holds_the_sentence_and_neutral_evidence_does_not() -> None:
    pairs = synthesize(DOCS, seed=2, per_sentence=3)
    exact = [p for p in pairs if p.source == "synthetic:support-exact"]
    assert exact and all(p.claim in p.evidence for p in exact)
    for pair in (p for p in pairs if p.label == "SUPPORT"):
        words = [w for w in pair.claim.rstrip(".").split() if len(w) > 3]
        assert sum(w in pair.evidence for w in words) >= 0.8 * len(words)  # the claim's words are there
    neutral = [p for p in pairs if p.label == "NEUTRAL"]
    assert neutral and all(p.claim not in p.evidence for p in neutral)
    sentences = [s for doc in DOCS for s in doc.replace("\n\n", " ").split(". ")]
    for pair in neutral:  # nor the sentence the (perhaps edited) claim came from
        near = [s for s in sentences if len(set(pair.claim.split()) ^ set(s.split())) <= 8]
        assert near and not any(s in pair.evidence for s in near)
    assert any(p.source == "synthetic:neutral-same-doc" for p in neutral)


def test_per_sentence_caps_contradictions() -> None:
    one = synthesize(DOCS, seed=0, per_sentence=1)
    claims = Counter(p.evidence for p in one if p.label == "CONTRADICT")
    assert len(one) < len(synthesize(DOCS, seed=0, per_sentence=3))
    assert max(claims.values()) <= 2  # one per sentence; a two-sentence window serves at most two


def test_short_or_empty_input() -> None:
    assert synthesize([]) == []
    assert synthesize(["Too short.", "Also short here."]) == []

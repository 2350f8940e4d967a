"""A production-like workload for the review share: how much corrected traffic goes to a person.

Issue 8 asks that the review share stay near 2% of corrected traffic "on the example workload". The
demo file `examples/answers.jsonl` cannot show that: each of its eight answers is built to hold an
error. This workload states its assumptions instead of fitting them:

- four domains in equal parts, finance / legal / health / general; the first three are high-stakes
  domains (`routing.high_stakes_domains`), the users woodpecker is built for;
- each answer is three claims its one document supports, in the domain's own terms (figures, periods,
  doses, dates);
- `error_rate` (default 5%) of the answers carry one hallucination, the rate grounded LLMs show when
  summarising documents (Vectara's hallucination leaderboard: about 3-9% for current models), half a
  wrong figure the document contradicts, half an added claim the document does not make.

So the share expected from the review rules is about high-stakes share x contradiction rate
(0.75 x 2.5% ~ 1.9%); anything above that is review the rules add on answers that are right.

Usage::

    answers = workload_answers(2000, seed=0)         # the same answers on every run
    python -m lab.eval.workload --answers 2000 --out workload.jsonl
    woodpecker correct --in workload.jsonl --out corrected.jsonl
    python -m lab.eval.workload --share corrected.jsonl --answers-file workload.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from workers.messages import Answer, Corrected, Document, Route, Stakes

__all__ = ["DOMAINS", "ReviewShare", "main", "review_share", "workload_answers"]

DOMAINS = ("finance", "legal", "health", "general")
# metadata["workload"] says what each answer carries, so the share can be split by kind.
CLEAN, CONTRADICTED, UNSUPPORTED = "clean", "contradicted", "unsupported"


@dataclass(frozen=True)
class _Facts:
    query: str
    document: str
    claims: tuple[str, str, str]
    # Claim index whose first figure a CONTRADICTED answer changes.
    figure: int


def _finance(r: random.Random) -> _Facts:
    company = f"{r.choice(_NAMES)} {r.choice(('Holdings', 'Group', 'Traders', 'Systems', 'Foods'))}"
    year, city = r.randint(2015, 2024), r.choice(_CITIES)
    revenue, margin = round(r.uniform(1.2, 9.8), 1), r.randint(6, 24)
    doc = (
        f"{company} is headquartered in {city} and employs {r.randint(2, 40) * 100} people. {company} "
        f"reported revenue of ${revenue} billion in fiscal {year}. The operating margin of {company} in "
        f"fiscal {year} was {margin}%, after {margin - r.randint(1, 5)}% a year earlier."
    )
    claims = (
        f"{company} reported revenue of ${revenue} billion in fiscal {year}.",
        f"The operating margin of {company} in fiscal {year} was {margin}%.",
        f"{company} is headquartered in {city}.",
    )
    return _Facts(f"How did {company} do in fiscal {year}?", doc, claims, figure=0)


def _legal(r: random.Random) -> _Facts:
    place, kind = r.choice(_JURISDICTIONS), r.choice(("contract", "tort", "property", "employment"))
    basic, ultimate, year = r.randint(2, 6), r.randint(10, 20), r.randint(1990, 2020)
    act = f"{place} Limitations Act"
    doc = (
        f"In {place} the basic limitation period for {kind} claims is {basic} years from discovery. "
        f"The ultimate limitation period is {ultimate} years. The {act} took effect in {year}."
    )
    claims = (
        f"The basic limitation period for {kind} claims in {place} is {basic} years from discovery.",
        f"The ultimate limitation period in {place} is {ultimate} years.",
        f"The {act} took effect in {year}.",
    )
    return _Facts(f"How long do I have to bring a {kind} claim in {place}?", doc, claims, figure=0)


def _health(r: random.Random) -> _Facts:
    drug, dose, hours = r.choice(_DRUGS), r.choice((100, 200, 250, 400, 500)), r.choice((4, 6, 8, 12))
    maximum, year = dose * r.randint(3, 6), r.randint(1960, 2015)
    doc = (
        f"For adults the usual dose of {drug} is {dose} mg every {hours} hours. The maximum daily dose "
        f"of {drug} without supervision is {maximum} mg. {drug.capitalize()} was first approved in {year}."
    )
    claims = (
        f"The usual adult dose of {drug} is {dose} mg every {hours} hours.",
        f"The maximum daily dose of {drug} without supervision is {maximum} mg.",
        f"{drug.capitalize()} was first approved in {year}.",
    )
    return _Facts(f"How much {drug} can an adult take?", doc, claims, figure=0)


def _general(r: random.Random) -> _Facts:
    city, river = r.choice(_CITIES), r.choice(_RIVERS)
    people, year = r.randint(120, 990) * 1000, r.randint(1400, 1900)
    doc = (
        f"{city} has a population of {people:,}. {city} lies on the {river}, which made it a trading "
        f"town. The university of {city} was founded in {year}."
    )
    claims = (
        f"{city} has a population of {people:,}.",
        f"{city} lies on the {river}.",
        f"The university of {city} was founded in {year}.",
    )
    return _Facts(f"Tell me about {city}.", doc, claims, figure=2)


_BUILDERS: dict[str, Callable[[random.Random], _Facts]] = {
    "finance": _finance,
    "legal": _legal,
    "health": _health,
    "general": _general,
}
_NAMES = ("Northwind", "Contoso", "Fabrikam", "Tailspin", "Litware", "Adatum", "Proseware", "Wingtip")
_CITIES = ("Amsterdam", "Lisbon", "Vienna", "Lyon", "Turin", "Seville", "Krakow", "Aarhus", "Ghent", "Basel")
_JURISDICTIONS = ("Ontario", "Alberta", "Victoria", "Queensland", "Scotland", "Ireland", "Nova Scotia")
_DRUGS = ("ibuprofen", "paracetamol", "naproxen", "amoxicillin", "cetirizine", "metformin")
_RIVERS = ("Rhine", "Danube", "Scheldt", "Tagus", "Rhone", "Vistula", "Elbe", "Po")
# An added claim no document of this workload makes (the hallucination kind "unsupported").
_UNSUPPORTED = (
    "It was the first of its kind in Europe.",
    "The figure was confirmed by an independent audit last year.",
    "Most experts expect it to double within five years.",
)


def workload_answers(n: int, *, seed: int = 0, error_rate: float = 0.05) -> list[Answer]:
    """`n` answers, domains in turn; a seeded `error_rate` share carries one hallucination."""
    r = random.Random(seed)
    answers: list[Answer] = []
    for i in range(n):
        domain = DOMAINS[i % len(DOMAINS)]
        facts = _BUILDERS[domain](r)
        kind = CLEAN if r.random() >= error_rate else r.choice((CONTRADICTED, UNSUPPORTED))
        claims = list(facts.claims)
        if kind == CONTRADICTED:
            claims[facts.figure] = _wrong_figure(claims[facts.figure])
        elif kind == UNSUPPORTED:
            claims.append(r.choice(_UNSUPPORTED))
        answers.append(
            Answer(
                id=f"wl-{seed}-{i:05d}",
                query=facts.query,
                answer=" ".join(claims),
                documents=(Document(id=f"wl-{seed}-{i:05d}-doc", text=facts.document),),
                domain=domain,
                stakes=Stakes.MEDIUM,
                metadata={"workload": kind},
            )
        )
    return answers


def _wrong_figure(claim: str) -> str:
    """The claim with its first number changed (a year moves by 3, anything else grows by a third)."""
    words = claim.split(" ")
    for i, word in enumerate(words):
        digits = word.strip("$%.,").replace(",", "")
        if digits.replace(".", "", 1).isdigit():
            value = float(digits)
            new = value + 3 if 1000 <= value <= 2100 and "." not in digits else value * 4 / 3
            text = f"{new:.1f}" if "." in digits else f"{round(new):,}" if "," in word else str(round(new))
            words[i] = word.replace(word.strip("$%.,"), text)
            return " ".join(words)
    raise ValueError(f"no figure in {claim!r}")


@dataclass(frozen=True)
class ReviewShare:
    """Answers held for review among the corrected ones (route full), with what put them there."""

    corrected: int
    review: int
    reasons: dict[str, int]
    by_kind: dict[str, tuple[int, int]]  # workload kind -> (review, corrected)

    @property
    def share(self) -> float:
        return self.review / self.corrected if self.corrected else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "corrected": self.corrected,
            "review": self.review,
            "share": round(self.share, 4),
            "reasons": self.reasons,
            "by_kind": {k: {"review": v[0], "corrected": v[1]} for k, v in sorted(self.by_kind.items())},
        }


def review_share(outputs: Iterable[Corrected], answers: Sequence[Answer] = ()) -> ReviewShare:
    """The share `woodpecker.review_rate` reports: review / full-route answers."""
    kinds = {a.id: str((a.metadata or {}).get("workload", "unknown")) for a in answers}
    corrected = review = 0
    reasons: Counter[str] = Counter()
    per_kind: dict[str, list[int]] = {}
    for out in outputs:
        if out.route is not Route.FULL:
            continue
        corrected += 1
        review += out.needs_review
        reasons.update(out.review_reasons)
        tally = per_kind.setdefault(kinds.get(out.id, "unknown"), [0, 0])
        tally[0] += out.needs_review
        tally[1] += 1
    by_kind = {k: (v[0], v[1]) for k, v in per_kind.items()}
    return ReviewShare(corrected, review, dict(reasons), by_kind)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.eval.workload", description=__doc__.split("\n")[0])
    parser.add_argument("--answers", type=int, default=2000, help="how many answers to write")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--error-rate", type=float, default=0.05)
    parser.add_argument("--out", type=Path, help="write the workload here (answer.v1 JSONL)")
    parser.add_argument("--share", type=Path, help="a `woodpecker correct` output: print its review share")
    parser.add_argument("--answers-file", type=Path, help="the workload the --share output came from")
    args = parser.parse_args(argv)
    if args.share is not None:
        answers = [Answer.from_json(line) for line in _lines(args.answers_file)] if args.answers_file else []
        outputs = (Corrected.from_json(line) for line in _lines(args.share))
        print(json.dumps(review_share(outputs, answers).as_dict(), indent=2))
        return 0
    answers = workload_answers(args.answers, seed=args.seed, error_rate=args.error_rate)
    lines = b"".join(a.to_json() + b"\n" for a in answers)
    if args.out is None:
        sys.stdout.buffer.write(lines)
    else:
        args.out.write_bytes(lines)
    return 0


def _lines(path: Path) -> list[bytes]:
    return [line for line in path.read_bytes().splitlines() if line.strip()]


if __name__ == "__main__":
    raise SystemExit(main())

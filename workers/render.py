"""Human-readable rendering of a corrected answer: what changed, and why.

Usage::

    print(render(corrected, color=sys.stdout.isatty()))

Used by `make run`, `woodpecker tail` and `woodpecker review show`.
"""

from __future__ import annotations

import difflib

from workers.messages import Action, ClaimResult, Corrected, Verdict

__all__ = ["render"]

_STYLE = {"del": "\033[31m", "ins": "\033[32m", "dim": "\033[2m", "bold": "\033[1m", "end": "\033[0m"}
_MARK = {Action.REPLACE: "~", Action.REMOVE: "-", Action.FLAG: "?", Action.KEEP: "="}


def render(corrected: Corrected, *, color: bool = False) -> str:
    """A block per answer: header, word diff of the text, one line per changed claim."""
    s = _STYLE if color else dict.fromkeys(_STYLE, "")
    review = "  NEEDS REVIEW: " + ", ".join(corrected.review_reasons) if corrected.needs_review else ""
    head = f"{s['bold']}{corrected.id}{s['end']}  route={corrected.route.value}{review}"
    lines = [head, "  " + _word_diff(corrected.original, corrected.corrected, s)]
    # Unverified claims kept as they are (held for review) are shown too: a reviewer needs them.
    changed = [c for c in corrected.claims if c.action is not Action.KEEP or c.verdict != Verdict.VERIFIED]
    lines += [_claim_line(c, s) for c in changed]
    verified = len(corrected.claims) - len(changed)
    if corrected.claims:
        lines.append(f"  {s['dim']}{verified} claim(s) verified{s['end']}")
    return "\n".join(lines)


def _claim_line(claim: ClaimResult, s: dict[str, str]) -> str:
    ev = claim.evidence[0] if claim.evidence else None
    where = f' [{ev.doc_id} {ev.start}-{ev.end}: "{_short(ev.text)}"]' if ev else " [no evidence]"
    new = f' -> "{claim.replacement}"' if claim.replacement and claim.action is Action.REPLACE else ""
    head = f'{_MARK[claim.action]} {claim.action.value:<7} {claim.verdict.value:<12} "{_short(claim.text)}"'
    return f"  {head}{new}\n      {s['dim']}{claim.reason}{where}{s['end']}"


def _word_diff(old: str, new: str, s: dict[str, str]) -> str:
    if old == new:
        return old
    a, b = old.split(" "), new.split(" ")
    out: list[str] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if op == "equal":
            out.append(" ".join(a[i1:i2]))
            continue
        if i2 > i1:
            out.append(f"{s['del']}[-{' '.join(a[i1:i2])}-]{s['end']}")
        if j2 > j1:
            out.append(f"{s['ins']}{{+{' '.join(b[j1:j2])}+}}{s['end']}")
    return " ".join(out)


def _short(text: str, limit: int = 90) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"

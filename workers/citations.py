"""An answer's citations as data: what `stages/cite.py` parses once and the phase contract carries.

They travel inside the plan (`messages.Plan.citations`), so correction never re-parses the answer and a
plan whose documents went by reference still knows which document `[1]` names.

Usage::

    found = parse_citations(answer, settings=settings.citations)   # a Found
    found.citations[0].docs, found.citations[0].covers(claim)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol


class _Span(Protocol):
    """Anything with offsets on the answer (a `messages.Claim`); no import of messages, which imports this."""

    @property
    def start(self) -> int: ...
    @property
    def end(self) -> int: ...


__all__ = ["Citation", "Found", "Marker", "Ref"]


@dataclass(frozen=True, slots=True)
class Ref:
    """One reference of a marker as written, and the document (index) it names; `by_id` if by id/title."""

    text: str
    doc: int | None
    by_id: bool = False


@dataclass(frozen=True, slots=True)
class Marker:
    """An inline marker `text[start:end]`; `text[refs_start:refs_end]` holds its references."""

    start: int
    end: int
    refs_start: int
    refs_end: int
    style: str
    refs: tuple[Ref, ...]
    separator: str = ", "


@dataclass(frozen=True, slots=True)
class Citation:
    """A citation of the span `start:end` (original offsets) to the documents `docs` (indices)."""

    index: int
    start: int
    end: int
    docs: tuple[int, ...]
    cited: tuple[str, ...]
    marker: Marker | None = None

    @property
    def complete(self) -> bool:
        """Every reference names a document."""
        return len(self.cited) == len(self.docs) and (
            self.marker is None or all(r.doc is not None for r in self.marker.refs)
        )

    def covers(self, claim: _Span) -> bool:
        return claim.start < self.end and self.start < claim.end


@dataclass(frozen=True)
class Found:
    """An answer's citations; `masked` is the answer with the markers blanked (same length)."""

    text: str
    masked: str
    doc_ids: tuple[str, ...]
    citations: tuple[Citation, ...] = ()
    style: str = "numeric"

    def doc_index(self, doc_id: str) -> int | None:
        return self.doc_ids.index(doc_id) if doc_id in self.doc_ids else None

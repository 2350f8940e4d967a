"""Documents sent by reference: a plan too large for one record leaves its documents here.

The key names the tenant's namespace, the answer and a digest of the documents, and expires after a TTL.
Reading checks that the key belongs to the answer's own tenant and answer, so a forged or misrouted
reference never reads another tenant's documents, and that the documents still hash to the digest.

Usage::

    store = DocumentStore(open_cache(settings.cache))      # Redis: every worker reads what one wrote
    key = store.put(answer, ttl_s=3600)
    store.get(key, answer=answer.model_copy(update={"documents": ()}))   # the documents, or None
"""

from __future__ import annotations

from pydantic import TypeAdapter, ValidationError

from workers.backends.cache import Cache
from workers.backends.cached import text_digest
from workers.messages import Answer, Document
from workers.semantic import namespace

__all__ = ["DocumentStore"]

_DOCUMENTS = TypeAdapter(tuple[Document, ...])


class DocumentStore:
    """Tenant-scoped, expiring storage of an answer's documents in the cache (Redis or in-process)."""

    def __init__(self, cache: Cache) -> None:
        self.cache = cache

    def put(self, answer: Answer, *, ttl_s: float) -> str:
        raw = _DOCUMENTS.dump_json(answer.documents)
        key = f"{_prefix(answer)}{text_digest(raw)}"
        self.cache.set_many({key: raw}, ttl_s=ttl_s)
        return key

    def get(self, key: str, *, answer: Answer) -> tuple[Document, ...] | None:
        """The documents under `key` if it is this answer's own reference and intact, else None."""
        if not key.startswith(_prefix(answer)):
            return None
        raw = self.cache.get_many([key])[0]
        if raw is None or text_digest(raw) != key.rsplit(":", 1)[-1]:
            return None
        try:
            return _DOCUMENTS.validate_json(raw)
        except ValidationError:
            return None


def _prefix(answer: Answer) -> str:
    # The answer id's length keeps the key unambiguous whatever characters the id holds.
    return f"docs:{namespace(answer.tenant)}:{len(answer.id)}:{answer.id}:"

"""Documents by reference: tenant-scoped, tamper-evident, expiring (workers/docstore.py)."""

from __future__ import annotations

from workers.backends.cache import LruCache
from workers.docstore import DocumentStore
from workers.messages import Answer, Document

DOCS = (Document(id="d1", text="The rate is 5.25% per annum."), Document(id="d2", text="Fee: 1%."))


def _answer(tenant: str | None, answer_id: str = "a1") -> Answer:
    return Answer(id=answer_id, query="q", answer="The rate is 5.25%.", documents=DOCS, tenant=tenant)


def test_the_documents_come_back_for_their_own_answer_only() -> None:
    store = DocumentStore(LruCache())
    key = store.put(_answer("acme"), ttl_s=60)
    assert store.get(key, answer=_answer("acme")) == DOCS
    assert store.get(key, answer=_answer("globex")) is None  # another tenant's reference: never read
    assert store.get(key, answer=_answer(None)) is None
    assert store.get(key, answer=_answer("acme", "a2")) is None  # another answer of the same tenant


def test_a_tampered_or_expired_entry_reads_as_missing() -> None:
    now = [0.0]
    cache = LruCache(clock=lambda: now[0])
    store = DocumentStore(cache)
    key = store.put(_answer("acme"), ttl_s=60)
    cache.set_many({key: b'[{"id": "d1", "text": "The rate is 9% per annum."}]'}, ttl_s=60)
    assert store.get(key, answer=_answer("acme")) is None  # no longer hashes to its digest
    key = store.put(_answer("acme"), ttl_s=60)
    now[0] = 61.0
    assert store.get(key, answer=_answer("acme")) is None

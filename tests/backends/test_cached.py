"""The cache wrappers: embeddings and verdicts come from the cache, and the model sees only the misses."""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import numpy as np
import pytest
import redis

from tests.fakes import HashEmbedder, ScriptedChecker
from tests.redis_server import MakeCache
from workers.backends.cache import LruCache, collect_hits
from workers.backends.cached import CachedChecker, CachedEmbedder, text_digest
from workers.messages import Answer, Claim, Document, Evidence, Judgement, SlotFix
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.semantic import cached_backends
from workers.settings import Settings

pytestmark = pytest.mark.integration

TEXTS = ["Revenue rose 12% in 2023.", "The head office is in Delhi.", "Margins fell."]


def test_embedding_hits_avoid_model_calls() -> None:
    model = HashEmbedder()
    cached = CachedEmbedder(model, cache=LruCache(), ttl_s=60)
    first = cached.encode(TEXTS)
    assert model.calls == 1
    with collect_hits() as hits:
        again = cached.encode(TEXTS)
    assert model.calls == 1
    assert hits["embedding"] == 3
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(first, HashEmbedder().encode(TEXTS))
    assert again.dtype == np.float32 and again.shape == (3, 384)


def test_only_misses_reach_the_model_in_one_call() -> None:
    model = HashEmbedder()
    cache = LruCache()
    cached = CachedEmbedder(model, cache=cache, ttl_s=60)
    cached.encode(TEXTS[:2])
    out = cached.encode([TEXTS[2], TEXTS[0], TEXTS[2]])
    assert model.calls == 2
    assert model.texts[2:] == [TEXTS[2]]  # once, though asked twice
    np.testing.assert_array_equal(out[0], out[2])
    assert cache.stats.counts("embedding") == (1, 3)


def test_empty_batch_is_delegated() -> None:
    out = CachedEmbedder(HashEmbedder(), cache=LruCache(), ttl_s=60).encode([])
    assert out.shape == (0, 384)


def test_damaged_entry_is_recomputed() -> None:
    model = HashEmbedder()
    cache = LruCache()
    cached = CachedEmbedder(model, cache=cache, ttl_s=60)
    cached.encode(TEXTS)
    cache.set_many({f"emb:{model.model_id}:{text_digest(TEXTS[0])}": b"\x00" * 12}, ttl_s=60)
    out = cached.encode(TEXTS)
    np.testing.assert_array_equal(out, HashEmbedder().encode(TEXTS))


def test_embeddings_in_redis_are_float32_bytes_shared_across_replicas(
    make_redis_cache: MakeCache, redis_url: str, redis_prefix: str
) -> None:
    one, two = HashEmbedder(), HashEmbedder()
    expected = CachedEmbedder(one, cache=make_redis_cache(redis_url), ttl_s=60).encode(TEXTS)
    got = CachedEmbedder(two, cache=make_redis_cache(redis_url), ttl_s=60).encode(TEXTS)
    assert (one.calls, two.calls) == (1, 0)  # the second replica never calls its model
    np.testing.assert_array_equal(expected, got)
    with redis.Redis.from_url(redis_url) as direct:
        raw = direct.get(f"{redis_prefix}emb:{one.model_id}:{text_digest(TEXTS[0])}")
    assert raw is not None and len(raw) == 384 * 4
    np.testing.assert_array_equal(np.frombuffer(raw, dtype="<f4"), expected[0])


def test_embedding_ttl_expires(make_redis_cache: MakeCache, redis_url: str) -> None:
    model = HashEmbedder()
    cached = CachedEmbedder(model, cache=make_redis_cache(redis_url), ttl_s=1)
    cached.encode(TEXTS)
    cached.encode(TEXTS)
    assert model.calls == 1
    time.sleep(1.2)
    cached.encode(TEXTS)
    assert model.calls == 2


# ---- verdicts ----------------------------------------------------------------------------------

CLAIM = Claim(id="c0", text="Revenue was $4.8 bn.", start=0, end=20)
WINDOW = Evidence(doc_id="ar", start=10, end=40, text="Revenue was $4.2 billion.", score=0.9)
RESULT = CheckResult(
    Judgement.CONTRADICT,
    "4.8 bn vs 4.2 billion",
    evidence=WINDOW,
    fixes=(SlotFix(start=13, end=19, wrong="4.8 bn", right="4.2 billion", evidence_doc_id="ar"),),
    confidence=0.9,
    extra={"slot_overlap": 1.0},
)


def _checker(cache: LruCache, model: ScriptedChecker, *, threshold: float | None = None) -> CachedChecker:
    return CachedChecker(model, cache=cache, ttl_s=60, threshold=threshold)


def test_verdict_hit_returns_the_same_result_without_a_call() -> None:
    model = ScriptedChecker({"c0": RESULT})
    cached = _checker(LruCache(), model)
    assert cached.judge_many([(CLAIM, [WINDOW])]) == [RESULT]
    other_id = CLAIM.model_copy(update={"id": "c9"})  # ids do not matter, text and evidence do
    rescored = WINDOW.model_copy(update={"score": 0.5})
    with collect_hits() as hits:
        again = cached.judge_many([(other_id, [rescored])])
    assert len(model.batches) == 1
    assert hits["verdict"] == 1
    assert again[0].label is Judgement.CONTRADICT
    assert again[0].fixes == RESULT.fixes and again[0].extra == RESULT.extra
    assert again[0].evidence == rescored  # today's window, today's score


@pytest.mark.parametrize(
    ("change", "asked"),
    [("nothing", 0), ("claim", 1), ("window", 1), ("threshold", 1), ("verifier", 1)],
)
def test_verdict_key_covers_claim_evidence_threshold_and_verifier(change: str, asked: int) -> None:
    cache = LruCache()
    _checker(cache, ScriptedChecker({"c0": RESULT}), threshold=0.5).judge_many([(CLAIM, [WINDOW])])
    second = ScriptedChecker({"c0": RESULT}, name="other" if change == "verifier" else "scripted")
    claim = CLAIM.model_copy(update={"text": "Revenue was $4.9 bn."}) if change == "claim" else CLAIM
    window = WINDOW.model_copy(update={"end": 41}) if change == "window" else WINDOW
    threshold = 0.6 if change == "threshold" else 0.5
    _checker(cache, second, threshold=threshold).judge_many([(claim, [window])])
    assert len(second.batches) == asked  # asked = a miss


def test_fallback_verdicts_are_not_cached() -> None:
    fallback = CheckResult(Judgement.NEUTRAL, "offline fallback: no slot in common")
    model = ScriptedChecker({"c0": fallback})
    cached = _checker(LruCache(), model)
    cached.judge_many([(CLAIM, [WINDOW])])
    assert cached.judge_many([(CLAIM, [WINDOW])]) == [fallback]
    assert len(model.batches) == 2  # asked again: the real verifier may be back


def test_mixed_batch_asks_only_for_the_misses() -> None:
    model = ScriptedChecker({"c0": RESULT})
    cached = _checker(LruCache(), model)
    cached.judge_many([(CLAIM, [WINDOW])])
    new = Claim(id="c1", text="The CEO is Jane Doe.", start=21, end=41)
    out = cached.judge_many([(new, [WINDOW]), (CLAIM, [WINDOW])])
    assert [c.id for c, _ in model.batches[1]] == ["c1"]
    assert out[1] == RESULT and out[0].label is Judgement.INSUFFICIENT


class _GatedChecker(ScriptedChecker):
    """Holds its first call until released, so a second caller arrives while it is judging."""

    def __init__(self, *, fail_first: bool = False) -> None:
        super().__init__({"c0": RESULT})
        self.entered, self.release = threading.Event(), threading.Event()
        self._fail_first = fail_first

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        first = not self.entered.is_set()
        self.entered.set()
        if first:
            assert self.release.wait(10)
            if self._fail_first:
                raise RuntimeError("verifier down")
        return super().judge_many(items)


def _two_at_once(model: _GatedChecker) -> tuple[list[object], dict[str, int]]:
    """The same pair asked from two threads, the second while the first is being judged."""
    cached = _checker(LruCache(), model)
    out: list[object] = []

    def ask() -> None:
        try:
            out.append(cached.judge_many([(CLAIM, [WINDOW])]))
        except RuntimeError as exc:
            out.append(exc)

    owner = threading.Thread(target=ask)
    owner.start()
    assert model.entered.wait(10)
    with collect_hits() as hits:
        second = threading.Thread(target=lambda: hits.update(_asked(cached)))
        second.start()
        time.sleep(0.2)  # the second caller is waiting on the first, not judging
        assert len(model.batches) == 0
        model.release.set()
        owner.join(10)
        second.join(10)
    return out, hits


def _asked(cached: CachedChecker) -> dict[str, int]:
    with collect_hits() as hits:
        assert cached.judge_many([(CLAIM, [WINDOW])]) == [RESULT]
    return hits


def test_a_pair_asked_while_it_is_being_judged_is_judged_once_and_is_a_hit() -> None:
    model = _GatedChecker()
    out, hits = _two_at_once(model)
    assert out == [[RESULT]]
    assert len(model.batches) == 1
    assert hits["verdict"] == 1  # as if the two had come one after the other


def test_when_the_first_caller_fails_the_waiting_one_judges_the_pair_itself() -> None:
    model = _GatedChecker(fail_first=True)
    out, hits = _two_at_once(model)
    assert [type(o) for o in out] == [RuntimeError]
    assert len(model.batches) == 1  # the waiter's own call
    assert hits["verdict"] == 0


# ---- in the pipeline ---------------------------------------------------------------------------

DOC = Document(
    id="ar",
    text=(
        "Northwind Traders is headquartered in Amsterdam and operates in 14 countries. "
        "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier."
    ),
)


def test_pipeline_reports_cache_hits_by_kind(make_redis_cache: MakeCache, redis_url: str) -> None:
    settings = Settings.load()
    model, checker = HashEmbedder(), ScriptedChecker()
    cached = cached_backends(settings, embedder=model, checker=checker, cache=make_redis_cache(redis_url))
    pipeline = Pipeline(settings=settings, embedder=cached.embedder, checker=cached.checker)
    text = "In fiscal 2023 Northwind Traders reported revenue of $4.8 bn. It operates in 14 countries."
    answer = Answer(id="a1", query="How did Northwind do?", answer=text, documents=(DOC,), stakes="medium")
    first = pipeline.process(answer)
    calls = model.calls
    second = pipeline.process(answer.model_copy(update={"id": "a2"}))
    assert first.stats.cache_hits == {"embedding": 0, "verdict": 0, "semantic": 0}
    assert second.stats.cache_hits["embedding"] > 0 and second.stats.cache_hits["verdict"] > 0
    assert model.calls == calls  # every vector of the second answer came from Redis
    assert second.corrected == first.corrected
    assert cached.cache.stats.hit_ratio("embedding") > 0.0

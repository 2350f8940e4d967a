"""The tenant-scoped semantic cache, alone and in the pipeline, on a real Redis that may go away."""

from __future__ import annotations

import time
from typing import Any

import pytest
import redis

from tests.fakes import HashEmbedder, ScriptedChecker
from tests.redis_server import MakeCache, RedisServer
from workers.backends.cache import Cache, LruCache, RedisCache
from workers.backends.cached import CachedEmbedder
from workers.messages import Answer, Corrected, Document, Judgement, Route, Stats
from workers.pipeline import Pipeline
from workers.protocols import CheckResult
from workers.semantic import SemanticCache, cached_backends, namespace, scope_of
from workers.settings import Settings

pytestmark = pytest.mark.integration

DOC = Document(
    id="ar",
    text=(
        "Northwind Traders is headquartered in Amsterdam and operates in 14 countries. "
        "In fiscal 2023 the company reported revenue of $4.2 billion, up from $3.9 billion a year earlier."
    ),
)
OTHER_DOC = Document(
    id="ar", text="Northwind Traders is headquartered in Rotterdam and operates in 9 countries."
)
TEXT = "In fiscal 2023 Northwind Traders reported revenue of $4.8 bn. It operates in 14 countries."
# The same words in another order: the bag-of-words fake embeds both to the same vector.
REORDERED = "It operates in 14 countries. In fiscal 2023 Northwind Traders reported revenue of $4.8 bn."
STATED = "Northwind Traders is headquartered in Amsterdam and operates in 14 countries."
SPACED = "\n" + STATED.replace(".", " .") + "  "  # spacing around the sentence only


def _answer(id_: str = "a1", text: str = TEXT, **extra: Any) -> Answer:
    fields: dict[str, Any] = {"query": "How did Northwind do?", "documents": (DOC,), "stakes": "medium"}
    return Answer(id=id_, answer=text, **(fields | extra))


class Rig:
    """A pipeline on fakes with all three caches over one cache store."""

    def __init__(self, cache: Cache, **cache_settings: Any) -> None:
        self.settings = Settings.load(cache=cache_settings)
        self.model, self.checker = HashEmbedder(), ScriptedChecker()
        backends = cached_backends(self.settings, embedder=self.model, checker=self.checker, cache=cache)
        self.pipeline = Pipeline(
            settings=self.settings,
            embedder=backends.embedder,
            checker=backends.checker,
            semantic=backends.semantic,
        )

    def run(self, answer: Answer) -> Corrected:
        out = self.pipeline.process(answer)
        assert out.id == answer.id and out.original == answer.answer
        for claim in out.claims:
            assert answer.answer[claim.start : claim.end] == claim.text
        return out


@pytest.fixture
def rig(make_redis_cache: MakeCache, redis_url: str) -> Rig:
    return Rig(make_redis_cache(redis_url))


def test_identical_answer_reuses_the_correction(rig: Rig) -> None:
    first = rig.run(_answer("a1"))
    asked = len(rig.checker.batches)
    second = rig.run(_answer("a2"))
    assert first.route is Route.FULL
    assert second.route is Route.SEMANTIC_CACHE
    assert (second.corrected, second.claims) == (first.corrected, first.claims)
    assert second.stats.cache_hits["semantic"] == 1
    assert "semantic" in second.stats.stage_ms and "verify" not in second.stats.stage_ms
    assert len(rig.checker.batches) == asked  # nothing verified again
    assert "[unverified]" in second.corrected  # a real correction was reused, not the original


def test_another_tenant_misses(rig: Rig) -> None:
    rig.run(_answer("a1", tenant="acme"))
    assert rig.run(_answer("b1", tenant="globex")).route is Route.FULL
    assert rig.run(_answer("b2")).route is Route.FULL  # no tenant is a namespace of its own
    assert rig.run(_answer("b3", tenant="_")).route is Route.FULL
    assert rig.run(_answer("a2", tenant="acme")).route is Route.SEMANTIC_CACHE


def test_other_documents_miss(rig: Rig) -> None:
    rig.run(_answer("a1"))
    assert rig.run(_answer("b1", documents=(OTHER_DOC,))).route is Route.FULL
    assert rig.run(_answer("b2", documents=(DOC, OTHER_DOC))).route is Route.FULL
    assert rig.run(_answer("b3", documents=())).route is Route.FULL


def test_near_identical_answer_hits_with_claims_reanchored(rig: Rig) -> None:
    rig.checker.default = CheckResult(Judgement.SUPPORT, "scripted support")
    first = rig.run(_answer("a1", text=STATED))
    assert first.route is Route.FULL and first.corrected == first.original  # nothing to correct
    near = rig.run(_answer("a2", text=SPACED))  # Rig.run checks every claim's offsets
    assert near.route is Route.SEMANTIC_CACHE
    assert near.corrected == SPACED  # this answer's own text, not the stored one's spacing
    assert [c.text for c in near.claims] == [c.text for c in first.claims]


def test_a_near_match_never_reuses_another_answers_edits(rig: Rig) -> None:
    first = rig.run(_answer("a1"))
    assert first.corrected != first.original  # flagged
    spaced = rig.run(_answer("a2", text=TEXT.replace(". It", ".  It")))
    assert spaced.route is Route.FULL  # recomputed: the stored text is another answer's
    assert spaced.corrected.startswith(TEXT[:10]) and ".  It" in spaced.corrected


@pytest.mark.parametrize(
    "changed",
    [
        TEXT.replace("$4.8 bn", "$4.9 bn"),  # a figure
        TEXT.replace("It operates", "It never operates"),  # a negation
        TEXT.replace("It operates", "It still operates"),  # a word more
        TEXT.replace("Northwind Traders", "Contoso Traders"),  # a name for another
        TEXT.replace("countries.", "countries?"),  # a statement made a question
        REORDERED,  # the same words, sentences swapped: the bag-of-words fake embeds it identically
    ],
)
def test_a_changed_word_never_hits_even_below_the_threshold(
    make_redis_cache: MakeCache, redis_url: str, changed: str
) -> None:
    rig = Rig(make_redis_cache(redis_url), semantic_threshold=0.5)
    rig.checker.default = CheckResult(Judgement.SUPPORT, "scripted support")
    assert rig.run(_answer("a1")).route is Route.FULL
    assert rig.run(_answer("a2", text=changed)).route is Route.FULL


def test_entries_expire(make_redis_cache: MakeCache, redis_url: str) -> None:
    rig = Rig(make_redis_cache(redis_url), semantic_ttl_s=1)
    rig.run(_answer("a1"))
    assert rig.run(_answer("a2")).route is Route.SEMANTIC_CACHE
    time.sleep(1.2)
    assert rig.run(_answer("a3")).route is Route.FULL


def test_redis_stopped_mid_run_then_back(private_redis: RedisServer, make_redis_cache: MakeCache) -> None:
    cache = make_redis_cache(private_redis.url)
    rig = Rig(cache)
    first = rig.run(_answer("a1"))
    private_redis.kill()
    other = rig.run(_answer("b1", documents=(OTHER_DOC,)))  # still corrected, on the LRU
    assert other.route is Route.FULL and other.corrected != other.original
    assert rig.run(_answer("a2")).corrected == first.corrected  # the LRU mirror still serves
    assert cache.degraded and cache.stats.degradations == 1
    private_redis.start()  # same port, empty
    deadline = time.monotonic() + 10
    while cache.degraded:
        assert time.monotonic() < deadline, "Redis was not used again"
        assert rig.run(_answer("c1", documents=(OTHER_DOC,))).corrected == other.corrected
        time.sleep(0.05)
    stored = rig.run(_answer("d1", text=REORDERED, tenant="t2"))
    assert stored.route is Route.FULL
    again = rig.run(_answer("d2", text=REORDERED, tenant="t2"))
    assert again.route is Route.SEMANTIC_CACHE  # a hit, from Redis again
    with redis.Redis.from_url(private_redis.url) as direct:
        assert any(b":sem:t.t2:" in key for key in direct.keys(cache.prefix + "*"))


# ---- SemanticCache alone -----------------------------------------------------------------------


def _semantic(cache: LruCache, **options: Any) -> SemanticCache:
    return SemanticCache(cache, embedder=CachedEmbedder(HashEmbedder(), cache=cache, ttl_s=60), **options)


def _corrected(answer: Answer, **extra: Any) -> Corrected:
    fields: dict[str, Any] = {"corrected": answer.answer + "!", "route": Route.FULL} | extra
    return Corrected(id=answer.id, tenant=answer.tenant, original=answer.answer, **fields)


def test_fallbacks_and_passthroughs_are_not_stored() -> None:
    semantic = _semantic(LruCache())
    answer = _answer()
    semantic.store(answer, _corrected(answer, stats=Stats(fallback="llm down")))
    semantic.store(answer, _corrected(answer, route=Route.FAST_PATH))
    assert semantic.lookup(answer) is None
    semantic.store(answer, _corrected(answer))
    hit = semantic.lookup(answer.model_copy(update={"id": "z"}))
    assert hit is not None and hit.id == "z" and hit.corrected == TEXT + "!"


def test_recent_list_is_bounded() -> None:
    cache = LruCache()
    semantic = _semantic(cache, max_recent=3)
    for i in range(5):
        answer = _answer(text=f"Answer number {i} about revenue.")
        assert semantic.lookup(answer) is None  # a miss indexes the answer, as `prepare` does
        semantic.store(answer, _corrected(answer))
    key = f"semidx:{namespace(None)}:{scope_of(_answer())}"
    assert len(cache.recent(key, limit=100)) == 3


def test_scope_depends_on_the_document_set_not_its_order() -> None:
    two = _answer(documents=(DOC, OTHER_DOC.model_copy(update={"id": "x"})))
    swapped = _answer(documents=(OTHER_DOC.model_copy(update={"id": "x"}), DOC))
    assert scope_of(two) == scope_of(swapped)
    assert scope_of(two) != scope_of(_answer())
    assert scope_of(_answer()) != scope_of(_answer(), salt="other settings")
    assert namespace(None) != namespace("_")


@pytest.mark.slow
def test_build_pipeline_wires_the_caches(real_pipeline: Pipeline, settings: Settings) -> None:
    assert isinstance(real_pipeline.embedder, CachedEmbedder)
    assert real_pipeline.semantic is not None
    expected = LruCache if settings.cache.redis_url is None else RedisCache
    assert isinstance(real_pipeline.semantic.cache, expected)


def test_storing_needs_no_embedder_the_lookup_indexed_the_answer() -> None:
    semantic = _semantic(LruCache())
    answer = _answer()
    assert semantic.lookup(answer) is None
    semantic._embedder = None  # type: ignore[assignment]  # a correction worker loads no model
    semantic.store(answer, _corrected(answer, corrected=answer.answer))
    semantic._embedder = _semantic(LruCache())._embedder
    near = answer.model_copy(update={"id": "n", "answer": TEXT + " "})
    hit = semantic.lookup(near)
    assert hit is not None and hit.id == "n"

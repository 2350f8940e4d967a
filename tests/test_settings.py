from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from workers.resources import config_dir
from workers.settings import Settings


def test_defaults() -> None:
    s = Settings.load()
    assert s.thresholds.default == 0.82
    assert s.sampler.rate == 0.05
    assert s.threshold_for(domain=None) == 0.82


def test_threshold_overrides(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOODPECKER_THRESHOLDS__BY_DOMAIN", '{"legal": 0.9}')
    s = Settings.load()
    assert s.threshold_for(domain="legal") == 0.9
    assert s.threshold_for(domain="legal", claim_type="novel") == 0.88
    assert s.threshold_for(domain="other", claim_type="established") == 0.75


def test_env_beats_file(monkeypatch: pytest.MonkeyPatch) -> None:
    path = config_dir() / "woodpecker.toml"
    assert Settings.load(config_file=path).threshold_for(domain="health") == 0.85
    monkeypatch.setenv("WOODPECKER_SAMPLER__RATE", "0.5")
    assert Settings.load(config_file=path).sampler.rate == 0.5


def test_config_file_from_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    cfg = tmp_path / "w.toml"
    cfg.write_text("[sampler]\nrate = 1.0\n")
    monkeypatch.setenv("WOODPECKER_CONFIG", str(cfg))
    assert Settings.load().sampler.rate == 1.0


def test_kafka_bootstrap_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KAFKA_BOOTSTRAP", "127.0.0.1:9999")
    assert Settings.load().kafka.bootstrap == "127.0.0.1:9999"


def test_frozen_and_validated(tmp_path: Path) -> None:
    s = Settings.load()
    with pytest.raises(ValidationError):
        s.log_content = True  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Settings.load(sampler={"rate": 1.5})
    with pytest.raises(FileNotFoundError):
        Settings.load(config_file=tmp_path / "missing.toml")


def test_shipped_config_files_load() -> None:
    for path in config_dir().glob("*.toml"):
        assert isinstance(Settings.load(config_file=path), Settings)


def test_secrets_not_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WOODPECKER_CACHE__REDIS_URL", "redis://:hunter2@localhost:6379/0")
    s = Settings.load()
    assert "hunter2" not in repr(s)
    assert s.cache.redis_url is not None
    assert "hunter2" in s.cache.redis_url.get_secret_value()

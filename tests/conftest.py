"""Shared fixtures. The real pipeline (MiniLM + offline checker) loads once per test session."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from workers.settings import Settings

if TYPE_CHECKING:
    from workers.pipeline import Pipeline


@pytest.fixture(scope="session")
def settings() -> Settings:
    return Settings.load()


@pytest.fixture(scope="session")
def real_pipeline(settings: Settings) -> Pipeline:
    from workers.pipeline import build_pipeline

    return build_pipeline(settings)

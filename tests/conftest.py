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


# A real Redis for the cache tests (issue 4): REDIS_URL, else a private redis-server.
from tests.redis_server import make_redis_cache, private_redis, redis_prefix, redis_url  # noqa: E402, F401

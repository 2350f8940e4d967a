"""One embedded broker for the console tests (each test uses topics and Redis keys of its own)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lab.broker import EmbeddedBroker


@pytest.fixture(scope="package")
def broker() -> Iterator[EmbeddedBroker]:
    with EmbeddedBroker.start() as running:
        yield running

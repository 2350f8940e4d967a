"""`woodpecker serve`: the HTTP API around the pipeline (`app.py`), its admission gate and drain
(`state.py`), the tenants' API keys (`tenants.py`), the OpenAPI document (`openapi.py`) and the
command (`command.py`).

Usage::

    from workers.server import create_app
    app = create_app(pipeline=build_pipeline(settings), settings=settings)
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    # Lazy, so `woodpecker --help` does not import FastAPI.
    if name == "create_app":
        from workers.server.app import create_app

        return create_app
    raise AttributeError(name)

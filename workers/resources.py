"""Where the JSON Schemas and settings files are, in a wheel or in a source checkout.

Usage::

    schema = load_schema("answer.v1")
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import orjson

__all__ = ["config_dir", "load_schema", "schema_dir"]

_PACKAGE = Path(__file__).resolve().parent


def _first_existing(*candidates: Path) -> Path:
    for path in candidates:
        if path.is_dir():
            return path
    raise FileNotFoundError(f"none of {', '.join(map(str, candidates))} exists")


def schema_dir() -> Path:
    # The wheel carries them inside the package (hatch force-include); a checkout has them at the top.
    return _first_existing(_PACKAGE / "_schemas", _PACKAGE.parent / "schemas")


def config_dir() -> Path:
    return _first_existing(_PACKAGE / "_config", _PACKAGE.parent / "config")


@functools.cache
def load_schema(name: str) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads((schema_dir() / f"{name}.json").read_bytes())
    return data

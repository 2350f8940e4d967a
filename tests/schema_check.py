"""Whether an object holds to one of the shipped JSON Schemas, for the message and record tests."""

from __future__ import annotations

import jsonschema

from workers.resources import load_schema


def schema_ok(name: str, obj: object) -> bool:
    """True when `obj` validates against the schema `name` (draft 2020-12)."""
    try:
        jsonschema.Draft202012Validator(load_schema(name)).validate(obj)
    except jsonschema.ValidationError:
        return False
    return True

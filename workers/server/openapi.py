"""The OpenAPI document of the HTTP API, built from `schemas/*.json` so /docs shows the real contract.

Usage::

    @app.post("/v1/correct", openapi_extra={"requestBody": request_body("answer.v1"),
                                            "responses": responses("corrected.v1")})
    install_openapi(app)        # adds answer.v1, corrected.v1, deadletter.v1 (with their examples)

Each schema's `$defs` become components of their own (`corrected.v1.claim`, ...), with the `$ref`s
rewritten to point at them; the schemas' `examples` become the request and response examples.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from workers.resources import load_schema

__all__ = ["SCHEMAS", "components", "install_openapi", "request_body", "responses"]

SCHEMAS = ("answer.v1", "corrected.v1", "deadletter.v1")
_ERROR = {
    "type": "object",
    "required": ["error"],
    "properties": {
        "error": {
            "type": "object",
            "required": ["status", "kind", "reason"],
            "properties": {
                "status": {"type": "integer"},
                "kind": {"type": "string", "examples": ["schema"]},
                "reason": {"type": "string", "examples": ["schema violation: query: Field required"]},
                "field": {"type": "string", "examples": ["query"]},
            },
        }
    },
}
_ERRORS = {
    "400": "Malformed JSON or UTF-8",
    "401": "No API key, or an unknown one",
    "403": "The body names another tenant than the API key's",
    "413": "Over a size limit",
    "422": "Schema violation; `field` names the field",
    "429": "Overloaded; retry after the `Retry-After` seconds",
    "503": "Shutting down, or the pipeline failed (with fail_open: the answer passed through)",
}


def _ref(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def _example(name: str) -> Any:
    return load_schema(name)["examples"][0]


def components() -> dict[str, Any]:
    """The three message schemas and their `$defs` as OpenAPI components, plus the batch envelopes."""
    out: dict[str, Any] = {"error": _ERROR}
    for name in SCHEMAS:
        schema = {k: v for k, v in load_schema(name).items() if k not in {"$schema", "$id"}}
        for sub, body in schema.pop("$defs", {}).items():
            out[f"{name}.{sub}"] = _rewrite(body, name)
        out[name] = _rewrite(schema, name)
    out["batch.request"] = {
        "type": "object",
        "required": ["answers"],
        "properties": {"answers": {"type": "array", "items": _ref("answer.v1")}},
        "examples": [{"answers": [_example("answer.v1")]}],
    }
    out["batch.response"] = {
        "type": "object",
        "required": ["results"],
        "properties": {
            "results": {"type": "array", "items": {"oneOf": [_ref("corrected.v1"), _ref("deadletter.v1")]}}
        },
        "examples": [{"results": [_example("corrected.v1"), _example("deadletter.v1")]}],
    }
    return out


def _rewrite(node: Any, owner: str) -> Any:
    if isinstance(node, dict):
        out = {k: _rewrite(v, owner) for k, v in node.items()}
        ref = out.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            out["$ref"] = f"#/components/schemas/{owner}.{ref.removeprefix('#/$defs/')}"
        return out
    if isinstance(node, list):
        return [_rewrite(v, owner) for v in node]
    return node


def request_body(name: str) -> dict[str, Any]:
    """`name` is "answer.v1" or "batch"."""
    component = "batch.request" if name == "batch" else name
    example = {"answers": [_example("answer.v1")]} if name == "batch" else _example(name)
    return {
        "required": True,
        "content": {"application/json": {"schema": _ref(component), "example": example}},
    }


def responses(name: str) -> dict[str, Any]:
    """The 200 response (`name`: "corrected.v1" or "batch") and every error response."""
    component = "batch.response" if name == "batch" else name
    out: dict[str, Any] = {
        "200": {"description": "OK", "content": {"application/json": {"schema": _ref(component)}}}
    }
    for status, description in _ERRORS.items():
        out[status] = {"description": description, "content": {"application/json": {"schema": _ref("error")}}}
    return out


def install_openapi(app: FastAPI) -> None:
    """Makes `app.openapi()` include the message schemas as components."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            document = get_openapi(
                title=app.title, version=app.version, summary=app.summary, routes=app.routes
            )
            document.setdefault("components", {}).setdefault("schemas", {}).update(components())
            app.openapi_schema = document
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

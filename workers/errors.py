"""woodpecker's exceptions.

    WoodpeckerError
    ├── InvalidMessage      bad input: invalid JSON or UTF-8, schema violation, over a size limit
    ├── BackendError        a backend (model, LLM endpoint, cache) failed
    │   └── BackendUnavailable   it cannot be reached now (circuit open, connection refused)
    └── ConfigError         settings that cannot work together

Each `InvalidMessage` carries a `kind` (`invalid_json`, `invalid_utf8`, `schema`, `too_large`, ...)
that becomes the dead-letter record's `kind`, so producers can count failures by cause.
"""

from __future__ import annotations

__all__ = ["BackendError", "BackendUnavailable", "ConfigError", "InvalidMessage", "WoodpeckerError"]


class WoodpeckerError(Exception):
    """Base of every error woodpecker raises on purpose."""


class InvalidMessage(WoodpeckerError):
    """An input that can never be processed; it goes to the dead-letter topic, not a retry."""

    def __init__(self, reason: str, *, kind: str = "invalid") -> None:
        super().__init__(reason)
        self.reason = reason
        self.kind = kind


class BackendError(WoodpeckerError):
    """A backend failed; the caller may retry or fall back."""


class BackendUnavailable(BackendError):
    """The backend cannot be reached right now."""


class ConfigError(WoodpeckerError):
    """Settings that cannot work."""

"""woodpecker's exceptions.

    WoodpeckerError
    ├── InvalidMessage      bad input: invalid JSON or UTF-8, schema violation, over a size limit
    ├── BackendError        a backend (model, LLM endpoint, cache) failed
    │   └── BackendUnavailable   it cannot be reached now (circuit open, connection refused)
    ├── ConfigError         settings that cannot work together
    │   ├── ConfigFileNotFound   the settings file named does not exist (also a FileNotFoundError)
    │   └── CompatError          a required faust/aiokafka workaround did not apply to the installed versions
    └── Overloaded          too much work at once: come back after `retry_after_s` (HTTP 429)

Each `InvalidMessage` carries a `kind` (`invalid_json`, `invalid_utf8`, `schema`, `too_large`, ...)
that becomes the dead-letter record's `kind`, so producers can count failures by cause.
"""

from __future__ import annotations

__all__ = [
    "BackendError",
    "BackendUnavailable",
    "CompatError",
    "ConfigError",
    "ConfigFileNotFound",
    "InvalidMessage",
    "Overloaded",
    "WoodpeckerError",
]


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


class ConfigFileNotFound(ConfigError, FileNotFoundError):
    """The settings file named by `--config` or WOODPECKER_CONFIG does not exist."""


class CompatError(ConfigError):
    """A workaround the worker cannot run without did not apply: the installed faust/aiokafka changed.

    `failed` names the workarounds, `versions` the installed packages (name -> version).
    """

    def __init__(self, reason: str, *, failed: tuple[str, ...], versions: dict[str, str]) -> None:
        super().__init__(reason)
        self.failed = failed
        self.versions = versions


class Overloaded(WoodpeckerError):
    """Every slot is busy and the queue is full; try again after `retry_after_s` seconds."""

    def __init__(self, reason: str, *, retry_after_s: int = 1) -> None:
        super().__init__(reason)
        self.retry_after_s = retry_after_s

"""API keys per tenant: stored as SHA-256 digests, compared in constant time, never logged.

Usage::

    keys = TenantKeys.from_settings(settings.server)    # {"acme": "sha256:<hex>", ...}
    tenant = keys.tenant_for("the presented key")        # "acme", or None for an unknown key
    hash_key("a new key")                                 # "sha256:<hex>", for the settings file

A presented key is hashed once and compared against every stored digest with `hmac.compare_digest`,
with no early exit, so neither the key nor which tenant it belongs to leaks through timing.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping
from dataclasses import dataclass

from workers.settings import ServerSettings

__all__ = ["TenantKeys", "hash_key"]

_PREFIX = "sha256:"


def hash_key(key: str) -> str:
    """The form an API key is stored in: `sha256:` and 64 hex digits."""
    return _PREFIX + hashlib.sha256(key.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class TenantKeys:
    """Which tenant an API key belongs to; `enabled` is False when no key is configured at all."""

    digests: tuple[tuple[str, bytes], ...] = ()

    @classmethod
    def from_settings(cls, server: ServerSettings) -> TenantKeys:
        return cls.from_mapping(server.api_keys)

    @classmethod
    def from_mapping(cls, keys: Mapping[str, str]) -> TenantKeys:
        return cls(tuple((tenant, bytes.fromhex(d.removeprefix(_PREFIX))) for tenant, d in keys.items()))

    @property
    def enabled(self) -> bool:
        return bool(self.digests)

    def tenant_for(self, key: str) -> str | None:
        """The tenant whose key this is, or None; the time taken does not depend on which matched."""
        presented = hashlib.sha256(key.encode("utf-8", "surrogatepass")).digest()
        found: str | None = None
        for tenant, digest in self.digests:
            if hmac.compare_digest(presented, digest):
                found = tenant
        return found

    def __repr__(self) -> str:  # the digests stay out of logs and tracebacks too
        return f"TenantKeys(tenants={[t for t, _ in self.digests]!r})"

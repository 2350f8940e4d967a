"""Reviewer credentials (scrypt hashes in settings), signed session cookies and CSRF tokens.

Usage::

    stored = hash_password("correct horse")                  # "scrypt$16384$8$1$<salt>$<hash>"
    check_password("correct horse", stored)                  # True
    sessions = SessionCodec(secret=b"...", ttl_s=8 * 3600)
    cookie = sessions.dump(Session.anonymous())               # signed, expiring, tamper-evident
    session = sessions.load(cookie)                           # None when forged, garbled or expired

A session is a small JSON payload (tenant, reviewer, expiry, CSRF token) with an HMAC-SHA256 signature;
the server keeps no session state, so any console replica with the same key accepts it. Every session,
signed in or not, carries its own CSRF token, which each form posts back (double submit, bound to the
signature), so even the sign-in form cannot be posted from another site.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, replace

import orjson

__all__ = ["Session", "SessionCodec", "check_password", "hash_password"]

# scrypt cost: ~50 ms per check on a laptop core; slow for guessing, fast enough for a sign-in.
_N, _R, _P = 2**14, 8, 1


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    """A storable hash of `password`: `scrypt$N$r$p$salt$hash`."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${_b64(salt)}${_b64(digest)}"


def check_password(password: str, stored: str) -> bool:
    """Whether `password` matches a hash from `hash_password` (in constant time; False for a bad hash)."""
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        # maxmem: scrypt needs 128 * n * r bytes; allow the stored cost without OpenSSL's 32 MiB default.
        got = hashlib.scrypt(
            password.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p), dklen=32,
            maxmem=256 * int(n) * int(r) + 1024 * 1024,
        )  # fmt: skip
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, _unb64(digest))


@dataclass(frozen=True)
class Session:
    """Who is signed in (nobody: `reviewer` is None), until when, and this session's CSRF token."""

    csrf: str
    expires: int
    tenant: str | None = None
    reviewer: str | None = None

    @classmethod
    def anonymous(cls, *, ttl_s: int, now: float | None = None) -> Session:
        return cls(csrf=secrets.token_urlsafe(24), expires=int((now or time.time()) + ttl_s))

    @property
    def signed_in(self) -> bool:
        return self.reviewer is not None and self.tenant is not None

    def sign_in(self, *, tenant: str, reviewer: str, ttl_s: int, now: float | None = None) -> Session:
        # A fresh CSRF token at sign-in, so a token seen before signing in is worth nothing after.
        expires = int((now or time.time()) + ttl_s)
        return replace(
            self, tenant=tenant, reviewer=reviewer, expires=expires, csrf=secrets.token_urlsafe(24)
        )

    def check_csrf(self, token: str | None) -> bool:
        return token is not None and hmac.compare_digest(token.encode(), self.csrf.encode())


class SessionCodec:
    """Turns sessions into signed cookie values and back; rejects forged, garbled and expired ones."""

    def __init__(self, *, secret: bytes, ttl_s: int) -> None:
        self._key = hashlib.sha256(b"woodpecker-review-session\x00" + secret).digest()
        self.ttl_s = ttl_s

    def _sign(self, body: bytes) -> str:
        return _b64(hmac.new(self._key, body, hashlib.sha256).digest())

    def dump(self, session: Session) -> str:
        payload = {"c": session.csrf, "x": session.expires, "t": session.tenant, "r": session.reviewer}
        body = _b64(orjson.dumps(payload))
        return f"{body}.{self._sign(body.encode())}"

    def load(self, value: str | None, *, now: float | None = None) -> Session | None:
        if not value or value.count(".") != 1:
            return None
        body, signature = value.split(".")
        if not hmac.compare_digest(signature.encode(), self._sign(body.encode()).encode()):
            return None
        try:
            data = orjson.loads(_unb64(body))
            session = Session(
                csrf=str(data["c"]), expires=int(data["x"]), tenant=data["t"], reviewer=data["r"]
            )
        except (ValueError, KeyError, TypeError, orjson.JSONDecodeError):
            return None
        return session if session.expires > (now or time.time()) else None

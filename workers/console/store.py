"""The review queue in Redis: one hash per item, per-tenant sorted sets, atomic state changes in Lua.

Usage::

    store = ReviewStore(redis_client, namespace="woodpecker:review:woodpecker.")
    await store.add(request, queued_ms=..., headers={...})          # from the review topic; idempotent
    await store.pending(tenant="acme")                              # oldest first
    claimed = await store.claim(tenant="acme", answer_id="a1", decision=...)   # one reviewer wins
    await store.finish(tenant="acme", answer_id="a1", token=claimed.token)

Keys (tenant and id percent-encoded, so no value can reach into another key):
- `{ns}item:{tenant}:{id}`: hash with `request` (review.v1 JSON), `queued_ms`, `headers`, `status`
  (pending | deciding | approved | edited | rejected), `decision` (JSON), `token`, and once a decision
  is being published, `partition` and `offset` (where on the output topic to look for it after a crash);
- `{ns}pending:{tenant}` and `{ns}decided:{tenant}`: sorted sets of ids by queue / decision time;
- `{ns}deciding`: every item whose decision is being published, scored by the end of its lease.

Nothing here has a TTL: a pending item waits as long as it takes, and a decided one stays as the
record that its answer id was already published (a replayed review record must not queue it again).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal, cast
from urllib.parse import quote, unquote

import orjson
from pydantic import Field
from redis.asyncio import Redis

from workers.errors import ConfigError
from workers.messages import ReviewRequest, _Frozen
from workers.settings import Settings

__all__ = ["DecisionKind", "Item", "PendingDecision", "ReviewStore", "Status", "open_store"]

Status = Literal["pending", "deciding", "approved", "edited", "rejected"]
DecisionKind = Literal["approved", "edited", "rejected"]

# KEYS: item, pending. ARGV: request, queued_ms, headers, id. Adds only what is not there yet.
_ADD = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'request', ARGV[1], 'queued_ms', ARGV[2], 'headers', ARGV[3], 'status', 'pending')
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[4])
return 1
"""
# KEYS: item, pending, deciding. ARGV: decision, token, lease_until_ms, id, member.
_CLAIM = """
local status = redis.call('HGET', KEYS[1], 'status')
if not status then return {'missing', ''} end
if status ~= 'pending' then return {status, redis.call('HGET', KEYS[1], 'decision') or ''} end
redis.call('HSET', KEYS[1], 'status', 'deciding', 'decision', ARGV[1], 'token', ARGV[2])
redis.call('ZREM', KEYS[2], ARGV[4])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[5])
return {'ok', ''}
"""
# KEYS: item. ARGV: token, field, value, field, value ... Writes only while the token holds.
_MARK = """
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1
"""
# KEYS: item, decided, deciding. ARGV: token, status, decided_ms, id, member.
_FINISH = """
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'status') ~= 'deciding' then return 0 end
redis.call('HSET', KEYS[1], 'status', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZREM', KEYS[3], ARGV[5])
return 1
"""
# KEYS: item, deciding. ARGV: old token, new token, lease_until_ms, member, now_ms.
_TAKE_OVER = """
if redis.call('HGET', KEYS[1], 'status') ~= 'deciding' then return 0 end
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[1] then return 0 end
local lease = redis.call('ZSCORE', KEYS[2], ARGV[4])
if lease and tonumber(lease) > tonumber(ARGV[5]) then return 0 end
redis.call('HSET', KEYS[1], 'token', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 1
"""


class PendingDecision(_Frozen):
    """What a reviewer decided, stored with the item from the moment it is claimed."""

    kind: DecisionKind
    reviewer: str = Field(min_length=1, max_length=256)
    note: str = Field("", max_length=2000)
    # The reviewer's text for an edited answer.
    text: str | None = None
    decided_ms: int = Field(ge=0)


@dataclass(frozen=True)
class Item:
    """One review item as stored."""

    request: ReviewRequest
    queued_ms: int
    status: Status
    headers: dict[str, str]
    decision: PendingDecision | None = None
    token: str | None = None
    partition: int | None = None
    offset: int | None = None

    @property
    def id(self) -> str:
        return self.request.id

    @property
    def tenant(self) -> str:
        return self.request.tenant or ""


@dataclass(frozen=True)
class Claimed:
    """The outcome of `claim`: `token` when this caller won, else the status the item already had."""

    status: str
    token: str | None = None
    decision: PendingDecision | None = None

    @property
    def won(self) -> bool:
        return self.token is not None


_Arg = bytes | str | int | float


def _enc(value: str) -> str:
    return quote(value, safe="")


class ReviewStore:
    """The queue of one deployment (`namespace`), over a redis.asyncio client (decode_responses off)."""

    def __init__(self, client: Redis, *, namespace: str) -> None:
        self.client = client
        self.ns = namespace
        self._add = client.register_script(_ADD)
        self._claim = client.register_script(_CLAIM)
        self._mark = client.register_script(_MARK)
        self._finish = client.register_script(_FINISH)
        self._take_over = client.register_script(_TAKE_OVER)

    # ---- keys --------------------------------------------------------------------------------

    def _item_key(self, tenant: str, answer_id: str) -> str:
        return f"{self.ns}item:{_enc(tenant)}:{_enc(answer_id)}"

    def _pending_key(self, tenant: str) -> str:
        return f"{self.ns}pending:{_enc(tenant)}"

    def _decided_key(self, tenant: str) -> str:
        return f"{self.ns}decided:{_enc(tenant)}"

    @property
    def _deciding_key(self) -> str:
        return f"{self.ns}deciding"

    @staticmethod
    def _member(tenant: str, answer_id: str) -> str:
        return f"{_enc(tenant)}:{_enc(answer_id)}"

    # ---- queue -------------------------------------------------------------------------------

    async def add(self, request: ReviewRequest, *, queued_ms: int, headers: dict[str, str]) -> bool:
        """Queue `request` unless its (tenant, id) is already known; returns whether it was added."""
        tenant = request.tenant or ""
        keys = [self._item_key(tenant, request.id), self._pending_key(tenant)]
        args: list[_Arg] = [request.to_json(), queued_ms, orjson.dumps(headers), request.id]
        return bool(await self._add(keys=keys, args=args))

    async def get(self, *, tenant: str, answer_id: str) -> Item | None:
        """The item of `tenant` with this id; another tenant's id is simply not found."""
        raw = cast(dict[bytes, bytes], await self.client.hgetall(self._item_key(tenant, answer_id)))
        return _item(raw) if raw else None

    async def pending(self, *, tenant: str, limit: int = 500) -> list[Item]:
        """The tenant's pending items, oldest first."""
        ids = cast(list[bytes], await self.client.zrange(self._pending_key(tenant), 0, limit - 1))
        return await self._items(tenant, ids)

    async def pending_count(self, *, tenant: str) -> int:
        return int(await self.client.zcard(self._pending_key(tenant)))

    async def decided(self, *, tenant: str, limit: int = 50) -> list[Item]:
        """The tenant's latest decisions, newest first."""
        ids = cast(list[bytes], await self.client.zrevrange(self._decided_key(tenant), 0, limit - 1))
        return await self._items(tenant, ids)

    async def _items(self, tenant: str, ids: list[bytes]) -> list[Item]:
        if not ids:
            return []
        async with self.client.pipeline(transaction=False) as pipe:
            for answer_id in ids:
                pipe.hgetall(self._item_key(tenant, answer_id.decode()))
            rows: list[dict[bytes, bytes]] = await pipe.execute()
        return [_item(row) for row in rows if row]

    # ---- deciding ----------------------------------------------------------------------------

    async def claim(
        self, *, tenant: str, answer_id: str, decision: PendingDecision, lease_until_ms: int
    ) -> Claimed:
        """Move a pending item to `deciding` with `decision`; exactly one of concurrent callers wins."""
        token = secrets.token_hex(16)
        keys = [self._item_key(tenant, answer_id), self._pending_key(tenant), self._deciding_key]
        member = self._member(tenant, answer_id)
        args: list[_Arg] = [decision.model_dump_json(), token, lease_until_ms, answer_id, member]
        status, raw = await self._claim(keys=keys, args=args)
        if status == b"ok":
            return Claimed("deciding", token=token, decision=decision)
        existing = PendingDecision.model_validate_json(raw) if raw else None
        return Claimed(status.decode(), decision=existing)

    async def mark(self, *, tenant: str, answer_id: str, token: str, **fields: int | str) -> bool:
        """Record fields on a deciding item while `token` still holds it."""
        args: list[_Arg] = [token]
        for name, value in fields.items():
            args += [name, value]
        return bool(await self._mark(keys=[self._item_key(tenant, answer_id)], args=args))

    async def finish(
        self, *, tenant: str, answer_id: str, token: str, status: DecisionKind, at_ms: int
    ) -> bool:
        keys = [self._item_key(tenant, answer_id), self._decided_key(tenant), self._deciding_key]
        args: list[_Arg] = [token, status, at_ms, answer_id, self._member(tenant, answer_id)]
        return bool(await self._finish(keys=keys, args=args))

    async def expired_leases(self, *, now_ms: int, limit: int = 100) -> list[tuple[str, str]]:
        """(tenant, id) of decisions whose publisher has been gone longer than its lease."""
        found = await self.client.zrangebyscore(self._deciding_key, "-inf", now_ms, start=0, num=limit)
        members = cast(list[bytes], found)
        out = []
        for member in members:
            tenant, answer_id = member.decode().split(":")
            out.append((unquote(tenant), unquote(answer_id)))
        return out

    async def take_over(
        self, *, tenant: str, answer_id: str, old_token: str, lease_until_ms: int, now_ms: int
    ) -> str | None:
        """A new token for a deciding item whose lease ran out (None if someone else got there first)."""
        token = secrets.token_hex(16)
        keys = [self._item_key(tenant, answer_id), self._deciding_key]
        args: list[_Arg] = [old_token, token, lease_until_ms, self._member(tenant, answer_id), now_ms]
        return token if await self._take_over(keys=keys, args=args) else None


def _item(raw: dict[bytes, bytes]) -> Item:
    text = {k.decode(): v.decode() for k, v in raw.items()}
    decision = PendingDecision.model_validate_json(text["decision"]) if text.get("decision") else None
    return Item(
        request=ReviewRequest.from_json(text["request"]),
        queued_ms=int(text["queued_ms"]),
        status=text["status"],  # type: ignore[arg-type]
        headers=orjson.loads(text.get("headers", "{}")),
        decision=decision,
        token=text.get("token"),
        partition=int(text["partition"]) if "partition" in text else None,
        offset=int(text["offset"]) if "offset" in text else None,
    )


def open_store(settings: Settings) -> ReviewStore:
    """The deployment's store: Redis at `cache.redis_url`, keys under review prefix + topic prefix."""
    url = settings.cache.redis_url
    if url is None:
        raise ConfigError("the review console needs Redis: set WOODPECKER_REDIS_URL (or cache.redis_url)")
    timeout = max(settings.cache.socket_timeout_s, 2.0)  # a reviewer waits a moment rather than fail
    client = Redis.from_url(url.get_secret_value(), socket_timeout=timeout, socket_connect_timeout=timeout)
    return ReviewStore(client, namespace=settings.review.redis_prefix + settings.kafka.topic_prefix)

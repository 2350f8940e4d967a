"""Group membership workarounds: the member id kept on ILLEGAL_GENERATION, a rejoin on an empty assignment.

Usage::

    keep_member_id_on_illegal_generation()    # once per process, before consumers start
    rejoin_on_empty_assignment()

aiokafka answers an ILLEGAL_GENERATION commit error by forgetting its member id and rejoining as a
new member; the Java client keeps the member id and only drops the generation (it resets the id for
UNKNOWN_MEMBER_ID alone). The difference matters with the embedded noida-db broker, which answers a
commit made during a rebalance with ILLEGAL_GENERATION and then keeps the forgotten member, even as the
group's leader: every rebalance after a member left or joined mid-stream hung for good (measured on
noida-db 0.2.3 with plain aiokafka consumers as well as faust). Rejoining under the same id, as the Java
client does, lets the rebalance finish; a broker that really no longer knows the id answers the JoinGroup
with UNKNOWN_MEMBER_ID, and aiokafka then resets the id as before.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

__all__ = ["keep_member_id_on_illegal_generation", "rejoin_on_empty_assignment"]

log = logging.getLogger(__name__)

_FLAG = "_woodpecker_in_commit"


def keep_member_id_on_illegal_generation() -> bool:
    """Install once (idempotent); False when aiokafka lacks the methods this relies on."""
    from aiokafka.consumer.group_coordinator import GroupCoordinator

    commit: Any = getattr(GroupCoordinator, "_do_commit_offsets", None)
    reset: Any = getattr(GroupCoordinator, "reset_generation", None)
    if commit is None or reset is None:
        log.warning("aiokafka GroupCoordinator changed; member ids are reset on ILLEGAL_GENERATION")
        return False
    if getattr(reset, "__woodpecker__", False):
        return True
    GroupCoordinator._do_commit_offsets = _flagged(commit)
    GroupCoordinator.reset_generation = _keeping_member_id(reset)
    return True


def _flagged(commit: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(commit)
    async def do_commit_offsets(self: Any, *args: Any, **kwargs: Any) -> Any:
        setattr(self, _FLAG, True)
        try:
            return await commit(self, *args, **kwargs)
        finally:
            setattr(self, _FLAG, False)

    do_commit_offsets.__woodpecker__ = True  # type: ignore[attr-defined]
    return do_commit_offsets


def _keeping_member_id(reset: Callable[[Any], None]) -> Callable[[Any], None]:
    @functools.wraps(reset)
    def reset_generation(self: Any) -> None:
        if not getattr(self, _FLAG, False):
            reset(self)
            return
        member_id = self.member_id
        reset(self)
        self.member_id = member_id

    reset_generation.__woodpecker__ = True  # type: ignore[attr-defined]
    return reset_generation


def rejoin_on_empty_assignment() -> bool:
    """A SyncGroup answer with no assignment bytes at all means "join again", not a crash.

    A leader that gives a member nothing still sends it a valid, empty assignment; no bytes at all come
    only to a member the leader did not know of when it assigned. The embedded noida-db broker sends
    that to the second of two members joining at once, and aiokafka, failing to decode it, stopped the
    consumer for good: a verification worker that never got partitions (measured: 2 of 12 cluster
    starts on busy cores). Here that join is treated as a failed one, which aiokafka retries after its
    backoff; the new JoinGroup makes the leader assign again, this member included.
    Install once (idempotent); False when aiokafka lacks the method this relies on.
    """
    from aiokafka.consumer.group_coordinator import CoordinatorGroupRebalance

    join: Any = getattr(CoordinatorGroupRebalance, "perform_group_join", None)
    if join is None:
        log.warning("aiokafka CoordinatorGroupRebalance changed; an empty assignment stops the consumer")
        return False
    if getattr(join, "__woodpecker__", False):
        return True
    CoordinatorGroupRebalance.perform_group_join = _retrying_empty(join)
    return True


def _retrying_empty(join: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(join)
    async def perform_group_join(self: Any) -> Any:
        result = await join(self)
        if result is not None and not result[1]:
            log.info("group %s sent no assignment; joining again", getattr(self, "group_id", "?"))
            return None  # aiokafka: the join failed, back off and retry
        return result

    perform_group_join.__woodpecker__ = True  # type: ignore[attr-defined]
    return perform_group_join

"""Keeps the consumer's member id when an offset commit fails with ILLEGAL_GENERATION.

Usage::

    keep_member_id_on_illegal_generation()    # once per process, before consumers start

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

__all__ = ["keep_member_id_on_illegal_generation"]

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

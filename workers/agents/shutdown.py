"""A bounded worker shutdown that still leaves the consumer group.

Usage::

    watchdog = ShutdownWatchdog([app], kafka=settings.kafka, bootstrap=bootstrap, grace_s=15.0)
    watchdog.arm()        # on SIGTERM: if the process is still alive after grace_s, leave and exit

A SIGTERM that lands while the group rebalances can deadlock faust's stop: the consumer thread waits
for an assignment callback on the event loop that is itself stopping. Past the grace period the worker
exits anyway, but first sends the LeaveGroup request faust never got to, from a fresh client; otherwise
the group waits for this member's session to time out (and the embedded noida-db broker, which never
expires members, would stall the group for good). Offsets not yet committed are read again by the next
owner, which at-least-once delivery and the idempotent agents allow for.

A process killed outright (SIGKILL, OOM) never leaves. A real broker drops such a member once its
session times out; noida-db 0.2.3 never does, so its partitions stay orphaned and every later rebalance
waits for it. `evict_members` sends the LeaveGroup on the dead process's behalf, found by the client
id each worker's consumers carry (`client_id`); `LocalCluster.restart` does this for a killed worker.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable
from typing import Any

from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.client import AIOKafkaClient, CoordinationType
from aiokafka.protocol.group import LeaveGroupRequest

from workers.agents.topics import client_options
from workers.settings import KafkaSettings

__all__ = [
    "ShutdownWatchdog",
    "client_id",
    "evict_members",
    "group_member",
    "leave_group",
    "shutdown_hooks_present",
]

log = logging.getLogger(__name__)


def client_id(group: str, *, worker: str) -> str:
    """The Kafka client id of one process's consumer in `group`: names the process in group descriptions.

    `worker` is `host:pid` (context.worker_name); kept to characters every broker and tool accepts.
    """
    safe = "".join(c if c.isalnum() or c in "._-" else "-" for c in worker)
    return f"{group}.{safe}"


async def evict_members(kafka: KafkaSettings, *, bootstrap: str, groups: list[str], client: str) -> list[str]:
    """Remove every member of `groups` whose client id is `client` (a process known to be dead).

    Returns the member ids it removed. Only for members that cannot leave by themselves: evicting a
    live one makes it rejoin, a needless rebalance.
    """
    admin = AIOKafkaAdminClient(**client_options(kafka, bootstrap=bootstrap), request_timeout_ms=5000)
    await admin.start()
    try:
        described = await admin.describe_consumer_groups(groups)
    finally:
        await admin.close()
    evicted: list[str] = []
    for response in described:
        for group in response.to_object()["groups"]:
            name = group["group"]
            for member in (m["member_id"] for m in group["members"] if m["client_id"] == client):
                if await leave_group(kafka, bootstrap=bootstrap, group=name, member=member):
                    evicted.append(member)
    return evicted


def shutdown_hooks_present() -> bool:
    """Whether faust still has what the bounded shutdown hooks into; False (with a warning) when not.

    Usage::

        assert shutdown_hooks_present()    # the worker's _schedule_shutdown override is called on SIGTERM

    Nothing is patched: the worker subclasses faust's Worker (mode's `_schedule_shutdown`, which the
    signal handlers call) and `group_member` reads the consumer's coordinator through faust's consumer
    thread (`Consumer._thread`, `AIOKafkaConsumerThread._consumer`).
    """
    from faust.transport.consumer import ThreadDelegateConsumer
    from faust.transport.drivers.aiokafka import AIOKafkaConsumerThread
    from mode import Worker

    hooks = (
        callable(getattr(Worker, "_schedule_shutdown", None)),
        "_thread" in getattr(ThreadDelegateConsumer, "__annotations__", {}),
        hasattr(AIOKafkaConsumerThread, "_consumer"),
    )
    if not all(hooks):
        log.warning("faust's Worker or consumer thread changed; a stuck stop is not bounded")
    return all(hooks)


def group_member(app: Any) -> tuple[str, str] | None:
    """(group id, member id) of the app's consumer, or None when it is not in a group (yet)."""
    try:
        coordinator = app.consumer._thread._consumer._coordinator
    except AttributeError:
        return None
    member = getattr(coordinator, "member_id", "")
    return (str(coordinator.group_id), str(member)) if member else None


async def leave_group(kafka: KafkaSettings, *, bootstrap: str, group: str, member: str) -> bool:
    """Best effort: tell the group coordinator that `member` is gone. True when the broker answered."""
    client = AIOKafkaClient(**client_options(kafka, bootstrap=bootstrap), request_timeout_ms=3000)
    try:
        await client.bootstrap()
        node = await client.coordinator_lookup(CoordinationType.GROUP, group)
        await client.send(node, LeaveGroupRequest(group, member))
    except Exception as exc:
        log.warning("could not leave group %s: %s: %s", group, type(exc).__name__, exc)
        return False
    finally:
        await client.close()
    return True


class ShutdownWatchdog:
    def __init__(
        self,
        apps: list[Any],
        *,
        kafka: KafkaSettings,
        bootstrap: str,
        grace_s: float,
        cleanup: Callable[[], None] | None = None,
    ) -> None:
        self._apps, self._kafka, self._bootstrap, self.grace_s = apps, kafka, bootstrap, grace_s
        self._cleanup = cleanup
        self._timer: threading.Timer | None = None

    def arm(self) -> None:
        if self._timer is None:
            self._timer = threading.Timer(self.grace_s, self.fire)
            self._timer.daemon = True
            self._timer.start()

    def fire(self) -> None:
        log.warning("shutdown took over %.0f s; leaving the groups and exiting", self.grace_s)
        members = [m for m in (group_member(app) for app in self._apps) if m is not None]
        if members:
            asyncio.run(asyncio.wait_for(self._leave_all(members), timeout=5.0))
        if self._cleanup is not None:
            self._cleanup()  # os._exit skips every finally block
        logging.shutdown()
        os._exit(0)

    async def _leave_all(self, members: list[tuple[str, str]]) -> None:
        for group, member_id in members:
            await leave_group(self._kafka, bootstrap=self._bootstrap, group=group, member=member_id)

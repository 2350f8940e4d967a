"""ILLEGAL_GENERATION on a commit keeps the member id (as the Java client does); elsewhere it is reset."""

from __future__ import annotations

from typing import Any

from aiokafka.consumer.group_coordinator import GroupCoordinator

from workers.agents.membership import _flagged, _keeping_member_id, keep_member_id_on_illegal_generation


class FakeCoordinator:
    def __init__(self) -> None:
        self.member_id, self.generation, self.rejoins = "member-1", 7, 0

    def reset(self) -> None:
        self.member_id, self.generation = "", -1
        self.rejoins += 1


def _patched() -> type[Any]:
    class Patched(FakeCoordinator):
        reset_generation = _keeping_member_id(FakeCoordinator.reset)

        async def failing_commit(self) -> None:
            self.reset_generation()

        commit = _flagged(failing_commit)

    return Patched


async def test_a_commit_error_drops_the_generation_but_keeps_the_member_id() -> None:
    coordinator = _patched()()
    await coordinator.commit()
    assert (coordinator.member_id, coordinator.generation, coordinator.rejoins) == ("member-1", -1, 1)


def test_other_resets_still_forget_the_member_id() -> None:
    coordinator = _patched()()
    coordinator.reset_generation()
    assert (coordinator.member_id, coordinator.generation) == ("", -1)


def test_installing_is_idempotent() -> None:
    commit, reset = GroupCoordinator._do_commit_offsets, GroupCoordinator.reset_generation
    try:
        assert keep_member_id_on_illegal_generation()
        patched = GroupCoordinator.reset_generation
        assert keep_member_id_on_illegal_generation()
        assert GroupCoordinator.reset_generation is patched
        assert patched.__woodpecker__ is True
    finally:
        GroupCoordinator._do_commit_offsets, GroupCoordinator.reset_generation = commit, reset


async def test_an_empty_assignment_is_a_failed_join_to_retry_and_anything_else_passes() -> None:
    from workers.agents.membership import _retrying_empty

    class Rebalance:
        group_id = "g"

        def __init__(self, result: Any) -> None:
            self.result = result

        async def join(self) -> Any:
            return self.result

        perform = _retrying_empty(join)

    assert await Rebalance(("roundrobin", b"")).perform() is None
    assigned = ("roundrobin", b"\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00")
    assert await Rebalance(assigned).perform() == assigned
    assert await Rebalance(None).perform() is None


def test_installing_the_rejoin_is_idempotent() -> None:
    from aiokafka.consumer.group_coordinator import CoordinatorGroupRebalance

    from workers.agents.membership import rejoin_on_empty_assignment

    original = CoordinatorGroupRebalance.perform_group_join
    try:
        assert rejoin_on_empty_assignment()
        patched = CoordinatorGroupRebalance.perform_group_join
        assert rejoin_on_empty_assignment()
        assert CoordinatorGroupRebalance.perform_group_join is patched
    finally:
        CoordinatorGroupRebalance.perform_group_join = original  # type: ignore[method-assign]

"""The shutdown watchdog finds each app's group membership, and leaving fails soft without a broker."""

from __future__ import annotations

from types import SimpleNamespace

from lab.broker import free_port
from workers.agents.shutdown import group_member, leave_group
from workers.settings import KafkaSettings


def _app(member_id: str) -> SimpleNamespace:
    coordinator = SimpleNamespace(group_id="woodpecker-verification", member_id=member_id)
    return SimpleNamespace(
        consumer=SimpleNamespace(_thread=SimpleNamespace(_consumer=SimpleNamespace(_coordinator=coordinator)))
    )


def test_group_member_of_a_joined_app() -> None:
    assert group_member(_app("m-1")) == ("woodpecker-verification", "m-1")


def test_no_member_before_joining_or_without_a_consumer() -> None:
    assert group_member(_app("")) is None
    assert group_member(SimpleNamespace()) is None


async def test_leaving_without_a_broker_reports_failure_instead_of_raising() -> None:
    bootstrap = f"127.0.0.1:{free_port()}"
    assert await leave_group(KafkaSettings(), bootstrap=bootstrap, group="g", member="m") is False


def test_client_id_names_the_group_and_the_process_in_safe_characters() -> None:
    from workers.agents.shutdown import client_id

    assert client_id("wp-verification", worker="vm:5862") == "wp-verification.vm-5862"
    assert client_id("g", worker="host name/x:1") == "g.host-name-x-1"

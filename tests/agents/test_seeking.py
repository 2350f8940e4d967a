"""faust's read offsets, patched (workers/agents/seeking.py): a write by the fetch loop whose read came
before a seek of that partition is ignored, so the seek's offset stands and nothing is dropped as read.

`_loop_step` below stands in for one step of faust's fetch loop: through the accessors it binds (as
`Consumer._drain_messages` does at its start) it reads a partition's offset, waits while the record is
delivered, then writes the record's offset. Seeks use the mapping's plain methods. faust's real loop is
driven in tests/agents/test_compat.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from faust.transport import consumer

from workers.agents.seeking import ReadOffsets, keep_read_offsets_after_seek

TP = ("woodpecker.verdicts", 2)


async def _loop_step(offsets: ReadOffsets, offset: int, delivered: asyncio.Event) -> bool:
    """One step of the fetch loop: compare, deliver (waiting), then record the offset as read."""
    get_read_offset, set_read_offset = offsets.__getitem__, offsets.__setitem__
    read = get_read_offset(TP)
    fresh = read is None or offset >= read
    await delivered.wait()
    set_read_offset(TP, offset)
    return fresh


async def test_a_read_offset_written_after_a_seek_from_before_it_is_ignored() -> None:
    offsets = ReadOffsets()
    offsets.update({TP: 100})
    delivered = asyncio.Event()
    step = asyncio.ensure_future(_loop_step(offsets, 198, delivered))
    await asyncio.sleep(0)  # the loop has read 100 and waits on a full buffer
    offsets.update({TP: 139})  # perform_seek: back to the committed offset
    delivered.set()
    assert await step
    assert offsets[TP] == 139 and offsets.stale_writes == 1
    # The records from 139 on are fetched again and pass the loop's check instead of being dropped.
    delivered.clear()
    again = asyncio.ensure_future(_loop_step(offsets, 139, delivered))
    delivered.set()
    assert await again
    assert offsets[TP] == 139


async def test_loop_writes_without_a_seek_in_between_pass_as_before() -> None:
    offsets = ReadOffsets()
    delivered = asyncio.Event()
    delivered.set()
    for offset in (5, 6, 7):
        assert await _loop_step(offsets, offset, delivered)
    assert offsets[TP] == 7 and offsets.stale_writes == 0
    assert not await _loop_step(offsets, 3, delivered)  # an old record is still dropped as read


async def test_revocations_and_other_writes_count_as_seeks() -> None:
    seeks: list[Callable[[ReadOffsets], object]] = [
        lambda o: o.pop(TP, None),
        lambda o: o.__delitem__(TP),
        lambda o: o.__setitem__(TP, 50),  # Consumer.seek writes from outside the loop
    ]
    for seek in seeks:
        offsets = ReadOffsets([(TP, 10)])
        delivered = asyncio.Event()
        step = asyncio.ensure_future(_loop_step(offsets, 60, delivered))
        await asyncio.sleep(0)
        seek(offsets)
        delivered.set()
        await step
        assert offsets.stale_writes == 1 and offsets.get(TP) in (None, 50)


async def test_only_the_bound_accessors_are_the_fetch_loop_plain_writes_are_seeks() -> None:
    offsets = ReadOffsets([(TP, 100)])
    offsets[TP] = 198  # Consumer.seek's plain write: a seek, never checked
    assert offsets[TP] == 198 and offsets.stale_writes == 0
    late = asyncio.Event()
    loop = asyncio.ensure_future(_loop_step(offsets, 199, late))
    await asyncio.sleep(0)  # the loop read 198 and waits on delivery
    offsets[TP] = 150
    late.set()
    await loop
    assert offsets[TP] == 150 and offsets.stale_writes == 1


def test_a_missing_partition_reads_as_none_without_being_inserted() -> None:
    offsets = ReadOffsets()
    assert offsets[TP] is None
    assert TP not in offsets


def test_installing_is_idempotent_and_wraps_the_consumer() -> None:
    assert keep_read_offsets_after_seek()
    patched = consumer.Consumer.__init__
    assert keep_read_offsets_after_seek()
    assert consumer.Consumer.__init__ is patched and getattr(patched, "__woodpecker__", False)

"""The LLM latency benchmark runs both designs in one go and writes its result."""

from __future__ import annotations

from pathlib import Path

import orjson

from lab.llm_bench import run


def test_batched_design_needs_two_round_trips_where_naive_needs_one_plus_two_per_claim(
    tmp_path: Path,
) -> None:
    result = run(tmp_path, delay_s=0.03, sizes=(1, 5))
    rows = {r["claims"]: r for r in result["rows"]}
    for n in (1, 5):
        assert rows[n]["woodpecker"]["round_trips"] == 2
        assert rows[n]["naive"]["round_trips"] == rows[n]["naive"]["requests"] == 1 + 2 * n
        assert rows[n]["woodpecker"]["claims"] == rows[n]["naive"]["claims"] == n
    assert rows[5]["woodpecker"]["ms"] < rows[5]["naive"]["ms"]
    assert result["delay_ms"] == 30 and "added_ms_5" in result
    assert orjson.loads((tmp_path / "llm_latency.json").read_bytes()) == result

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

from workers.batch import BatchCounts, correct_lines
from workers.messages import Answer, Corrected, DeadLetter, Route
from workers.settings import Settings


class UpperPipeline:
    """Stands in for the pipeline: upper-cases the answer, fails on demand."""

    def process(self, answer: Answer) -> Corrected:
        if answer.answer == "boom":
            raise RuntimeError("model exploded")
        return Corrected(
            id=answer.id, original=answer.answer, corrected=answer.answer.upper(), route=Route.FULL
        )


def _line(i: int, text: str = "hello") -> bytes:
    return orjson.dumps({"id": f"a{i}", "query": "q", "answer": text}) + b"\n"


def test_one_output_per_valid_line_in_order() -> None:
    lines = [_line(1), b"{bad json\n", b"\n", _line(2), b'{"id": "x\xff"}\n', _line(3, "boom"), _line(4)]
    counts = BatchCounts()
    results = list(correct_lines(lines, pipeline=UpperPipeline(), settings=Settings.load(), counts=counts))
    ok = [r for r in results if isinstance(r, Corrected)]
    bad = [r for r in results if isinstance(r, DeadLetter)]
    assert [r.id for r in ok] == ["a1", "a2", "a4"]
    assert [(r.line, r.kind) for r in bad] == [
        (2, "invalid_json"),
        (5, "invalid_utf8"),
        (6, "processing_error"),
    ]
    assert bad[2].id == "a3"
    assert "model exploded" in bad[2].reason
    assert (counts.read, counts.corrected, counts.rejected) == (6, 3, 3)


class SlowFirstPipeline(UpperPipeline):
    """Answers out of order: the earlier the line, the longer it takes."""

    def process(self, answer: Answer) -> Corrected:
        import time

        time.sleep(0.02 / int(answer.id[1:]))
        return super().process(answer)


def test_a_pool_gives_the_same_results_in_input_order() -> None:
    lines = [_line(1), b"{bad json\n", _line(2), _line(3, "boom"), *(_line(i) for i in range(4, 12))]
    settings = Settings.load()
    one = list(correct_lines(lines, pipeline=SlowFirstPipeline(), settings=settings))
    counts = BatchCounts()
    many = list(
        correct_lines(lines, pipeline=SlowFirstPipeline(), settings=settings, counts=counts, workers=4)
    )
    assert [r.to_json() for r in many] == [r.to_json() for r in one]
    assert (counts.read, counts.corrected, counts.rejected) == (12, 10, 2)


def test_cli_help_lists_commands() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "workers.cli", "correct", "--help"], capture_output=True, text=True, check=True
    )
    assert "--rejects" in out.stdout
    assert "--workers" in out.stdout


def test_cli_correct_rejects_without_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import workers.pipeline
    from workers import cli

    monkeypatch.setattr(workers.pipeline, "build_pipeline", lambda settings: UpperPipeline())
    src = tmp_path / "in.jsonl"
    src.write_bytes(_line(1) + b"nope\n" + _line(2))
    out, rejects = tmp_path / "out.jsonl", tmp_path / "rejects.jsonl"
    code = cli.main(["correct", "--in", str(src), "--out", str(out), "--rejects", str(rejects)])
    assert code == 0
    assert [orjson.loads(x)["corrected"] for x in out.read_bytes().splitlines()] == ["HELLO", "HELLO"]
    dead = [orjson.loads(x) for x in rejects.read_bytes().splitlines()]
    assert dead[0]["line"] == 2
    assert dead[0]["kind"] == "invalid_json"
    assert "corrected 2, rejected 1 of 3 lines" in capsys.readouterr().err


def test_cli_stdin_stdout(monkeypatch: pytest.MonkeyPatch) -> None:
    import workers.pipeline
    from workers import cli

    monkeypatch.setattr(workers.pipeline, "build_pipeline", lambda settings: UpperPipeline())
    stdin, stdout = io.BytesIO(_line(1)), io.BytesIO()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(stdin))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(stdout))
    assert cli.main(["correct", "--in", "-", "--out", "-"]) == 0
    sys.stdout.flush()
    assert orjson.loads(stdout.getvalue())["corrected"] == "HELLO"

"""`woodpecker`'s shared exit codes: one clear line on stderr, never a traceback, the same per failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from workers.cli import build_parser, main, package_version
from workers.exits import EXIT_CODES_HELP, ExitCode


def _one_line(err: str) -> str:
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1, err
    assert "Traceback" not in err
    return lines[0]


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0
    assert capsys.readouterr().out.strip() == f"woodpecker {package_version()}"


def test_help_lists_the_exit_codes() -> None:
    text = build_parser().format_help()
    assert EXIT_CODES_HELP.splitlines()[0] in text
    for code in ExitCode:
        assert f"\n  {int(code)} " in text


@pytest.mark.parametrize(
    "argv",
    [
        ["correct", "--in", "-", "--out", "-"],
        ["tail", "--bootstrap", "127.0.0.1:1"],
        ["publish", "x.jsonl", "--bootstrap", "127.0.0.1:1"],
        ["review", "list", "--tenant", "acme", "--bootstrap", "127.0.0.1:1"],
        ["serve"],
    ],
)
def test_a_missing_config_file_is_one_line_and_code_2(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.toml"
    assert main([*argv, "--config", str(missing)]) == ExitCode.CONFIG
    line = _one_line(capsys.readouterr().err)
    assert line.startswith("woodpecker") and "settings file not found" in line and str(missing) in line


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("[sampler\nrate = 1", "not valid TOML"),
        ("[sampler]\nrate = 7.5\n", "sampler.rate"),
        ("[nonsense]\nx = 1\n", "nonsense"),
    ],
)
def test_an_invalid_config_file_is_one_line_and_code_2(
    content: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(content)
    assert main(["correct", "--in", "-", "--out", "-", "--config", str(path)]) == ExitCode.CONFIG
    assert says in _one_line(capsys.readouterr().err)


@pytest.mark.parametrize(
    ("name", "value"),
    [("WOODPECKER_SAMPLER__RATE", "lots"), ("WOODPECKER_THRESHOLDS__BY_DOMAIN", "{not json")],
)
def test_a_bad_environment_value_is_one_line_and_code_2(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(name, value)
    assert main(["correct", "--in", "-", "--out", "-"]) == ExitCode.CONFIG
    line = _one_line(capsys.readouterr().err)
    assert "invalid settings" in line


def test_a_hashed_key_that_is_not_hashed_is_a_config_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WOODPECKER_SERVER__API_KEYS", '{"acme": "plain-text-key"}')
    assert main(["serve"]) == ExitCode.CONFIG
    line = _one_line(capsys.readouterr().err)
    assert "sha256" in line and "plain-text-key" not in line


@pytest.mark.parametrize(
    "argv",
    [
        ["publish", "-", "--bootstrap", "127.0.0.1:1"],
        ["tail", "--bootstrap", "127.0.0.1:1"],
        ["review", "list", "--tenant", "acme", "--bootstrap", "127.0.0.1:1", "--timeout", "1"],
    ],
)
def test_an_unreachable_broker_is_one_line_and_code_3(
    argv: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WOODPECKER_KAFKA__CONNECT_TIMEOUT_S", "0.5")
    assert main(argv) == ExitCode.UNAVAILABLE
    line = _one_line(capsys.readouterr().err)
    assert "KafkaConnectionError" in line


def test_an_unreadable_input_file_is_code_4(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "answers.jsonl"
    assert main(["correct", "--in", str(missing), "--out", "-"]) == ExitCode.NO_INPUT
    assert str(missing) in _one_line(capsys.readouterr().err)


def test_serve_hash_key(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("secret-key\n"))
    assert main(["serve", "--hash-key"]) == 0
    out = capsys.readouterr().out.strip()
    assert out.startswith("sha256:") and len(out) == 71

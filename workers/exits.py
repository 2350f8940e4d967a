"""Exit codes shared by every `woodpecker` command, and the one line of stderr that goes with each.

Usage::

    try:
        return run(args)
    except Exception as exc:
        code, line = explain(exc)
        print(line, file=sys.stderr)        # one line, never a traceback
        return code

The codes (also listed by `woodpecker --help`):

    0    done
    1    done, but some items failed (refused records, a review decision refused, fewer than --limit)
    2    usage or configuration: bad arguments, a missing or invalid settings file, a bad
         WOODPECKER_* value, no broker named
    3    a service could not be reached: the Kafka broker, Redis, an LLM endpoint
    4    an input file could not be read
    70   internal error (a bug: WOODPECKER_DEBUG=1 prints the traceback)
    130  interrupted (Ctrl-C)
"""

from __future__ import annotations

import tomllib
from enum import IntEnum

from pydantic import ValidationError
from pydantic_settings import SettingsError

from workers.errors import BackendError, ConfigError
from workers.redact import redact

__all__ = ["EXIT_CODES_HELP", "ExitCode", "explain"]


class ExitCode(IntEnum):
    OK = 0
    PARTIAL = 1
    CONFIG = 2
    UNAVAILABLE = 3
    NO_INPUT = 4
    INTERNAL = 70
    INTERRUPTED = 130


EXIT_CODES_HELP = """exit codes (the same for every command):
  0    done
  1    done, but some items failed (refused records, a review decision refused, fewer than --limit)
  2    usage or configuration: bad arguments, a missing or invalid settings file, a bad WOODPECKER_*
       value, no broker named
  3    a service could not be reached: the Kafka broker, Redis, an LLM endpoint
  4    an input file could not be read
  70   internal error (WOODPECKER_DEBUG=1 prints the traceback)
  130  interrupted"""


def explain(exc: BaseException, *, prog: str = "woodpecker") -> tuple[ExitCode, str]:
    """The exit code for `exc` and one line (secrets redacted) that says what went wrong."""
    code, text = _classify(exc)
    line = " ".join(f"{prog}: {text}".split())  # one line, whatever the message held
    return code, redact(line)


def _classify(exc: BaseException) -> tuple[ExitCode, str]:
    if isinstance(exc, KeyboardInterrupt):
        return ExitCode.INTERRUPTED, "interrupted"
    if isinstance(exc, ConfigError):
        return ExitCode.CONFIG, str(exc)
    if isinstance(exc, ValidationError) and exc.title == "Settings":
        return ExitCode.CONFIG, f"invalid settings: {_first(exc)}"
    if isinstance(exc, SettingsError | tomllib.TOMLDecodeError):
        return ExitCode.CONFIG, f"invalid settings: {exc}"
    if _unreachable(exc):
        return ExitCode.UNAVAILABLE, f"cannot reach a service: {type(exc).__name__}: {exc}"
    if isinstance(exc, FileNotFoundError | IsADirectoryError | PermissionError):
        return ExitCode.NO_INPUT, f"cannot read {exc.filename or 'the input'}: {exc.strerror or exc}"
    return ExitCode.INTERNAL, f"internal error: {type(exc).__name__}: {exc} (WOODPECKER_DEBUG=1 shows where)"


def _first(exc: ValidationError) -> str:
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "<root>"
    value = first.get("input")
    shown = f" (got {value!r})" if isinstance(value, str | int | float) and len(repr(value)) < 80 else ""
    return f"{where}: {first['msg']}{shown}"


def _unreachable(exc: BaseException) -> bool:
    if isinstance(exc, BackendError | ConnectionError | TimeoutError):
        return True
    try:
        from aiokafka.errors import KafkaError
    except ImportError:  # pragma: no cover - aiokafka is a dependency
        return False
    return isinstance(exc, KafkaError)  # the broker refused, timed out or failed

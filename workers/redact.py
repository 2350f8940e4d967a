"""Keeps secrets out of logs and error output: every log record and uncaught traceback is redacted.

Usage::

    install_redaction(settings)                 # once at start; `setup_telemetry` does it
    log.error("cannot reach %s", redis_url)     # -> "cannot reach redis://:***@cache:6379/0"
    reason = redact(f"{exc}")                   # for text that leaves the process another way

The secrets are every `SecretStr` in the settings (Kafka SASL password, the Redis URL's password) and
the values of the API-key variables the model settings name. Independently of those, the password part
of any `scheme://user:password@host` URL is masked. A handler that reads `record.exc_info` itself (not
the formatted text) can still see the raw exception: redact there too.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Any
from urllib.parse import unquote, urlsplit

from pydantic import BaseModel, SecretStr

from workers.settings import Settings, StageModel

__all__ = ["MASK", "Redactor", "install_redaction", "redact", "secrets_of", "uninstall_redaction"]

MASK = "***"
_URL_PASSWORD = re.compile(r"(?P<head>[A-Za-z][A-Za-z0-9+.-]*://[^:@/\s]*):[^@/\s]+@")
_DEFAULT_KEY_ENVS = ("OPENAI_API_KEY",)


@dataclass(frozen=True)
class Redactor:
    """Replaces known secret values, longest first, then any URL password, with `***`."""

    secrets: tuple[str, ...] = ()

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return _URL_PASSWORD.sub(rf"\g<head>:{MASK}@", text)


def secrets_of(settings: Settings, *, environ: Mapping[str, str]) -> tuple[str, ...]:
    """The secret strings the settings hold or point to, longest first."""
    values = set(_secret_fields(settings))
    # A URL secret (the Redis URL) is worth its host in a log line: only its password is masked.
    found = {v for v in values if "://" not in v} | set(_url_passwords(values))
    found.update(v for name in _key_envs(settings) if (v := environ.get(name, "").strip()))
    return tuple(sorted((s for s in found if s), key=len, reverse=True))


def _secret_fields(value: Any) -> Iterator[str]:
    if isinstance(value, SecretStr):
        yield value.get_secret_value()
    elif isinstance(value, BaseModel):
        for name in type(value).model_fields:
            yield from _secret_fields(getattr(value, name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from _secret_fields(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _secret_fields(item)


def _url_passwords(values: set[str]) -> Iterator[str]:
    for value in values:
        try:
            password = urlsplit(value).password if "://" in value else None
        except ValueError:
            continue
        if password:
            yield password
            yield unquote(password)


def _key_envs(settings: Settings) -> set[str]:
    models = settings.models
    stages = [getattr(models, name) for name in type(models).model_fields]
    return {s.api_key_env for s in stages if isinstance(s, StageModel)} | set(_DEFAULT_KEY_ENVS)


# ---- process-wide installation -----------------------------------------------------------------


@dataclass(frozen=True)
class _Installed:
    redactor: Redactor
    factory: Callable[..., logging.LogRecord]
    excepthook: Callable[[type[BaseException], BaseException, TracebackType | None], Any]
    threading_hook: Callable[[threading.ExceptHookArgs], Any]


_STATE: _Installed | None = None
_LOCK = threading.Lock()


def install_redaction(settings: Settings, *, environ: Mapping[str, str] | None = None) -> Redactor:
    """Redact every log record and uncaught exception from now on; a second call updates the secrets."""
    global _STATE
    redactor = Redactor(secrets_of(settings, environ=os.environ if environ is None else environ))
    with _LOCK:
        if _STATE is not None:
            _STATE = replace(_STATE, redactor=redactor)
            return redactor
        _STATE = _Installed(redactor, logging.getLogRecordFactory(), sys.excepthook, threading.excepthook)
        logging.setLogRecordFactory(_redacting_factory)
        sys.excepthook = _redacting_excepthook
        threading.excepthook = _redacting_threading_hook
    return redactor


def uninstall_redaction() -> None:
    """Put back the record factory and hooks found at installation (tests)."""
    global _STATE
    with _LOCK:
        if _STATE is None:
            return
        logging.setLogRecordFactory(_STATE.factory)
        sys.excepthook = _STATE.excepthook
        threading.excepthook = _STATE.threading_hook
        _STATE = None


def redact(text: str) -> str:
    """`text` with the installed secrets (or, before installation, URL passwords) masked."""
    return (_STATE.redactor if _STATE is not None else Redactor()).redact(text)


def _redacting_factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
    state = _STATE
    base = state.factory if state is not None else logging.LogRecord
    record = base(*args, **kwargs)
    if state is not None:
        _redact_record(record, state.redactor)
    return record


def _redact_record(record: logging.LogRecord, redactor: Redactor) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: logging reports it when the record is emitted
        return
    record.msg, record.args = redactor.redact(message), ()
    if record.exc_info and record.exc_info[1] is not None:
        record.exc_text = redactor.redact("".join(traceback.format_exception(*record.exc_info)).rstrip("\n"))
    if record.stack_info:
        record.stack_info = redactor.redact(record.stack_info)


def _redacting_excepthook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
    sys.stderr.write(redact("".join(traceback.format_exception(kind, value, tb))))


def _redacting_threading_hook(args: threading.ExceptHookArgs) -> None:
    if args.exc_type is SystemExit:
        return
    name = args.thread.name if args.thread is not None else "?"
    text = "".join(traceback.format_exception(args.exc_type, args.exc_value, args.exc_traceback))
    sys.stderr.write(redact(f"Exception in thread {name}:\n{text}"))

"""Secrets from the settings never reach log lines, logged tracebacks or uncaught-error output."""

from __future__ import annotations

import io
import logging
import sys
import threading
from collections.abc import Iterator

import pytest

from workers.decisions import JsonFormatter
from workers.redact import MASK, Redactor, install_redaction, redact, secrets_of, uninstall_redaction
from workers.settings import Settings

KAFKA_PASSWORD = "kafka-s3cret-pw"
REDIS_PASSWORD = "r3dis/pa ss"  # percent-encoded in the URL, decoded in some client errors
REDIS_URL = "rediss://default:r3dis%2Fpa%20ss@cache.internal:6380/0"
API_KEY = "sk-test-0123456789abcdef"


@pytest.fixture
def secret_settings() -> Settings:
    return Settings.load(
        kafka={"security_protocol": "SASL_SSL", "sasl_username": "svc", "sasl_password": KAFKA_PASSWORD},
        cache={"redis_url": REDIS_URL},
        models={"verification": {"backend": "openai", "api_key_env": "VERIFIER_KEY"}},
    )


@pytest.fixture
def installed(secret_settings: Settings) -> Iterator[Redactor]:
    redactor = install_redaction(secret_settings, environ={"VERIFIER_KEY": API_KEY, "OPENAI_API_KEY": ""})
    yield redactor
    uninstall_redaction()


@pytest.fixture
def log_stream() -> Iterator[io.StringIO]:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    logger = logging.getLogger("woodpecker.test.redact")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    yield stream
    logger.removeHandler(handler)


def _assert_clean(text: str) -> None:
    for secret in (KAFKA_PASSWORD, REDIS_PASSWORD, "r3dis%2Fpa%20ss", API_KEY):
        assert secret not in text


def test_the_secrets_are_found_in_the_settings_and_environment(secret_settings: Settings) -> None:
    found = secrets_of(secret_settings, environ={"VERIFIER_KEY": API_KEY, "OPENAI_API_KEY": " "})
    assert {KAFKA_PASSWORD, REDIS_PASSWORD, "r3dis%2Fpa%20ss", API_KEY} <= set(found)
    assert "" not in found and " " not in found
    assert REDIS_URL not in found  # only its password: the host stays readable in log lines


def test_log_messages_and_arguments_are_redacted(installed: Redactor, log_stream: io.StringIO) -> None:
    log = logging.getLogger("woodpecker.test.redact")
    log.error("cannot reach %s", REDIS_URL)
    log.warning("sasl login failed for svc with %r", KAFKA_PASSWORD)
    log.info(f"calling the LLM with key {API_KEY}")
    log.debug("redis said: invalid password %s", REDIS_PASSWORD)
    text = log_stream.getvalue()
    _assert_clean(text)
    assert "rediss://default:***@cache.internal:6380/0" in text
    assert text.count(MASK) >= 4


def test_logged_exceptions_are_redacted(installed: Redactor, log_stream: io.StringIO) -> None:
    log = logging.getLogger("woodpecker.test.redact")
    try:
        raise ConnectionError(f"Error connecting to {REDIS_URL}: AUTH {REDIS_PASSWORD} rejected")
    except ConnectionError:
        log.exception("cache unavailable")
    text = log_stream.getvalue()
    assert "ConnectionError" in text and "Traceback" in text
    _assert_clean(text)


def test_the_json_formatter_redacts_structured_fields(installed: Redactor) -> None:
    record = logging.LogRecord("woodpecker.decisions", logging.INFO, __file__, 1, "event", None, None)
    record.woodpecker_fields = {"note": f"kafka pw {KAFKA_PASSWORD}"}
    line = JsonFormatter().format(record)
    assert KAFKA_PASSWORD not in line and MASK in line


def _fail_with_key() -> None:
    raise ValueError(f"401 from the LLM endpoint for key {API_KEY}")


def test_uncaught_errors_are_redacted(installed: Redactor, capsys: pytest.CaptureFixture[str]) -> None:
    error = RuntimeError(f"sasl password {KAFKA_PASSWORD} refused by broker")
    sys.excepthook(RuntimeError, error, None)
    thread = threading.Thread(target=_fail_with_key, name="worker-1")
    thread.start()
    thread.join()
    err = capsys.readouterr().err
    assert "RuntimeError" in err and "ValueError" in err and "worker-1" in err
    _assert_clean(err)


def test_url_passwords_are_masked_even_when_not_configured() -> None:
    assert redact("connect amqp://guest:guest@mq:5672/ failed") == "connect amqp://guest:***@mq:5672/ failed"
    assert redact("no secret in http://host:8080/path") == "no secret in http://host:8080/path"


def test_uninstall_puts_the_original_factory_back(secret_settings: Settings) -> None:
    before = logging.getLogRecordFactory()
    install_redaction(secret_settings, environ={})
    assert logging.getLogRecordFactory() is not before
    uninstall_redaction()
    assert logging.getLogRecordFactory() is before
    assert redact(KAFKA_PASSWORD) == KAFKA_PASSWORD  # nothing configured any more

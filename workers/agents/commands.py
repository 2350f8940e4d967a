"""`woodpecker worker`, `woodpecker publish` and `woodpecker tail`: the stream from a terminal.

Usage::

    KAFKA_BOOTSTRAP=127.0.0.1:9092 woodpecker worker --agents extraction,verification
    woodpecker publish examples/answers.jsonl
    woodpecker tail --from-beginning --limit 8            # one readable diff block per answer
    woodpecker tail --topic deadletter --json --timeout 5 # machine output: one JSON record per line

All three talk to the broker named by KAFKA_BOOTSTRAP (or --bootstrap). Topic names come from the
settings (`WOODPECKER_KAFKA__TOPIC_PREFIX`, `WOODPECKER_KAFKA__TOPICS__*`).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, cast

import orjson

from workers.agents.client import Record, publish_lines, tail_records
from workers.agents.context import StreamPipeline
from workers.agents.topics import ROLES, Topics, ensure_topics, require_bootstrap
from workers.errors import ConfigError, InvalidMessage
from workers.exits import ExitCode
from workers.messages import DeadLetter, read_output
from workers.settings import Settings

__all__ = ["load_factory", "register"]

DEFAULT_FACTORY = "workers.pipeline:build_pipeline"


def register(sub: Any) -> None:
    _worker_parser(sub)
    _publish_parser(sub)
    _tail_parser(sub)


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bootstrap", help="Kafka brokers host:port[,...] (default: KAFKA_BOOTSTRAP)")
    parser.add_argument(
        "--config", help="a settings TOML file (default: WOODPECKER_CONFIG or built-in defaults)"
    )


def _worker_parser(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "worker", help="run stream agents: extraction, verification, correction", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "--agents", default="", help="comma-separated subset of extraction,verification,correction"
    )
    parser.add_argument("--app-id", help="consumer group / faust app id (default: settings kafka.app_id)")
    parser.add_argument(
        "--web-port", type=int, help="serve faust's web views on 127.0.0.1:PORT (default: off)"
    )
    parser.add_argument(
        "--status-file", type=Path, help="rewrite this JSON file every second with assignment and counts"
    )
    parser.add_argument("--loglevel", default="warning", choices=["debug", "info", "warning", "error"])
    parser.add_argument(
        "--pipeline-factory", default=DEFAULT_FACTORY, help="module:function(settings) -> pipeline"
    )
    _common(parser)
    parser.set_defaults(func=run_worker_command)


def _publish_parser(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "publish", help="publish a JSONL file of answer.v1 records to the answers topic", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument(
        "file", help="JSONL file, or - for stdin; each line is sent as is (the stream validates)"
    )
    parser.add_argument("--topic", default="answers", choices=ROLES, help="topic role (default: answers)")
    _common(parser)
    parser.set_defaults(func=run_publish_command)


def _tail_parser(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "tail", help="show corrected answers as they arrive, as readable diffs", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    parser.add_argument("--topic", default="corrected", choices=ROLES, help="topic role (default: corrected)")
    parser.add_argument(
        "--from-beginning", action="store_true", help="start at the oldest record, not the newest"
    )
    parser.add_argument("--limit", type=int, help="stop after this many distinct answer ids")
    parser.add_argument("--timeout", type=float, help="stop after this many seconds without a new record")
    parser.add_argument("--json", action="store_true", help="print each record's JSON on one line")
    parser.add_argument("--all", action="store_true", help="also show repeated ids (at-least-once replays)")
    _common(parser)
    parser.set_defaults(func=run_tail_command)


def load_factory(spec: str) -> Callable[[Settings], StreamPipeline]:
    module_name, _, attr = spec.partition(":")
    if not module_name or not attr:
        raise ConfigError(f"--pipeline-factory wants module:function, got {spec!r}")
    return cast(Callable[[Settings], StreamPipeline], getattr(importlib.import_module(module_name), attr))


def run_worker_command(args: argparse.Namespace) -> int:
    # faust sets up logging itself, at --loglevel.
    from workers.agents.app import parse_agents
    from workers.agents.worker import run_worker

    with _config_errors() as failed:
        settings = Settings.load(config_file=args.config)
        bootstrap = require_bootstrap(settings.kafka, args.bootstrap)
        return run_worker(
            settings, agents=parse_agents(args.agents), bootstrap=bootstrap,
            pipeline_factory=load_factory(args.pipeline_factory), app_id=args.app_id, web_port=args.web_port,
            status_file=args.status_file, loglevel=args.loglevel,
        )  # fmt: skip
    return failed.code


def run_publish_command(args: argparse.Namespace) -> int:
    with _config_errors() as failed:
        settings = Settings.load(config_file=args.config)
        bootstrap = require_bootstrap(settings.kafka, args.bootstrap)
        topic = Topics.from_settings(settings.kafka).by_role(args.topic)
        with _input(args.file) as lines:
            result = asyncio.run(_publish(settings, bootstrap=bootstrap, topic=topic, lines=lines))
        for refusal in result.refused:
            print(f"refused {refusal}", file=sys.stderr)
        summary = {"published": result.sent, "refused": len(result.refused), "topic": topic}
        print(orjson.dumps(summary).decode(), flush=True)
        return 0 if not result.refused else 1
    return failed.code


async def _publish(settings: Settings, *, bootstrap: str, topic: str, lines: IO[bytes]) -> Any:
    # Creating the topics first: publishing before any worker started must not auto-create them.
    await ensure_topics(settings.kafka, bootstrap=bootstrap)
    return await publish_lines(settings.kafka, bootstrap=bootstrap, topic=topic, lines=lines)


def run_tail_command(args: argparse.Namespace) -> int:
    with _config_errors() as failed:
        settings = Settings.load(config_file=args.config)
        bootstrap = require_bootstrap(settings.kafka, args.bootstrap)
        topic = Topics.from_settings(settings.kafka).by_role(args.topic)
        shown = asyncio.run(_tail(settings, args, bootstrap=bootstrap, topic=topic))
        print(f"{shown} record(s) from {topic}", file=sys.stderr)
        return 0 if args.limit is None or shown >= args.limit else 1
    return failed.code


async def _tail(settings: Settings, args: argparse.Namespace, *, bootstrap: str, topic: str) -> int:
    await ensure_topics(settings.kafka, bootstrap=bootstrap)
    shown = 0
    color = sys.stdout.isatty()
    records = tail_records(
        settings.kafka, bootstrap=bootstrap, topic=topic, from_beginning=args.from_beginning,
        limit=args.limit, idle_timeout_s=args.timeout, distinct=not args.all,
    )  # fmt: skip
    async with contextlib.aclosing(records):
        async for record in records:
            text = record.value.decode("utf-8", "replace") if args.json else describe(record, color=color)
            print(text, flush=True)
            shown += 1
    return shown


def describe(record: Record, *, color: bool = False) -> str:
    """One readable block per record: a diff for corrected answers, the cause for dead letters."""
    from workers.render import render

    schema = record.headers.get("woodpecker-schema", b"").decode()
    try:
        if schema.startswith("deadletter") or b'"schema_version":"deadletter' in record.value[:64]:
            dead = DeadLetter.from_json(record.value)
            return f"DEAD LETTER {dead.id or '<no id>'} at {dead.stage} ({dead.kind}): {dead.reason}\n"
        corrected = read_output(record.value)
    except InvalidMessage:
        return record.value.decode("utf-8", "replace")
    latency = record.latency_ms
    tail = f"  ({latency / 1000:.2f} s end to end)" if latency is not None else ""
    return render(corrected, color=color) + tail + "\n"


class _Failure:
    code = 0


@contextlib.contextmanager
def _config_errors() -> Iterator[_Failure]:
    failure = _Failure()
    try:
        yield failure
    except ConfigError as exc:
        print(f"woodpecker: {exc}", file=sys.stderr)
        failure.code = ExitCode.CONFIG


@contextlib.contextmanager
def _input(path: str) -> Iterator[IO[bytes]]:
    if path == "-":
        yield sys.stdin.buffer
        return
    with open(path, "rb") as handle:
        yield handle

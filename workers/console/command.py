"""`woodpecker review serve` and `woodpecker review hash-password`.

Usage::

    woodpecker review hash-password                      # asks for a password, prints its scrypt hash
    echo -n secret | woodpecker review hash-password     # reads it from stdin when not a terminal
    WOODPECKER_REVIEW__REVIEWERS='{"acme": {"rita": "scrypt$..."}}' \\
    WOODPECKER_REDIS_URL=redis://127.0.0.1:6379/0 KAFKA_BOOTSTRAP=127.0.0.1:9092 \\
        woodpecker review serve --port 8790              # http://127.0.0.1:8790/

`serve` runs the console (Starlette under uvicorn): the page, the consumer that copies the review topic
into Redis (`--no-consume` leaves that to another console), and the recovery of interrupted decisions.
"""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

__all__ = ["add_parsers"]


def add_parsers(actions: Any) -> None:
    serve: argparse.ArgumentParser = actions.add_parser(
        "serve", help="the review console: a web page for the queue", description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )  # fmt: skip
    serve.add_argument("--host", help="address to listen on (default: review.host, 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port to listen on (default: review.port, 8790)")
    serve.add_argument("--bootstrap", help="Kafka brokers host:port[,...] (default: KAFKA_BOOTSTRAP)")
    serve.add_argument(
        "--config", help="a settings TOML file (default: WOODPECKER_CONFIG or built-in defaults)"
    )
    serve.add_argument("--no-consume", action="store_true", help="do not consume the review topic here")
    serve.set_defaults(func=_serve)
    hashing: argparse.ArgumentParser = actions.add_parser(
        "hash-password", help="print the hash of a reviewer password, for review.reviewers",
        description="Print the scrypt hash of a password (asked, or read from stdin) for review.reviewers.",
    )  # fmt: skip
    hashing.set_defaults(func=_hash_password)


def _hash_password(args: argparse.Namespace) -> int:
    from workers.console.auth import hash_password

    if sys.stdin.isatty():
        password = getpass.getpass("password: ")
        if getpass.getpass("again: ") != password:
            print("woodpecker review: the passwords differ", file=sys.stderr)
            return 1
    else:
        password = sys.stdin.read().rstrip("\r\n")
    if not password:
        print("woodpecker review: empty password", file=sys.stderr)
        return 1
    print(hash_password(password))
    return 0


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from workers.agents.topics import require_bootstrap
    from workers.console.app import ReviewConsole
    from workers.errors import ConfigError
    from workers.redact import redact
    from workers.settings import Settings
    from workers.telemetry import setup_telemetry

    settings = Settings.load(config_file=args.config)
    setup_telemetry(settings, service_name="woodpecker-review-console")
    try:
        bootstrap = require_bootstrap(settings.kafka, args.bootstrap)
        console = ReviewConsole(settings, bootstrap=bootstrap, consume=not args.no_consume)
    except ConfigError as exc:
        print(redact(f"woodpecker review: {exc}"), file=sys.stderr)
        return 1
    host = args.host or settings.review.host
    port = args.port if args.port is not None else settings.review.port
    if not settings.review.reviewers:
        print(
            "woodpecker review: no reviewers configured (review.reviewers): nobody can sign in",
            file=sys.stderr,
        )
    print(f"review console on http://{host}:{port}/", file=sys.stderr, flush=True)
    uvicorn.run(console.app, host=host, port=port, log_level="warning", access_log=False)
    return 0

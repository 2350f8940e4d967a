"""`woodpecker serve`: the HTTP API on uvicorn, with a graceful shutdown.

Usage::

    woodpecker serve --port 8080                        # settings from WOODPECKER_* / --config
    echo -n "$KEY" | woodpecker serve --hash-key        # the form to put in [server.api_keys]

On SIGTERM (or Ctrl-C) the service drains: /readyz turns 503, new requests get 503 with
`Connection: close`, requests in flight finish (up to `server.shutdown_grace_s`), then the pipeline
is closed and the process exits 0. A second signal stops at once.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from typing import Any

from workers.settings import Settings

__all__ = ["register", "run"]

log = logging.getLogger(__name__)


def register(sub: Any) -> None:
    parser: argparse.ArgumentParser = sub.add_parser(
        "serve",
        help="serve the HTTP API (POST /v1/correct)",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", help="address to listen on (default: server.host, 127.0.0.1)")
    parser.add_argument("--port", type=int, help="port to listen on (default: server.port, 8080)")
    parser.add_argument(
        "--config", help="a settings TOML file (default: WOODPECKER_CONFIG or built-in defaults)"
    )
    parser.add_argument(
        "--pipeline-factory",
        default="workers.pipeline:build_pipeline",
        help="module:function building the pipeline from the settings (default: the production one)",
    )
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    parser.add_argument(
        "--hash-key", action="store_true", help="read an API key on stdin, print its stored form, and exit"
    )
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.hash_key:
        from workers.server.tenants import hash_key

        key = sys.stdin.readline().strip()
        if not key:
            print("woodpecker: --hash-key reads the key on stdin; it was empty", file=sys.stderr)
            return 2
        print(hash_key(key))
        return 0
    settings = Settings.load(config_file=args.config)
    logging.basicConfig(
        level=args.log_level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from workers.agents.commands import load_factory
    from workers.telemetry import setup_telemetry

    setup_telemetry(settings, service_name="woodpecker-serve")
    factory: Callable[[Settings], Any] = load_factory(args.pipeline_factory)
    pipeline = factory(settings)
    host = args.host or settings.server.host
    port = settings.server.port if args.port is None else args.port
    from workers.server.running import serve

    serve(pipeline, settings=settings, host=host, port=port, log_level=args.log_level)
    return 0

"""`woodpecker worker | publish | tail`: parsing, errors without a broker, and the readable output."""

from __future__ import annotations

import argparse

import pytest

from tests.agents.helpers import answer
from workers.agents.app import AGENTS, parse_agents
from workers.agents.client import Record, peek_id
from workers.agents.commands import describe, load_factory, run_publish_command, run_tail_command
from workers.agents.topics import ROLES, Topics, require_bootstrap
from workers.cli import build_parser
from workers.errors import ConfigError
from workers.messages import Corrected, DeadLetter, Route
from workers.pipeline import passthrough
from workers.settings import KafkaSettings, Settings


def test_the_three_subcommands_are_registered() -> None:
    parser = build_parser()
    worker = parser.parse_args(["worker", "--agents", "extraction,verification", "--web-port", "6066"])
    assert (worker.command, worker.agents, worker.web_port) == ("worker", "extraction,verification", 6066)
    publish = parser.parse_args(["publish", "examples/answers.jsonl"])
    assert (publish.file, publish.topic) == ("examples/answers.jsonl", "answers")
    tail = parser.parse_args(["tail", "--from-beginning", "--limit", "8"])
    assert (tail.from_beginning, tail.limit, tail.topic) == (True, 8, "corrected")
    assert all(callable(a.func) for a in (worker, publish, tail))


def test_agents_default_to_all_and_reject_unknown_names() -> None:
    assert parse_agents(None) == parse_agents("") == set(AGENTS)
    assert parse_agents(" verification , correction") == {"verification", "correction"}
    with pytest.raises(ConfigError, match="unknown agent"):
        parse_agents("extraction,summarise")


def test_topics_are_prefixed_and_looked_up_by_role() -> None:
    topics = Topics.from_settings(KafkaSettings(topic_prefix="t.", topics={"claims": "work"}))
    assert topics.answers == "t.answers" and topics.by_role("claims") == "t.work"
    assert len(set(topics.all())) == len(ROLES) == 7
    with pytest.raises(ConfigError):
        topics.by_role("nope")


def test_without_a_broker_the_commands_say_how_to_name_one(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("KAFKA_BOOTSTRAP", raising=False)
    monkeypatch.delenv("WOODPECKER_KAFKA__BOOTSTRAP", raising=False)
    args = argparse.Namespace(file="x.jsonl", topic="answers", bootstrap=None, config=None)
    assert run_publish_command(args) == 2
    assert "KAFKA_BOOTSTRAP" in capsys.readouterr().err
    with pytest.raises(ConfigError):
        require_bootstrap(Settings().kafka)
    tail = build_parser().parse_args(["tail"])
    assert run_tail_command(tail) == 2


def test_describe_shows_a_diff_block_with_latency() -> None:
    corrected = Corrected(
        id="a1", original="It rose 5%.", corrected="It rose 4%.", route=Route.FULL, needs_review=False
    )
    record = Record("a1", corrected.to_json(), {"woodpecker-ingest-ms": b"1000"}, 3500, 0, 0)
    text = describe(record)
    assert "a1" in text and "route=full" in text
    assert "[-5%.-]" in text and "{+4%.+}" in text
    assert "2.50 s end to end" in text


def test_describe_names_the_cause_of_a_dead_letter() -> None:
    dead = DeadLetter(id="b2", reason="invalid JSON: x", kind="invalid_json", stage="parse", original="{")
    record = Record("b2", dead.to_json(), {"woodpecker-schema": b"deadletter.v1"}, 0, 0, 0)
    assert describe(record).startswith("DEAD LETTER b2 at parse (invalid_json): invalid JSON: x")
    sampled = passthrough(answer("c3"), Route.SAMPLED_OUT).to_json()
    assert "route=sampled_out" in describe(Record("c3", sampled, {}, 0, 0, 0))


def test_record_ids_and_factories() -> None:
    assert peek_id(b'{"id": "x1", "answer": "a"}') == "x1"
    assert peek_id(b"{broken") is None and peek_id(b'{"id": 3}') is None and peek_id(b"[1]") is None
    assert load_factory("workers.pipeline:build_pipeline").__name__ == "build_pipeline"
    with pytest.raises(ConfigError):
        load_factory("no-colon")

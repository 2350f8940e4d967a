"""The faust / aiokafka workarounds: one registry, one entry point, installed per broker.

Usage::

    report = install(broker="embedded")     # at a worker's start, once; "kafka" for a real cluster
    log.info("%s", report.summary())        # what applied, what was skipped and why, the versions
    install_for(settings.kafka, bootstrap=bootstrap)    # the same, broker and pause from the settings
    install_for(kafka, bootstrap=bootstrap, faust=False)  # plain aiokafka clients only (tail, console)

Each `Workaround` names the upstream bug or broker quirk it works around, the private internals it
replaces (`targets`) or relies on (`relies_on`), its `scope` ("always", or "embedded": a quirk of the
noida-db broker, never installed against a real Kafka) and whether the worker can run without it
(`required`). A required workaround that did not apply raises `CompatError` naming the installed and
the tested versions, so a worker on an untested faust or aiokafka stops at start instead of losing
records later; an optional one is logged and reported. pyproject.toml pins the tested versions
(`TESTED`), and tests/agents/test_compat.py proves each workaround applies to them. The patch bodies
stay in their modules (pacing, membership, flushing, seeking, recovering, committing, shutdown);
this module decides and reports.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import metadata
from typing import Literal

from workers.agents.committing import commit_below_records_in_flight
from workers.agents.flushing import flush_producer_buffer_fully
from workers.agents.membership import keep_member_id_on_illegal_generation, rejoin_on_empty_assignment
from workers.agents.pacing import pace_empty_fetches
from workers.agents.recovering import stop_flow_before_stream_seek
from workers.agents.seeking import keep_read_offsets_after_seek
from workers.agents.shutdown import shutdown_hooks_present
from workers.errors import CompatError
from workers.settings import KafkaSettings

__all__ = [
    "TESTED",
    "WORKAROUNDS",
    "Broker",
    "CompatReport",
    "Workaround",
    "install",
    "install_for",
    "installed_versions",
]

log = logging.getLogger(__name__)

Broker = Literal["kafka", "embedded"]
Scope = Literal["always", "embedded"]
Package = Literal["faust-streaming", "aiokafka", "mode-streaming"]

# The versions the workarounds were written and tested against; pyproject.toml pins the same.
TESTED: Mapping[str, str] = {"faust-streaming": "0.15.3", "aiokafka": "0.14.0", "mode-streaming": "0.7.1"}

DEFAULT_PAUSE_S = 0.05  # KafkaSettings.empty_fetch_pause_s


@dataclass(frozen=True)
class Options:
    """What a workaround may need from the settings."""

    empty_fetch_pause_s: float = DEFAULT_PAUSE_S


@dataclass(frozen=True)
class Workaround:
    """One workaround: what it fixes upstream, where it reaches in, when it is needed.

    Usage::

        embedded_only = [w.name for w in WORKAROUNDS if w.scope == "embedded"]
    """

    name: str
    upstream: str  # the upstream bug or broker quirk, with its reference
    package: Package  # whose private internals it reaches into
    targets: tuple[str, ...]  # "module:Class.attribute" it replaces (the wrapper has __woodpecker__)
    scope: Scope
    required: bool
    apply: Callable[[Options], bool]  # idempotent; False when the targets changed shape
    off: Callable[[Options], bool] = lambda options: False  # a setting turned it off: skipped
    relies_on: tuple[str, ...] = ()  # private internals it uses without replacing them


WORKAROUNDS: tuple[Workaround, ...] = (
    Workaround(
        name="pace_empty_fetches",
        upstream=(
            "noida-db 0.2.3 answers a Fetch that finds no records at once instead of holding it for "
            "max_wait_ms, so aiokafka's fetcher asks again at once: an idle consumer spun a core "
            "(~1,400 fetches/s). Broker quirk, no upstream issue; the same bug in another broker: "
            "https://github.com/redpanda-data/redpanda/issues/1115"
        ),
        package="aiokafka",
        targets=("aiokafka.consumer.fetcher:Fetcher._proc_fetch_request",),
        scope="embedded",
        required=False,  # without it an idle worker burns CPU; nothing is lost
        apply=lambda options: pace_empty_fetches(options.empty_fetch_pause_s),
        off=lambda options: options.empty_fetch_pause_s <= 0,
    ),
    Workaround(
        name="keep_member_id_on_illegal_generation",
        upstream=(
            "aiokafka forgets its member id on an ILLEGAL_GENERATION commit error; the Java client keeps "
            "it (KAFKA-13419, https://github.com/apache/kafka/pull/11451; kafka-python, which aiokafka's "
            "coordinator derives from, since https://github.com/dpkp/kafka-python/pull/3017). noida-db "
            "0.2.3 answers a commit during a rebalance with ILLEGAL_GENERATION and keeps the forgotten "
            "member, even as leader: every later rebalance hung"
        ),
        package="aiokafka",
        targets=(
            "aiokafka.consumer.group_coordinator:GroupCoordinator._do_commit_offsets",
            "aiokafka.consumer.group_coordinator:GroupCoordinator.reset_generation",
        ),
        scope="embedded",
        required=True,
        apply=lambda options: keep_member_id_on_illegal_generation(),
    ),
    Workaround(
        name="rejoin_on_empty_assignment",
        upstream=(
            "noida-db 0.2.3 sends no assignment bytes at all to the second of two members joining at "
            "once; aiokafka fails to decode them and stops the consumer for good (2 of 12 cluster "
            "starts). Broker quirk, no upstream issue; the same bug in another broker: "
            "https://github.com/nisshi-io/nisshi/issues/679"
        ),
        package="aiokafka",
        targets=("aiokafka.consumer.group_coordinator:CoordinatorGroupRebalance.perform_group_join",),
        scope="embedded",
        required=True,
        apply=lambda options: rejoin_on_empty_assignment(),
    ),
    Workaround(
        name="flush_producer_buffer_fully",
        upstream=(
            "faust-streaming: ProducerBuffer.flush (flush_atmost(None)) returns once no message went out "
            "for 0.1 s however many are queued, and raises 'Cannot flush: Producer not Running' at stop, "
            "dropping them; so offsets are committed before the table changelog writes went out. The "
            "flush before commit it should make effective: https://github.com/faust-streaming/faust/pull/273"
        ),
        package="faust-streaming",
        targets=("faust.transport.producer:ProducerBuffer.flush",),
        scope="always",
        required=True,
        apply=lambda options: flush_producer_buffer_fully(),
    ),
    Workaround(
        name="keep_read_offsets_after_seek",
        upstream=(
            "faust-streaming: Consumer._drain_messages writes a record's read offset after its delivery "
            "returns, over the offset a seek set meanwhile (table recovery, rebalance), and then drops the "
            "re-fetched records as already read: answers lost after a restart. No upstream issue; "
            "related: https://github.com/faust-streaming/faust/issues/216"
        ),
        package="faust-streaming",
        targets=("faust.transport.consumer:Consumer.__init__",),
        scope="always",
        required=True,
        apply=lambda options: keep_read_offsets_after_seek(),
    ),
    Workaround(
        name="stop_flow_before_stream_seek",
        upstream=(
            "faust-streaming: Recovery.on_recovery_completed resumes and seeks the source partitions with "
            "the fetch flow on, so a batch fetched before the seek goes on after it; its next record opens "
            "a false gap from the committed offset (Consumer._add_gap), the re-fetched records are dropped "
            "as already read and committed unhandled: answers lost after a restart. No upstream issue "
            "found; the same loss the read-offset workaround above narrows"
        ),
        package="faust-streaming",
        targets=("faust.tables.recovery:Recovery.on_recovery_completed",),
        scope="always",
        required=True,
        apply=lambda options: stop_flow_before_stream_seek(),
        relies_on=("faust.transport.consumer:Consumer.getmany",),
    ),
    Workaround(
        name="commit_below_records_in_flight",
        upstream=(
            "faust-streaming: Consumer._new_offset lets the first acked offset be one past the committed "
            "one (and checks nothing while that is 0 or unknown), so with record C in flight and C+1 "
            "acked first (agent concurrency above 1) it commits C+2: a crash then loses C. "
            "https://github.com/faust-streaming/faust/issues/606; the same cap, still open upstream: "
            "https://github.com/faust-streaming/faust/pull/707"
        ),
        package="faust-streaming",
        targets=("faust.transport.consumer:Consumer._new_offset",),
        scope="always",
        required=True,
        apply=lambda options: commit_below_records_in_flight(),
        relies_on=(
            "faust.transport.consumer:Consumer._unacked_messages",
            "faust.transport.consumer:Consumer._acked_index",
            "faust.transport.consumer:Consumer._committed_offset",
            "faust.transport.consumer:Consumer._acked",
        ),
    ),
    Workaround(
        name="bounded_shutdown",
        upstream=(
            "faust-streaming: a SIGTERM during a rebalance can deadlock the stop (the consumer thread "
            "waits on the stopping event loop); the worker's _schedule_shutdown override arms a watchdog "
            "that leaves the group and exits. Related: https://github.com/robinhood/faust/issues/484"
        ),
        package="mode-streaming",
        targets=(),  # nothing replaced: worker.py subclasses faust's Worker
        scope="always",
        required=False,  # without it a stuck stop waits for the orchestrator's SIGKILL
        apply=lambda options: shutdown_hooks_present(),
        relies_on=(
            "mode.worker:Worker._schedule_shutdown",
            "faust.transport.consumer:ThreadDelegateConsumer._thread",
            "faust.transport.drivers.aiokafka:AIOKafkaConsumerThread._consumer",
        ),
    ),
)


@dataclass(frozen=True)
class CompatReport:
    """What `install` did: names applied, skipped (with why) and failed (optional ones only)."""

    broker: Broker
    applied: tuple[str, ...]
    skipped: tuple[tuple[str, str], ...]
    failed: tuple[str, ...]
    versions: tuple[tuple[str, str], ...]

    def summary(self) -> str:
        """One log line, e.g. "compat (embedded broker; aiokafka 0.14.0, ...): applied a, b; ..."."""
        parts = [f"applied {', '.join(self.applied) or 'none'}"]
        if self.skipped:
            parts.append("skipped " + ", ".join(f"{name} ({why})" for name, why in self.skipped))
        if self.failed:
            parts.append(f"FAILED {', '.join(self.failed)}")
        return f"compat ({self.broker} broker; {_versions(dict(self.versions))}): {'; '.join(parts)}"


def install(
    *, broker: Broker, empty_fetch_pause_s: float = DEFAULT_PAUSE_S, faust: bool = True
) -> CompatReport:
    """Install the workarounds `broker` needs (idempotent); raise CompatError if a required one failed.

    `faust=False` leaves out faust's and mode's (a process with plain aiokafka clients only). A
    workaround already installed stays installed: one process talks to one broker.

        report = install(broker="kafka")    # report.skipped: the embedded-broker quirks
    """
    options = Options(empty_fetch_pause_s=empty_fetch_pause_s)
    reasons = {w.name: _skip_reason(w, broker=broker, options=options, faust=faust) for w in WORKAROUNDS}
    tried = [w for w in WORKAROUNDS if reasons[w.name] is None]
    failed = [w for w in tried if not w.apply(options)]
    versions = installed_versions()
    _raise_if_required(failed, versions=versions)
    _warn_if_untested(versions)
    return CompatReport(
        broker=broker,
        applied=tuple(w.name for w in tried if w not in failed),
        skipped=tuple((name, why) for name, why in reasons.items() if why is not None),
        failed=tuple(w.name for w in failed),
        versions=tuple(versions.items()),
    )


# Bootstraps of the embedded brokers this process started and has not stopped yet.
_EMBEDDED: set[str] = set()


def broker_kind(kafka: KafkaSettings, *, bootstrap: str) -> Literal["kafka", "embedded"]:
    """`kafka.broker` when set, else "embedded" for a noida-db broker this process runs, else "kafka".

    Usage::

        install(broker=broker_kind(settings.kafka, bootstrap=bootstrap))
    """
    if kafka.broker is not None:
        return kafka.broker
    return "embedded" if bootstrap in _EMBEDDED else "kafka"


def mark_embedded(bootstrap: str) -> None:
    """Called by the embedded-broker harness for a broker this process started."""
    _EMBEDDED.add(bootstrap)


def unmark_embedded(bootstrap: str) -> None:
    _EMBEDDED.discard(bootstrap)


def install_for(kafka: KafkaSettings, *, bootstrap: str, faust: bool = True) -> CompatReport:
    """`install` for the broker `kafka` and `bootstrap` name (`broker_kind`), with its fetch pause."""
    broker = broker_kind(kafka, bootstrap=bootstrap)
    return install(broker=broker, empty_fetch_pause_s=kafka.empty_fetch_pause_s, faust=faust)


def installed_versions() -> dict[str, str]:
    """The installed version of each package whose internals are patched ("not installed" if absent)."""
    versions: dict[str, str] = {}
    for name in TESTED:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = "not installed"
    return versions


def _skip_reason(workaround: Workaround, *, broker: Broker, options: Options, faust: bool) -> str | None:
    if workaround.scope == "embedded" and broker != "embedded":
        return "embedded broker only"
    if not faust and workaround.package != "aiokafka":
        return "no faust in this process"
    if workaround.off(options):
        return "off by setting"
    return None


def _raise_if_required(failed: list[Workaround], *, versions: dict[str, str]) -> None:
    required = tuple(w.name for w in failed if w.required)
    if not required:
        return
    raise CompatError(
        f"required faust/aiokafka workarounds did not apply: {', '.join(required)}; installed "
        f"{_versions(versions)}, tested {_versions(dict(TESTED))}. Install the tested versions "
        "(pyproject.toml pins them) or port the workarounds (workers/agents/compat.py)",
        failed=required,
        versions=versions,
    )


def _warn_if_untested(versions: dict[str, str]) -> None:
    if versions != dict(TESTED):
        log.warning("faust/aiokafka not the tested versions: %s (tested %s)", _versions(versions),
                    _versions(dict(TESTED)))  # fmt: skip


def _versions(versions: Mapping[str, str]) -> str:
    return ", ".join(f"{name} {version}" for name, version in versions.items())

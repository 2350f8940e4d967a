"""The trained verifier as the offline verdict component, with the rule checks beside it.

Each claim is read against its best evidence windows by the cross-encoder (`crossenc`); the window
with the highest calibrated support probability is the one a SUPPORT rests on. The rule checks
(`checker.OfflineChecker`) still run: a contradiction they find between concrete values (a figure, a
date, a name) wins, because it comes with the supported value that correction puts in its place.
Without weights (or with `offline = "rules"`) the rule checks alone decide.

Usage::

    checker = load_offline_verifier(settings.models.offline_verifier, rules=OfflineChecker())
    results = checker.judge_many([(claim, windows)])
"""

from __future__ import annotations

import functools
import itertools
import logging
import os
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
import torch

from workers.backends.cpu import effective_runtime
from workers.backends.crossenc import CrossEncoder, Meta, encode, for_runtime, load_shipped
from workers.backends.embedder import configure_threads
from workers.backends.microbatch import MicroBatcher, length_buckets
from workers.backends.restate import restated_all
from workers.backends.shipped import read_decision, verifier_dir, verifier_tag
from workers.errors import BackendError
from workers.messages import Claim, Evidence, Judgement
from workers.protocols import CheckResult, VerdictComponent
from workers.settings import VerifierSettings
from workers.stages.decide import Decision

__all__ = [
    "TrainedChecker",
    "load_decision",
    "load_offline_verifier",
    "load_trained",
    "read_pairs",
    "signals",
]

log = logging.getLogger(__name__)
_S, _C, _N = 0, 1, 2  # the order of `Meta.labels`
_SHARED_PAIRS = 256  # at most this many pairs from several callers' calls in one shared pass
# Characters of claim and window per batch (its size times its longest pair). Budgets of 600 to 2,000
# all ran at ~101 pairs/s against 77 for fixed batches of 32 (one thread, one call per answer, the
# speed bench's 40 answers; docs/SPEED.md): what counts is not padding short pairs to a long one.
_PAIR_BUDGET = 1500


class TrainedChecker:
    """SUPPORT / CONTRADICT / NEUTRAL from the cross-encoder; rule contradictions with a fix come first."""

    def __init__(
        self,
        *,
        net: CrossEncoder,
        meta: Meta,
        rules: VerdictComponent,
        settings: VerifierSettings,
        digest: str = "",
    ) -> None:
        self._net = net
        self._digest = digest
        self._meta = meta
        self._rules = rules
        self._settings = settings
        self._support = (
            settings.support_threshold if settings.support_threshold is not None else meta.support_threshold
        )
        self._contradict = (
            settings.contradict_threshold
            if settings.contradict_threshold is not None
            else meta.contradict_threshold
        )
        # As many forward passes at once as the cores hold at torch's threads per call: inference reads
        # the weights only, and the tokenizer's settings never change between calls.
        streams = max(1, (os.cpu_count() or 1) // configure_threads())
        self._lock = threading.BoundedSemaphore(streams)
        # fp16 and fp32 give a pair the same numbers in any batch, so calls from several threads (a batch
        # pool's answers, the verification agent's) share forward passes; int8 does not, so never.
        self._batcher: MicroBatcher[tuple[str, str], npt.NDArray[np.float64]] | None = None
        if settings.runtime != "int8":
            self._batcher = MicroBatcher(self._rows, max_items=_SHARED_PAIRS, concurrent=streams)

    @property
    def max_windows(self) -> int:
        """How many of a claim's best windows the model reads."""
        return self._settings.max_windows

    @property
    def name(self) -> str:
        # The weights' digest and runtime (`verifier_tag`), so cached verdicts of others are never reused.
        return f"trained-minilm@{self._digest}" if self._digest else "trained-minilm"

    def judge_many(self, items: Sequence[tuple[Claim, Sequence[Evidence]]]) -> list[CheckResult]:
        return [decided for decided, _ in self.judge_with_rules(items)]

    def judge_with_rules(
        self, items: Sequence[tuple[Claim, Sequence[Evidence]]]
    ) -> list[tuple[CheckResult, CheckResult]]:
        """Per claim, (the verdict, the rule checks' own verdict it was made beside)."""
        rules = self._rules.judge_many(items)
        windows = [list(ws[: self._settings.max_windows]) for _, ws in items]
        groups = [read_pairs(c, ws) for (c, _), ws in zip(items, windows, strict=True)]
        probs = self.claim_probabilities(groups)
        return [(self._decide(rule, ws, p), rule) for rule, ws, p in zip(rules, windows, probs, strict=True)]

    def claim_probabilities(
        self, groups: Sequence[Sequence[tuple[str, str]]]
    ) -> list[npt.NDArray[np.float64]]:
        """Per claim, the probabilities of its (claim, window) pairs. All pairs share forward passes,
        except on the int8 runtime, which scales its inputs by the whole batch: there each claim has a
        pass of its own, so the stream and `woodpecker correct` get the same numbers."""
        if self._batcher is None:  # int8
            return [self.probabilities(group) if group else np.zeros((0, 3)) for group in groups]
        flat = self.probabilities([pair for group in groups for pair in group])
        bounds = np.cumsum([0, *(len(group) for group in groups)])
        return [flat[a:b] for a, b in itertools.pairwise(bounds)]

    def probabilities(self, pairs: Sequence[tuple[str, str]]) -> npt.NDArray[np.float64]:
        """Calibrated (SUPPORT, CONTRADICT, NEUTRAL) probabilities per pair, similar lengths batched."""
        if not pairs:
            return np.zeros((0, 3), dtype=np.float64)
        if self._batcher is not None:
            return np.stack(self._batcher(list(pairs)))
        with self._lock:
            return np.stack(self._rows(list(pairs)))

    def _rows(self, pairs: list[tuple[str, str]]) -> list[npt.NDArray[np.float64]]:
        out = np.zeros((len(pairs), 3), dtype=np.float64)
        # Batches of similar length, each padded only to its own longest pair: one batch of an answer's
        # ~10 pairs padded them all to the longest window (77 pairs/s on one thread, 101 in buckets;
        # the numbers are the same to 5e-6, since a row depends on its own input only on fp16 / fp32).
        lengths = [len(claim) + len(window) for claim, window in pairs]
        buckets = length_buckets(lengths, max_items=self._settings.batch_size, budget=_PAIR_BUDGET)
        with torch.inference_mode():
            for idx in buckets:
                inputs = encode(
                    self._net.tokenizer, [pairs[j] for j in idx], max_tokens=self._meta.max_tokens
                )
                logits = self._net(**inputs).float() / self._meta.temperature
                out[idx] = torch.softmax(logits, dim=-1).double().numpy()
        return list(out)

    def _decide(
        self, rule: CheckResult, windows: Sequence[Evidence], probs: npt.NDArray[np.float64]
    ) -> CheckResult:
        if not windows:
            return rule
        if rule.label is Judgement.CONTRADICT and rule.fixes:
            # The rule's contradiction stands as the component's own label; the calibrated decision
            # (verify stage) still weighs it against the model, whose probabilities ride along.
            p_c = float(probs[:, _C].max())
            cited = float(probs[int(np.argmax(probs[:, _S])), _C])
            extra = {
                "p_support": round(float(probs[:, _S].max()), 4),
                "p_contradict": round(p_c, 4),
                "p_contradict_cited": round(cited, 4),
            }
            return CheckResult(
                rule.label, rule.reason, rule.evidence, rule.fixes, rule.confidence, extra | signals(rule)
            )
        best_s, best_c = int(np.argmax(probs[:, _S])), int(np.argmax(probs[:, _C]))
        p_s, p_c = float(probs[best_s, _S]), float(probs[best_c, _C])
        extra = {
            "p_support": round(p_s, 4),
            "p_contradict": round(p_c, 4),
            # On the window a SUPPORT would cite: the calibrated decision withholds SUPPORT when that very
            # window reads as a contradiction.
            "p_contradict_cited": round(float(probs[best_s, _C]), 4),
            **signals(rule),
        }
        if self._supported(p_s, rule):
            return self._result(Judgement.SUPPORT, windows[best_s], p_s, rule, extra)
        if p_c >= self._contradict:
            return self._result(Judgement.CONTRADICT, windows[best_c], p_c, rule, extra)
        label = Judgement.INSUFFICIENT if rule.label is Judgement.INSUFFICIENT else Judgement.NEUTRAL
        return self._result(label, windows[best_s], 1.0 - p_s, rule, extra)

    def _supported(self, p_s: float, rule: CheckResult) -> bool:
        model = p_s >= self._support
        agree = self._settings.support_rule or self._meta.support_rule
        if agree == "both":
            return model and rule.label is Judgement.SUPPORT
        if agree == "either":
            return model or rule.label is Judgement.SUPPORT
        return model

    def _result(
        self,
        label: Judgement,
        window: Evidence,
        confidence: float,
        rule: CheckResult,
        extra: dict[str, float],
    ) -> CheckResult:
        cite = f"[{window.doc_id} {window.start}-{window.end}]"
        # a conflict the rules could not fix is the reason a claim is withheld: it is said, not just named
        said = f" ({rule.reason})" if rule.label is Judgement.CONTRADICT else ""
        reason = (
            f"model P(support) {extra['p_support']:.2f}, P(contradict) {extra['p_contradict']:.2f} {cite}; "
            f"rules: {rule.label.value}{said}"
        )
        fixes = rule.fixes if label is Judgement.CONTRADICT else ()
        return CheckResult(
            label=label, reason=reason, evidence=window, fixes=fixes, confidence=confidence, extra=extra
        )


def read_pairs(claim: Claim, windows: Sequence[Evidence]) -> list[tuple[str, str]]:
    """What the cross-encoder reads for a claim: the claim as it stands alone against each window, the
    window's figures, percentages and dates that are the claim's spelled as the claim spells them
    (`backends.restate`: a respelled value is no contradiction)."""
    text = claim.standalone or claim.text
    return [(text, window) for window in restated_all(text, [w.text for w in windows])]


def signals(rule: CheckResult) -> dict[str, float]:
    """The rule checks' verdict as the calibrated decision reads it (`workers.stages.decide.FEATURES`)."""
    conflict = rule.label is Judgement.CONTRADICT
    return {
        "rule_support": float(rule.label is Judgement.SUPPORT),
        "rule_conflict_fix": float(conflict and bool(rule.fixes)),
        "rule_conflict": float(conflict and not rule.fixes),
        "rule_missing": float(rule.label is Judgement.INSUFFICIENT),
        "coverage": float(rule.extra.get("overlap", 0.0)),
        # not fitted features: a "not" lets the model's contradiction on any window veto SUPPORT, and a
        # SUPPORT that found values as stated keeps the model alone from removing the claim
        "rule_negation": float(rule.extra.get("negation", 0.0)),
        "rule_values": float(rule.extra.get("values", 0.0) > 0),
        # and a negation the rules read over other words than the window's keeps it from removing too
        "rule_doubt": float(rule.extra.get("doubt", 0.0)),
        # and a date with its month no window states keeps the claim from SUPPORT
        "rule_unseen_date": float(rule.extra.get("unseen_date", 0.0)),
    }


def load_trained(path: Path, *, runtime: str = "fp16") -> tuple[CrossEncoder, Meta, str]:
    """The trained network, its meta and its `verifier_tag`, loaded once per process, folder and the
    runtime that runs (`cpu.effective_runtime`: "fp16" is fp32 where fp16 weights are no faster)."""
    return _load_trained(path, runtime=effective_runtime(runtime))


@functools.cache
def _load_trained(path: Path, *, runtime: str) -> tuple[CrossEncoder, Meta, str]:
    configure_threads()
    net, meta = load_shipped(path)
    return for_runtime(net, runtime), meta, verifier_tag(path, runtime)


def load_offline_verifier(settings: VerifierSettings, *, rules: VerdictComponent) -> VerdictComponent:
    """The trained verifier when chosen and present; the rule checks otherwise (said once in the log)."""
    if settings.offline == "rules":
        return rules
    path = verifier_dir(settings)
    try:
        net, meta, digest = load_trained(path, runtime=settings.runtime)
    except BackendError as exc:
        log.warning("trained verifier unavailable, using the rule checks: %s", exc)
        return rules
    return TrainedChecker(net=net, meta=meta, rules=rules, settings=settings, digest=digest)


def load_decision(settings: VerifierSettings, *, checker: VerdictComponent) -> Decision | None:
    """The calibrated decision shipped beside the weights, when the trained verifier is the one in use."""
    if not isinstance(checker, TrainedChecker):
        return None
    return read_decision(settings)

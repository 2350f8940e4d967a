"""Which LLM components a pipeline gets, from `settings.models` (backend "openai" per stage).

Round trips per answer, whatever the claim count: extraction with decomposition in one call (1),
all claims verified in one wave of concurrent chunked calls (2), and a correction call only when a
contradicted claim has no fix (3). `verification.escalate` picks which claims the LLM verifier sees:
all ("always"), only those the offline verifier is unsure of, in one call ("uncertain"), or none.
When extraction is "openai", decomposition rides in that call and its own endpoint settings are
unused; when only decomposition is "openai", claims come from the
pure stage and all their queries from one call.

Usage::

    parts = build_llm_parts(settings, offline_checker=OfflineChecker())
    Pipeline(settings=settings, embedder=emb, checker=parts.checker or offline,
             extractor=parts.extractor, rewriter=parts.rewriter)
    parts.close()
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from workers.backends.llm import LLMClients
from workers.backends.llm_checker import LLMChecker
from workers.backends.llm_corrector import LLMCorrector
from workers.backends.llm_escalate import EscalatingChecker
from workers.backends.llm_extractor import ExtractMode, LLMExtractor, OfflineExtractor
from workers.protocols import ClaimExtractor, ClaimRewriter, VerdictComponent
from workers.settings import ModelSettings, Settings

__all__ = ["LLMParts", "build_llm_parts", "uses_llm"]

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LLMParts:
    clients: LLMClients | None = None
    extractor: ClaimExtractor | None = None
    checker: VerdictComponent | None = None
    rewriter: ClaimRewriter | None = None

    def close(self) -> None:
        if self.clients is not None:
            self.clients.close()


def uses_llm(models: ModelSettings) -> bool:
    stages = (models.extraction, models.decomposition, models.verification, models.correction)
    return any(s.backend == "openai" for s in stages)


def build_llm_parts(
    settings: Settings, *, offline_checker: VerdictComponent, **client_options: Any
) -> LLMParts:
    """The LLM components for the stages whose backend is "openai"; none when all are local."""
    models = settings.models
    if not uses_llm(models):
        return LLMParts()
    clients = LLMClients(models=models, **client_options)
    return LLMParts(
        clients=clients,
        extractor=_extractor(settings, clients),
        checker=_checker(settings, clients, offline_checker),
        rewriter=_rewriter(models, clients),
    )


def _extractor(settings: Settings, clients: LLMClients) -> ClaimExtractor | None:
    models, cap = settings.models, settings.limits.max_claims
    offline = OfflineExtractor(max_claims=cap)
    if models.extraction.backend == "openai":
        both = models.decomposition.backend == "openai"
        if both and models.decomposition.model != models.extraction.model:
            log.info("decomposition runs in the extraction call on %s", models.extraction.model)
        stage = models.extraction
        mode: ExtractMode = "extract+decompose" if both else "extract"
        return LLMExtractor(
            client=clients.for_stage(stage), stage=stage, offline=offline, max_claims=cap, mode=mode
        )
    if models.decomposition.backend == "openai":
        stage = models.decomposition
        return LLMExtractor(
            client=clients.for_stage(stage), stage=stage, offline=offline, max_claims=cap, mode="decompose"
        )
    return None


def _checker(settings: Settings, clients: LLMClients, offline: VerdictComponent) -> VerdictComponent | None:
    models, escalate = settings.models, settings.verification.escalate
    stage = models.verification
    if stage.backend != "openai" or escalate == "never":
        return None
    llm = LLMChecker(
        client=clients.for_stage(stage),
        stage=stage,
        fallback=offline,
        batch_size=models.llm.verify_batch_size,
        max_parallel=models.llm.max_concurrency,
    )
    if escalate == "uncertain":
        return EscalatingChecker(offline=offline, llm=llm, settings=settings.verification)
    return llm


def _rewriter(models: ModelSettings, clients: LLMClients) -> ClaimRewriter | None:
    stage = models.correction
    if stage.backend != "openai":
        return None
    return LLMCorrector(client=clients.for_stage(stage), stage=stage)

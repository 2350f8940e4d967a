"""woodpecker: catch and correct hallucinations in RAG answers before they reach users.

Usage::

    from workers import Answer, Settings, build_pipeline, correct
    with build_pipeline(Settings.load()) as pipeline:
        corrected = pipeline.process(Answer.from_json(raw))

    corrected = correct(answer_text, documents, query=question)     # or: await acorrect(...)
"""

from workers.api import acorrect, correct
from workers.errors import BackendError, BackendUnavailable, ConfigError, InvalidMessage, WoodpeckerError
from workers.messages import Action, Answer, Corrected, DeadLetter, Document, Judgement, Route, Verdict
from workers.settings import Settings

__all__ = [
    "Action",
    "Answer",
    "BackendError",
    "BackendUnavailable",
    "ConfigError",
    "Corrected",
    "DeadLetter",
    "Document",
    "InvalidMessage",
    "Judgement",
    "Route",
    "Settings",
    "Verdict",
    "WoodpeckerError",
    "acorrect",
    "build_pipeline",
    "correct",
]


def __getattr__(name: str) -> object:
    # Lazy, so importing the messages does not load torch.
    if name == "build_pipeline":
        from workers.pipeline import build_pipeline

        return build_pipeline
    raise AttributeError(name)

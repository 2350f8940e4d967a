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

from lab.training.metrics import choose_thresholds, fit_temperature, pair_metrics
from lab.training.pairs import LABELS, NOT_SUPPORT, Pair, target_index
from workers.backends.crossenc import CrossEncoder, Meta, encode, load_base, load_shipped, save_shipped

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
    # Start from these trained weights instead of the bare base (a continued run); None: the base.
    init: Path | None = None
    # Where a checkpoint is written every `checkpoint_minutes`; a run finding one there resumes from it.
    checkpoint: Path | None = None
    checkpoint_minutes: float = 5.0
    # "cpu" (the default, what the project needs) or "cuda" when a GPU is there.
    device: str = "cpu"


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
    net = load_shipped(config.init)[0].train() if config.init else load_base(layers=config.layers)
    net.encoder.get_input_embeddings().weight.requires_grad_(False)
    net.to(config.device)
    batches = _batches(train_pairs, config)
    total = max(1, math.ceil(len(batches) * config.epochs))
    started = time.perf_counter()
    sample = random.Random(config.seed).sample(list(valid_pairs), min(256, len(valid_pairs)))
    losses, valid_losses, step = _loop(net, batches, sample, total=total, config=config)
    logits = predict(net, valid_pairs, max_tokens=config.max_tokens)
    net.to("cpu")
    gold = _gold(valid_pairs)
    meta = _calibrated_meta(logits, gold, config, steps=step, pairs=len(train_pairs))
    valid_losses.append((step, _nll(logits, gold, 1.0)))
    metrics = pair_metrics(logits / meta.temperature, gold, [p.source for p in valid_pairs], meta=meta)
    size = save_shipped(net, meta, out)
    return TrainResult(meta, metrics, losses, valid_losses, size, time.perf_counter() - started, step)


def _gold(pairs: Sequence[Pair]) -> npt.NDArray[np.int64]:
    return np.array([target_index(p.label) for p in pairs], dtype=np.int64)


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
    step, spent = _resume(net, optimizer, losses, config)
    bar = tqdm(
        total=total, initial=step, desc="train-verifier", unit="batch", file=sys.stderr,
        disable=not config.progress,
    )  # fmt: skip
    started, saved = time.perf_counter() - spent, time.perf_counter()
    progress = _progress(step, total, spent, config)
    while progress < 1.0:
        _set_lr(optimizer, max(progress, 0.5 / total), config)
        losses.append(_step(net, batches[step % len(batches)], optimizer, weights, config))
        step += 1
        bar.update(1)
        bar.set_postfix(loss=f"{np.mean(losses[-50:]):.3f}")
        before, progress = progress, _progress(step, total, time.perf_counter() - started, config)
        if int(before * 4) < int(progress * 4) < 4 and valid:  # a validation point each quarter
            checks.append((step, _valid_loss(net, valid, config)))
        if config.checkpoint and time.perf_counter() - saved > config.checkpoint_minutes * 60:
            _save_checkpoint(net, optimizer, losses, step, time.perf_counter() - started, config.checkpoint)
            saved = time.perf_counter()
    bar.close()
    net.eval()
    return losses, checks, step


def _save_checkpoint(
    net: CrossEncoder,
    optimizer: torch.optim.Optimizer,
    losses: list[float],
    step: int,
    elapsed: float,
    path: Path,
) -> None:
    """Everything a resumed run needs; written beside and then renamed, so a kill leaves the last one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    state = {"net": net.state_dict(), "optimizer": optimizer.state_dict(), "losses": losses}
    torch.save({**state, "step": step, "elapsed": elapsed}, path.with_suffix(".tmp"))
    path.with_suffix(".tmp").replace(path)


def _resume(
    net: CrossEncoder, optimizer: torch.optim.Optimizer, losses: list[float], config: TrainConfig
) -> tuple[int, float]:
    """(step, seconds spent) from the checkpoint, when there is one; the batches' order is seeded, so
    the run goes on with the batch it would have taken next."""
    if config.checkpoint is None or not config.checkpoint.is_file():
        return 0, 0.0
    state = torch.load(config.checkpoint, weights_only=False, map_location=config.device)
    net.load_state_dict(state["net"])
    optimizer.load_state_dict(state["optimizer"])
    losses.extend(state["losses"])
    print(f"train-verifier: resumed at step {state['step']} from {config.checkpoint}", file=sys.stderr)
    return int(state["step"]), float(state["elapsed"])


def _valid_loss(net: CrossEncoder, valid: Sequence[Pair], config: TrainConfig) -> float:
    logits = predict(net, valid, max_tokens=config.max_tokens)
    net.train()
    return _nll(logits, _gold(valid), 1.0)


def _step(
    net: CrossEncoder,
    batch: list[Pair],
    optimizer: torch.optim.Optimizer,
    weights: torch.Tensor,
    config: TrainConfig,
) -> float:
    inputs = encode(net.tokenizer, [(p.claim, p.evidence) for p in batch], max_tokens=config.max_tokens)
    device = next(net.parameters()).device
    gold = torch.tensor([target_index(p.label) for p in batch], device=device)
    logits = net(**{k: v.to(device) for k, v in inputs.items()})
    loss = _loss(logits, gold, weights.to(device))
    optimizer.zero_grad()
    loss.backward()  # type: ignore[no-untyped-call]
    torch.nn.utils.clip_grad_norm_([p for p in net.parameters() if p.requires_grad], 1.0)
    optimizer.step()
    return float(loss.item())


def _loss(logits: torch.Tensor, gold: torch.Tensor, weights: torch.Tensor) -> torch.Tensor:
    """Weighted cross-entropy; a NOT_SUPPORT pair pays -log(1 - P(SUPPORT)), whichever of the other two."""
    logp = torch.log_softmax(logits, dim=-1)
    two = gold == NOT_SUPPORT
    index = gold.clamp(min=0)
    picked = logp.gather(1, index.unsqueeze(1)).squeeze(1)
    others = torch.logsumexp(logp[:, 1:], dim=1)  # CONTRADICT and NEUTRAL: LABELS[1:]
    per_pair = -torch.where(two, others, picked)
    weight = torch.where(two, weights[1:].mean(), weights[index])
    return (per_pair * weight).sum() / weight.sum()


def _class_weights(batches: list[list[Pair]]) -> torch.Tensor:
    """Inverse label frequency, so a skewed mix does not teach the majority class; a NOT_SUPPORT pair
    counts half to each of the two labels it may be."""
    counts = np.ones(len(LABELS))
    for batch in batches:
        for p in batch:
            i = target_index(p.label)
            if i == NOT_SUPPORT:
                counts[1:] += 0.5
            else:
                counts[i] += 1
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
        device = next(net.parameters()).device
        out[idx] = net(**{k: v.to(device) for k, v in inputs.items()}).float().cpu().numpy()
    return out


def _calibrated_meta(
    logits: Floats, gold: npt.NDArray[np.int64], config: TrainConfig, *, steps: int, pairs: int
) -> Meta:
    temperature = fit_temperature(logits, gold)
    support, contradict = choose_thresholds(logits / temperature, gold)
    trained = {
        "steps": steps,
        "pairs": pairs,
        "epochs": config.epochs,
        "lr": config.lr,
        "seed": config.seed,
        "init": "continued from earlier trained weights" if config.init else "base",
    }
    return Meta(
        max_tokens=config.max_tokens,
        layers=config.layers,
        temperature=temperature,
        support_threshold=support,
        contradict_threshold=contradict,
        trained=trained,
    )


def _nll(logits: Floats, gold: npt.NDArray[np.int64], temperature: float) -> float:
    logits, gold = logits[gold >= 0], gold[gold >= 0]
    if len(gold) == 0:
        return 0.0
    scaled = torch.from_numpy(logits / temperature)
    return float(torch.nn.functional.cross_entropy(scaled, torch.from_numpy(gold)).item())

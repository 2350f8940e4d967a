"""fp16 weights, fp32 arithmetic: the CPU runtime of both models (`crossenc`, `embedder`) with AVX-512.

fbgemm keeps each linear layer's weights packed in fp16 and multiplies in fp32. Half the weight bytes to
stream is what makes it faster (1.7-1.8x fp32 on an AVX-512 EPYC; on one with AVX2 alone it was no
faster, so there both models run fp32: `backends.cpu`); every output row depends only on
its own input row, so a text or pair gets the same numbers alone or in any batch (to ~3e-7), and
within ~1e-4 of fp32. Where fbgemm is missing (non-x86 builds of torch) the layers stay fp32.

Usage::

    model = half_weights(model)       # in place; inference only (the packed weights have no gradient)
"""

from __future__ import annotations

import logging

import torch

__all__ = ["HalfLinear", "available", "half_weights"]

log = logging.getLogger(__name__)


class HalfLinear(torch.nn.Module):
    """A linear layer whose weights are kept in fp16 and multiplied in fp32 (fbgemm's packed GEMM)."""

    def __init__(self, linear: torch.nn.Linear) -> None:
        super().__init__()
        bias = linear.bias.detach() if linear.bias is not None else None
        self.packed = torch.ops.quantized.linear_prepack_fp16(linear.weight.detach(), bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = torch.ops.quantized.linear_dynamic_fp16(x, self.packed)
        return out


def available() -> bool:
    """Whether this build of torch has fbgemm's fp16 kernels (x86 builds do)."""
    return "fbgemm" in torch.backends.quantized.supported_engines


def half_weights(module: torch.nn.Module) -> torch.nn.Module:
    """`module` with every linear layer a `HalfLinear`, in place; unchanged (fp32) without fbgemm."""
    if not available():
        log.info("no fbgemm in this torch build: linear layers stay fp32")
        return module
    _swap(module)
    return module


def _swap(module: torch.nn.Module) -> None:
    for name, child in module.named_children():
        if isinstance(child, torch.nn.Linear):
            setattr(module, name, HalfLinear(child))
        else:
            _swap(child)

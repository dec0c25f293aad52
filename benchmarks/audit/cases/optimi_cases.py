"""torch-optimi (round 11): optimizers with Kahan summation and decoupled weight decay, stepped
per parameter (foreach off on CPU); and adan-pytorch's Adan."""
import importlib

import torch

from . import case


def _step(module, name, **kw):
    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return getattr(importlib.import_module(module), name)([param], **kw).step, (), {}


@case("stableadamw_step")
def _():
    return _step("optimi", "StableAdamW", lr=1e-3)


@case("ranger_step")
def _():
    return _step("optimi", "Ranger", lr=1e-3)


@case("adan_step")
def _():
    return _step("optimi", "Adan", lr=1e-3)


@case("radam_step")
def _():
    return _step("optimi", "RAdam", lr=1e-3)


@case("lion_step")
def _():
    return _step("optimi", "Lion", lr=1e-4)


@case("adan_pytorch_step")
def _():
    return _step("adan_pytorch", "Adan", lr=1e-3)

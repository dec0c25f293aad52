"""torch-optimi (round 11): optimizers with Kahan summation and decoupled weight decay, stepped
per parameter (foreach off on CPU)."""
import torch

from . import case


def _step(name, **kw):
    import optimi

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return getattr(optimi, name)([param], **kw).step, (), {}


@case("stableadamw_step")
def _():
    return _step("StableAdamW", lr=1e-3)


@case("ranger_step")
def _():
    return _step("Ranger", lr=1e-3)


@case("adan_step")
def _():
    return _step("Adan", lr=1e-3)


@case("radam_step")
def _():
    return _step("RAdam", lr=1e-3)


@case("lion_step")
def _():
    return _step("Lion", lr=1e-4)


@case("adan_pytorch_step")
def _():
    from adan_pytorch import Adan

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return Adan([param], lr=1e-3).step, (), {}

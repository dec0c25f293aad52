"""torch-optimizer: optimizers whose step() users compile."""
import torch

from . import case


def _step(name, **kw):
    import torch_optimizer

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return getattr(torch_optimizer, name)([param], **kw).step, (), {}


@case("lamb_step")
def _():
    return _step("Lamb")


@case("adabound_step")
def _():
    return _step("AdaBound")


@case("yogi_step")
def _():
    return _step("Yogi")


@case("diffgrad_step")
def _():
    return _step("DiffGrad")


@case("qhadam_step")
def _():
    return _step("QHAdam")

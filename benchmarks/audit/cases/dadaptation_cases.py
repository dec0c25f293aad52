"""dadaptation: D-Adaptation optimizers (learning-rate free; step() compiled by users)."""
import torch

from . import case


def _step(name, **kw):
    import dadaptation

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return getattr(dadaptation, name)([param], **kw).step, (), {}


@case("adam_step")
def _():
    return _step("DAdaptAdam")


@case("sgd_step")
def _():
    return _step("DAdaptSGD")


@case("lion_step")
def _():
    return _step("DAdaptLion")


@case("adagrad_step")
def _():
    return _step("DAdaptAdaGrad")

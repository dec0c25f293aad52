"""schedulefree: schedule-free optimizers whose step() users compile."""
import torch

from . import case


def _step(name, **kw):
    import schedulefree

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    opt = getattr(schedulefree, name)([param], **kw)
    opt.train()
    return opt.step, (), {}


@case("adamw_step")
def _():
    return _step("AdamWScheduleFree", lr=1e-3, warmup_steps=2)


@case("sgd_step")
def _():
    return _step("SGDScheduleFree", lr=1e-2, warmup_steps=2)


@case("radam_step")
def _():
    return _step("RAdamScheduleFree", lr=1e-3)


@case("adamw_eval_switch")
def _():
    import schedulefree

    param = torch.nn.Parameter(torch.randn(4, 4))
    opt = schedulefree.AdamWScheduleFree([param], lr=1e-3)
    opt.train()
    return opt.eval, (), {}

"""prodigyopt: the Prodigy learning-rate-free optimizer (step() compiled by users)."""
import torch

from . import case


def _prodigy(**kw):
    from prodigyopt import Prodigy

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return Prodigy([param], lr=1.0, **kw).step, (), {}


@case("step")
def _():
    return _prodigy()


@case("step_safeguard_bias_correction")
def _():
    return _prodigy(safeguard_warmup=True, use_bias_correction=True, weight_decay=0.01)

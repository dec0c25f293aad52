"""Round 14: adamp (AdamP and SGDP: `step()` projects the update off the weight direction
when the cosine similarity of gradient and weight is small)."""
import torch

from . import case


def _step(opt_class, **kw):
    params = []
    for shape in ((4, 4), (2, 3, 3, 3), (4,)):
        param = torch.nn.Parameter(torch.randn(*shape))
        param.grad = torch.randn(*shape)
        params.append(param)
    return opt_class(params, **kw).step, (), {}


@case("adamp_step")
def _():
    from adamp import AdamP

    return _step(AdamP, lr=1e-2, weight_decay=1e-2)


@case("adamp_nesterov_step")
def _():
    from adamp import AdamP

    return _step(AdamP, lr=1e-2, nesterov=True, delta=1.0)


@case("sgdp_step")
def _():
    from adamp import SGDP

    return _step(SGDP, lr=1e-2, momentum=0.9, weight_decay=1e-2, nesterov=True)

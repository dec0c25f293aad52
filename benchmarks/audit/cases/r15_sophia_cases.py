"""Round 15: sophia-opt (SophiaG `step()` clipped by a Hessian EMA, `update_hessian`, the
functional form)."""
import torch

from . import case


def _params():
    params = []
    for shape in ((4, 4), (3, 2, 2), (4,)):
        param = torch.nn.Parameter(torch.randn(*shape))
        param.grad = torch.randn(*shape)
        params.append(param)
    return params


@case("sophia_step")
def _():
    from sophia_opt import SophiaG

    opt = SophiaG(_params(), lr=1e-2, rho=0.05, weight_decay=0.1)
    opt.update_hessian()
    return opt.step, (), {}


@case("sophia_update_hessian")
def _():
    from sophia_opt import SophiaG

    return SophiaG(_params(), lr=1e-2).update_hessian, (), {}


@case("sophia_functional")
def _():
    from sophia_opt import sophiag

    params = _params()
    grads = [p.grad for p in params]
    exp_avgs = [torch.zeros_like(p) for p in params]
    hessian = [torch.rand_like(p) for p in params]
    steps = [torch.tensor(0.0) for _ in params]
    kw = dict(bs=64, beta1=0.9, beta2=0.99, rho=0.05, lr=1e-2, weight_decay=0.1, maximize=False,
              capturable=False)
    return sophiag, (params, grads, exp_avgs, hessian, steps), kw



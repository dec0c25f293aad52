"""Round 15: TorchDiffEqPack (neural ODE solvers: fixed-step and adaptive Runge-Kutta with
step-size control in Python, the adaptive checkpoint adjoint, and a stiff solver)."""
import torch

from . import case


class _Field(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, t, y):
        return torch.tanh(self.lin(y))


def _options(method, **kw):
    options = dict(method=method, t0=0.0, t1=0.5, h=0.1, rtol=1e-3, atol=1e-4, print_neval=False,
                   neval_max=500, t_eval=None)
    options.update(kw)
    return options


@case("odesolve_rk4")
def _():
    from TorchDiffEqPack import odesolve

    return odesolve, (_Field(), torch.randn(2, 3), _options("rk4")), {}


@case("odesolve_dopri5")
def _():
    from TorchDiffEqPack import odesolve

    return odesolve, (_Field(), torch.randn(2, 3), _options("dopri5", h=None, t_eval=[0.25, 0.5])), {}


@case("odesolve_adjoint_rk23", grad=True)
def _():
    from TorchDiffEqPack import odesolve_adjoint

    return odesolve_adjoint, (_Field(), torch.randn(2, 3, requires_grad=True), _options("rk23", h=None)), {}


@case("odesolve_sym12async")
def _():
    from TorchDiffEqPack import odesolve

    return odesolve, (_Field(), torch.randn(2, 3), _options("sym12async", h=None)), {}

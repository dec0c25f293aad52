"""Round 10: torchquad integrators (Newton-Cotes, Gauss-Legendre, Monte Carlo, VEGAS) on the torch backend."""
import torch

from . import case


def _integrand(x):
    return torch.sin(x[:, 0]) * torch.exp(-x[:, 1] ** 2)


def _integrate(cls, **kw):
    from torchquad import set_up_backend

    set_up_backend("torch", data_type="float32")
    domain = torch.tensor([[0.0, 1.0], [-1.0, 1.0]])
    return cls().integrate, (_integrand,), {"dim": 2, "integration_domain": domain, **kw}


@case("simpson")
def _():
    from torchquad import Simpson

    return _integrate(Simpson, N=121)


@case("trapezoid")
def _():
    from torchquad import Trapezoid

    return _integrate(Trapezoid, N=121)


@case("boole")
def _():
    from torchquad import Boole

    return _integrate(Boole, N=81)


@case("gauss_legendre")
def _():
    from torchquad import GaussLegendre

    return _integrate(GaussLegendre, N=64)


@case("monte_carlo")
def _():
    from torchquad import MonteCarlo

    return _integrate(MonteCarlo, N=1000, seed=0)


@case("vegas")
def _():
    from torchquad import VEGAS

    return _integrate(VEGAS, N=2000, seed=0, max_iterations=3)

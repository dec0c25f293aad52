"""Round 15: xitorch (differentiable scientific computing: quadrature, initial value problems,
root finding and minimisation with implicit gradients, cubic-spline interpolation, linear
operators and their solvers; parameters are packed into flat tensors by pure functions)."""
import torch

from . import case


def _integrand(x, a):
    return torch.sin(a * x)


def _field(t, y, a):
    return -a * y


def _residual(y, a):
    return torch.tanh(y) + a * y - 1.0


@case("quad_leggauss", grad=True)
def _():
    from xitorch.integrate import quad

    a = torch.tensor([1.0, 2.0], requires_grad=True)
    return quad, (_integrand, 0.0, 1.0), dict(params=(a,), method="leggauss", n=16)


@case("solve_ivp_rk4", grad=True)
def _():
    from xitorch.integrate import solve_ivp

    a = torch.tensor([0.5, 1.5], requires_grad=True)
    return solve_ivp, (_field, torch.linspace(0, 1, 5), torch.ones(2)), dict(params=(a,), method="rk4")


@case("rootfinder_broyden", grad=True)
def _():
    from xitorch.optimize import rootfinder

    a = torch.tensor([0.5, 2.0], requires_grad=True)
    return rootfinder, (_residual, torch.zeros(2)), dict(params=(a,), method="broyden1", maxiter=30)


@case("interp1d_cspline")
def _():
    from xitorch.interpolate import Interp1D

    x = torch.rand(8)
    interp = Interp1D(x, torch.sin(x), method="cspline", extrap="mirror")
    return interp, (torch.rand(5),), {}


@case("linalg_solve_exact", grad=True)
def _():
    from xitorch import LinearOperator
    from xitorch.linalg import solve

    m = torch.randn(4, 4)
    a = LinearOperator.m(m @ m.T + 4 * torch.eye(4))
    return solve, (a, torch.randn(4, 2)), dict(method="exactsolve")

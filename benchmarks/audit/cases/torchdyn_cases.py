"""Round 10: torchdyn neural ODEs (fixed-step and adaptive solvers) and its odeint."""
import torch

from . import case


def _field():
    return torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))


def _node(solver, **kw):
    from torchdyn.core import NeuralODE

    model = NeuralODE(_field(), solver=solver, **kw)
    return model, (torch.randn(4, 2), torch.linspace(0, 1, 5)), {}


@case("neural_ode_rk4")
def _():
    return _node("rk4")


@case("neural_ode_tsit5")
def _():
    return _node("tsit5", atol=1e-3, rtol=1e-3)


@case("neural_ode_dopri5_adjoint", grad=True)
def _():
    return _node("dopri5", sensitivity="adjoint", atol=1e-3, rtol=1e-3)


@case("odeint_euler")
def _():
    from torchdyn.numerics import odeint

    field = _field()
    return odeint, (lambda t, x: field(x), torch.randn(4, 2), torch.linspace(0, 1, 5)), {"solver": "euler"}


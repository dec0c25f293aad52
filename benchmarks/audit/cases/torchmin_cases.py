"""pytorch-minimize (round 11): torchmin's minimizers (quasi-Newton, conjugate gradient,
Newton-CG, trust region) on a Rosenbrock function, a few iterations each."""
import functools

import torch

from . import case


def _rosen(x):
    return (100 * (x[1:] - x[:-1] ** 2) ** 2 + (1 - x[:-1]) ** 2).sum()


def _minimize(method):
    from torchmin import minimize

    return functools.partial(minimize, _rosen, method=method, max_iter=3), (torch.randn(4),), {}


@case("bfgs", grad=True)
def _():
    return _minimize("bfgs")


@case("l_bfgs", grad=True)
def _():
    return _minimize("l-bfgs")


@case("cg", grad=True)
def _():
    return _minimize("cg")


@case("newton_cg", grad=True)
def _():
    return _minimize("newton-cg")


@case("trust_ncg", grad=True)
def _():
    return _minimize("trust-ncg")

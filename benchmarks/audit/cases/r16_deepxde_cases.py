"""Round 16: DeepXDE with its PyTorch backend (physics-informed networks: fully connected and
parallel networks with input/output transforms, DeepONets, derivatives of outputs by reverse-mode
autograd cached per (output, input) pair, loss functions)."""
import os

import torch

from . import case


def _dde():
    os.environ["DDE_BACKEND"] = "pytorch"
    import deepxde

    return deepxde


@case("fnn")
def _():
    dde = _dde()
    return dde.nn.FNN([2, 16, 16, 1], "tanh", "Glorot normal"), (torch.randn(5, 2),), {}


@case("fnn_transforms")
def _():
    dde = _dde()
    net = dde.nn.FNN([2, 16, 1], "tanh", "Glorot uniform")
    net.apply_feature_transform(lambda x: torch.cat([x, torch.sin(x)], dim=1)[:, :2])
    net.apply_output_transform(lambda x, y: x[:, :1] * y)
    return net, (torch.randn(5, 2),), {}


@case("pfnn")
def _():
    dde = _dde()
    return dde.nn.PFNN([2, [8, 8], [8, 8], 2], "tanh", "Glorot normal"), (torch.randn(5, 2),), {}


@case("deeponet")
def _():
    dde = _dde()
    net = dde.nn.DeepONet([6, 16, 8], [2, 16, 8], "relu", "Glorot normal")
    return net, ((torch.randn(5, 6), torch.randn(5, 2)),), {}


@case("deeponet_cartesian")
def _():
    dde = _dde()
    net = dde.nn.DeepONetCartesianProd([6, 16, 8], [2, 16, 8], "relu", "Glorot normal")
    return net, ((torch.randn(3, 6), torch.randn(7, 2)),), {}


@case("jacobian", grad=True)
def _():
    dde = _dde()
    x = torch.randn(5, 2, requires_grad=True)
    y = torch.sin(x).sum(1, keepdim=True) * x
    return dde.grad.jacobian, (y, x), dict(i=0, j=1)


@case("hessian", grad=True)
def _():
    dde = _dde()
    x = torch.randn(5, 2, requires_grad=True)
    y = (x ** 3).sum(1, keepdim=True)
    return dde.grad.hessian, (y, x), dict(i=0, j=0)


@case("l2_relative_error")
def _():
    dde = _dde()
    return dde.losses.mean_l2_relative_error, (torch.randn(5, 2), torch.randn(5, 2)), {}

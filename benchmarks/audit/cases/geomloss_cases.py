"""geomloss: optimal-transport and kernel losses between point clouds and images."""
import torch

from . import case


def _clouds(n=30, m=40, d=2):
    return torch.rand(n, d), torch.rand(m, d)


@case("sinkhorn_tensorized")
def _():
    import geomloss

    x, y = _clouds()
    return geomloss.SamplesLoss("sinkhorn", p=2, blur=0.05, backend="tensorized"), (x, y), {}


@case("sinkhorn_weighted_batch")
def _():
    import geomloss

    x, y = torch.rand(2, 20, 3), torch.rand(2, 25, 3)
    a = torch.rand(2, 20).softmax(-1)
    b = torch.rand(2, 25).softmax(-1)
    return geomloss.SamplesLoss("sinkhorn", p=1, blur=0.1, backend="tensorized"), (a, x, b, y), {}


@case("energy_kernel")
def _():
    import geomloss

    x, y = _clouds()
    return geomloss.SamplesLoss("energy", backend="tensorized"), (x, y), {}


@case("gaussian_kernel")
def _():
    import geomloss

    x, y = _clouds()
    return geomloss.SamplesLoss("gaussian", blur=0.5, backend="tensorized"), (x, y), {}


@case("sinkhorn_biased")
def _():
    import geomloss

    x, y = _clouds()
    return geomloss.SamplesLoss("sinkhorn", p=2, blur=0.05, debias=False, backend="tensorized"), (x, y), {}


"""Round 16: tntorch (tensor networks: tensor-train and Tucker decompositions built from a full
tensor by SVD sweeps, rounding, arithmetic between decompositions, metrics, reconstruction)."""
import torch

from . import case


def _tt(seed_shape=(4, 5, 6), ranks=3):
    import tntorch as tn

    return tn.Tensor(torch.randn(*seed_shape), ranks_tt=ranks)


@case("round_tt")
def _():
    t = _tt(ranks=4)
    return t.round_tt, (), dict(eps=1e-2)


@case("full")
def _():
    t = _tt()
    return t.torch, (), {}


@case("dist")
def _():
    import tntorch as tn

    return tn.metrics.dist, (_tt(), _tt()), {}


@case("relative_error")
def _():
    import tntorch as tn

    return tn.metrics.relative_error, (_tt(), _tt()), {}


@case("add")
def _():
    t = _tt()
    return t.__add__, (_tt(),), {}


@case("cumsum")
def _():
    import tntorch as tn

    return tn.cumsum, (_tt(),), dict(dim=0)


@case("getitem")
def _():
    t = _tt()
    return t.__getitem__, ((slice(None), 2, slice(1, 4)),), {}


@case("orthogonalize")
def _():
    t = _tt()
    return t.orthogonalize, (1,), {}

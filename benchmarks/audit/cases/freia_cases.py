"""FrEIA (round 11): invertible networks: coupling blocks with subnet constructors, the
all-in-one block, an invertible ResNet (fixed-point inverse), ActNorm and a sequential INN."""
import torch

from . import case


def _subnet(c_in, c_out):
    return torch.nn.Sequential(torch.nn.Linear(c_in, 16), torch.nn.ReLU(), torch.nn.Linear(16, c_out))


def _block(name, dims=8, **kw):
    import FrEIA.modules as Fm

    block = getattr(Fm, name)([(dims,)], **kw)
    return block, ([torch.randn(4, dims)],), {}


@case("all_in_one_block")
def _():
    return _block("AllInOneBlock", subnet_constructor=_subnet, permute_soft=True)


@case("glow_coupling")
def _():
    return _block("GLOWCouplingBlock", subnet_constructor=_subnet, clamp=2.0)


@case("rnvp_coupling_reverse")
def _():
    block, args, _ = _block("RNVPCouplingBlock", subnet_constructor=_subnet)
    return block, args, {"rev": True}


@case("actnorm")
def _():
    return _block("ActNorm")


@case("iresnet_layer", grad=True)
def _():
    return _block("IResNetLayer", internal_size=16, jacobian_iterations=3, fixed_point_iterations=3,
                  lipschitz_iterations=2)


@case("sequence_inn")
def _():
    import FrEIA.framework as Ff
    import FrEIA.modules as Fm

    inn = Ff.SequenceINN(8)
    for _ in range(2):
        inn.append(Fm.AllInOneBlock, subnet_constructor=_subnet)
    return inn, (torch.randn(4, 8),), {}

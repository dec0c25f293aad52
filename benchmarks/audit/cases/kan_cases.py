"""Round 12: Kolmogorov-Arnold networks (pykan): B-spline layers, the multiplicative KAN's
forward with symbolic branches, grid updates from samples and the regularisation loss."""
import torch

from . import case


def _kan(**kw):
    from kan import KAN

    return KAN(width=[2, 3, 1], grid=3, k=3, seed=0, auto_save=False, **kw)


@case("kan_layer")
def _():
    from kan.KANLayer import KANLayer

    return KANLayer(in_dim=3, out_dim=2, num=4, k=3), (torch.randn(8, 3),), {}


@case("kan_forward")
def _():
    return _kan(), (torch.randn(8, 2),), {}


@case("multkan_forward_singular")
def _():
    from kan import MultKAN

    model = MultKAN(width=[2, [1, 1], 1], grid=3, k=3, seed=0, auto_save=False)
    return model, (torch.randn(8, 2),), {"singularity_avoiding": True}


@case("kan_update_grid")
def _():
    model = _kan()
    return model.update_grid, (torch.randn(16, 2),), {}


@case("kan_reg", grad=True)
def _():
    model = _kan()
    model(torch.randn(8, 2))
    return model.get_reg, ("edge_forward_spline_n", 1.0, 2.0, 0.0, 0.0), {}


@case("kan_spline_coef")
def _():
    from kan.spline import curve2coef

    grid = torch.linspace(-1, 1, steps=7)[None, :].expand(2, 7)
    x = torch.rand(16, 2) * 2 - 1
    return curve2coef, (x, torch.randn(16, 2, 1), grid, 3), {}

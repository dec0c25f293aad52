"""Round 10: neuraloperator (FNO, TFNO with a Tucker factorization, U-NO) and its Sobolev losses."""
import torch

from . import case


@case("fno_2d")
def _():
    from neuralop.models import FNO

    model = FNO(n_modes=(4, 4), in_channels=1, out_channels=1, hidden_channels=8, n_layers=2).eval()
    return model, (torch.randn(2, 1, 16, 16),), {}


@case("fno_1d_padded_norm")
def _():
    from neuralop.models import FNO

    model = FNO(n_modes=(6,), in_channels=2, out_channels=1, hidden_channels=8, n_layers=2,
                norm="group_norm", fno_skip="soft-gating", domain_padding=0.25).eval()
    return model, (torch.randn(2, 2, 32),), {}


@case("tfno_tucker")
def _():
    from neuralop.models import TFNO

    model = TFNO(n_modes=(4, 4), in_channels=1, out_channels=1, hidden_channels=8, n_layers=2,
                 factorization="tucker", implementation="factorized", rank=0.5).eval()
    return model, (torch.randn(2, 1, 16, 16),), {}


@case("uno_2d")
def _():
    from neuralop.models import UNO

    model = UNO(in_channels=1, out_channels=1, hidden_channels=8, n_layers=3,
                uno_out_channels=[8, 8, 8], uno_n_modes=[[4, 4], [4, 4], [4, 4]],
                uno_scalings=[[1.0, 1.0], [0.5, 0.5], [2.0, 2.0]], channel_mlp_skip="linear").eval()
    return model, (torch.randn(2, 1, 16, 16),), {}


@case("lp_loss", grad=True)
def _():
    from neuralop.losses import LpLoss

    return LpLoss(d=2, p=2), (torch.randn(2, 1, 16, 16), torch.randn(2, 1, 16, 16)), {}


@case("h1_loss", grad=True)
def _():
    from neuralop.losses import H1Loss

    return H1Loss(d=2), (torch.randn(2, 1, 16, 16), torch.randn(2, 1, 16, 16)), {}

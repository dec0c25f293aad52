"""Round 13 layers and an optimizer: sparsemax (sort, cumsum and support size), torchlayers
(modules that infer their dimension on the first call, stochastic depth, squeeze-and-
excitation, polynomial blocks) and pytorch-lamb's `step()` (trust ratio per parameter)."""
import torch

from . import case
from .r12_optim_cases import _step


@case("sparsemax")
def _():
    from sparsemax import Sparsemax

    return Sparsemax(dim=-1), (torch.randn(3, 6),), {}


@case("sparsemax_grad", grad=True)
def _():
    from sparsemax import Sparsemax

    return Sparsemax(dim=1), (torch.randn(2, 5, 4, requires_grad=True),), {}


@case("torchlayers_first_call")
def _():
    from torchlayers.convolution import Conv
    from torchlayers.normalization import BatchNorm
    from torchlayers.pooling import MaxPool

    model = torch.nn.Sequential(Conv(in_channels=3, out_channels=8), BatchNorm(num_features=8), MaxPool())
    return model, (torch.randn(2, 3, 8, 8),), {}


@case("torchlayers_blocks", grad=True)
def _():
    from torchlayers.convolution import Fire, InvertedResidualBottleneck, Poly, SqueezeExcitation
    from torchlayers.pooling import GlobalAvgPool
    from torchlayers.regularization import StochasticDepth

    model = torch.nn.Sequential(InvertedResidualBottleneck(8), SqueezeExcitation(8), Fire(8, 8),
                                StochasticDepth(torch.nn.Conv2d(8, 8, 3, padding=1)),
                                Poly(torch.nn.Conv2d(8, 8, 3, padding=1), order=2),
                                GlobalAvgPool())
    return model, (torch.randn(2, 8, 8, 8),), {}


@case("lamb_step")
def _():
    from pytorch_lamb import Lamb

    return _step(Lamb, lr=1e-3, weight_decay=1e-2)


@case("lamb_adam_step")
def _():
    from pytorch_lamb import Lamb

    return _step(Lamb, lr=1e-3, adam=True)

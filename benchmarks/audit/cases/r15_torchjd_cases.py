"""Round 15: torchjd (Jacobian descent for multi-task learning: aggregators that turn a Jacobian
into one update direction, some iterative (MGDA's Frank-Wolfe loop) or random (GradDrop,
PCGrad's order), scalarizers with their own state and optimizer (FAMO, DWA), and `jac`)."""
import torch

from . import case


def _jacobian():
    return torch.randn(3, 10)


@case("mgda")
def _():
    from torchjd.aggregation import MGDA

    return MGDA(epsilon=1e-3, max_iters=20), (_jacobian(),), {}


@case("pcgrad")
def _():
    from torchjd.aggregation import PCGrad

    return PCGrad(), (_jacobian(),), {}


@case("graddrop")
def _():
    from torchjd.aggregation import GradDrop

    return GradDrop(), (_jacobian(),), {}


@case("krum")
def _():
    from torchjd.aggregation import Krum

    return Krum(n_byzantine=1, n_selected=2), (torch.randn(5, 10),), {}


@case("trimmed_mean")
def _():
    from torchjd.aggregation import TrimmedMean

    return TrimmedMean(trim_number=1), (torch.randn(5, 10),), {}


@case("aligned_mtl")
def _():
    from torchjd.aggregation import AlignedMTL

    return AlignedMTL(), (_jacobian(),), {}


@case("gradvac")
def _():
    from torchjd.aggregation import GradVac

    return GradVac(), (_jacobian(),), {}


@case("famo_update", grad=True)
def _():
    from torchjd.scalarization import FAMO

    famo = FAMO(3)
    famo(torch.rand(3) + 0.5)
    return famo.update, (torch.rand(3) + 0.4,), {}


@case("dwa", grad=True)
def _():
    from torchjd.scalarization import DWA

    dwa = DWA()
    return dwa, (torch.rand(3, requires_grad=True),), {}


@case("jac", grad=True)
def _():
    from torchjd.autojac import jac

    w = torch.randn(4, requires_grad=True)
    x = torch.randn(4)
    outputs = torch.stack([(w * x).sum(), (w ** 2).sum()])
    return jac, (outputs, [w]), dict(retain_graph=True)

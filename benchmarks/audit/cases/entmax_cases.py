"""entmax: sparse probability mappings (sparsemax, 1.5-entmax, bisection) and their losses."""
import torch

from . import case


@case("entmax15")
def _():
    import entmax

    return entmax.entmax15, (torch.randn(4, 10),), {"dim": -1}


@case("sparsemax_topk")
def _():
    import entmax

    return entmax.sparsemax, (torch.randn(4, 50),), {"k": 8}


@case("entmax_bisect", grad=True)
def _():
    import entmax

    return entmax.EntmaxBisect(alpha=1.3, n_iter=10), (torch.randn(4, 10).requires_grad_(),), {}


@case("entmax15_loss", grad=True)
def _():
    import entmax

    return entmax.Entmax15Loss(), (torch.randn(4, 10).requires_grad_(), torch.randint(0, 10, (4,))), {}


@case("normmax_bisect")
def _():
    import entmax

    return entmax.normmax_bisect, (torch.randn(3, 6),), {"n_iter": 10}

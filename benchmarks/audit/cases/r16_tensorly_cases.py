"""Round 16: TensorLy with its PyTorch backend (tensor decompositions by alternating least squares:
CP/PARAFAC with SVD initialisation and convergence checks, non-negative CP, Tucker by HOOI,
tensor-train by sequential SVDs, reconstruction from factors)."""
import torch

from . import case


def _tl():
    import tensorly

    tensorly.set_backend("pytorch")
    return tensorly


@case("parafac")
def _():
    _tl()
    from tensorly.decomposition import parafac

    return parafac, (torch.randn(4, 5, 6), 2), dict(n_iter_max=5, init="random", random_state=0)


@case("non_negative_parafac")
def _():
    _tl()
    from tensorly.decomposition import non_negative_parafac

    return non_negative_parafac, (torch.rand(4, 5, 6), 2), dict(n_iter_max=5, init="random", random_state=0)


@case("tucker")
def _():
    _tl()
    from tensorly.decomposition import tucker

    return tucker, (torch.randn(4, 5, 6), [2, 2, 2]), dict(n_iter_max=5, init="random", random_state=0)


@case("tensor_train")
def _():
    _tl()
    from tensorly.decomposition import tensor_train

    return tensor_train, (torch.randn(4, 5, 6), [1, 2, 2, 1]), {}


@case("cp_to_tensor")
def _():
    tl = _tl()
    from tensorly.cp_tensor import cp_to_tensor

    return cp_to_tensor, ((torch.ones(2), [torch.randn(4, 2), torch.randn(5, 2), torch.randn(6, 2)]),), {}


@case("unfold")
def _():
    tl = _tl()
    return tl.unfold, (torch.randn(4, 5, 6), 1), {}

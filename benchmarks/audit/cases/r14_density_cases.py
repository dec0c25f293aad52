"""Round 14: density and distribution tools on tensors: torchist (NumPy-style histograms,
sparse and edge-based, entropy, Sinkhorn transport and earth mover's distance), torch-kde
(kernel density estimation: fit, score, sampling), torch-pca (sklearn-like PCA: full and
randomized SVD, component counts picked by explained variance) and torchinterp1d (linear
interpolation as an autograd.Function)."""
import torch

from . import case


@case("torchist_histogramdd")
def _():
    from torchist import histogramdd

    return histogramdd, (torch.rand(50, 2),), {"bins": 4, "low": 0.0, "upp": 1.0}


@case("torchist_histogramdd_sparse_weights")
def _():
    from torchist import histogramdd

    return histogramdd, (torch.rand(50, 3),), {"bins": [3, 4, 2], "weights": torch.rand(50), "sparse": True}


@case("torchist_em_distance")
def _():
    from torchist.metrics import em_distance

    p = torch.rand(4, 4)
    return em_distance, (p / p.sum(), torch.full((4, 4), 1 / 16)), {"max_iter": 30, "step": 10}


@case("torchist_js_divergence")
def _():
    from torchist.metrics import js_divergence

    p = torch.rand(8)
    return js_divergence, (p / p.sum(), torch.full((8,), 1 / 8)), {}


@case("kde_score_samples")
def _():
    from torchkde import KernelDensity

    kde = KernelDensity(bandwidth=0.5, kernel="gaussian").fit(torch.randn(30, 2))
    return kde.score_samples, (torch.randn(10, 2),), {}


@case("kde_fit_scott_epanechnikov")
def _():
    from torchkde import KernelDensity

    return KernelDensity(bandwidth="scott", kernel="epanechnikov").fit, (torch.randn(30, 2),), {}


@case("kde_sample")
def _():
    from torchkde import KernelDensity

    return KernelDensity(bandwidth=0.5).fit(torch.randn(30, 2)).sample, (5,), {}


@case("pca_fit_transform")
def _():
    from torch_pca import PCA

    return PCA(n_components=0.9, svd_solver="full").fit_transform, (torch.randn(20, 5),), {}


@case("pca_randomized_fit")
def _():
    from torch_pca import PCA

    return PCA(n_components=2, svd_solver="randomized", whiten=True, random_state=0).fit, (torch.randn(20, 5),), {}


@case("pca_transform")
def _():
    from torch_pca import PCA

    pca = PCA(n_components=3).fit(torch.randn(20, 5))
    return pca.transform, (torch.randn(6, 5),), {}


@case("interp1d", grad=True)
def _():
    from torchinterp1d import interp1d

    x = torch.sort(torch.rand(2, 10), dim=-1).values
    return interp1d, (x, torch.randn(2, 10, requires_grad=True), torch.rand(2, 7)), {}

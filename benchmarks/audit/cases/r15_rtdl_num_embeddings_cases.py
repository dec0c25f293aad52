"""Round 15: rtdl-num-embeddings (embeddings of numerical features for tabular networks:
periodic, piecewise-linear over bins computed from the data by quantiles or a decision tree)."""
import torch

from . import case


@case("periodic_embeddings", grad=True)
def _():
    from rtdl_num_embeddings import PeriodicEmbeddings

    return PeriodicEmbeddings(3, d_embedding=8, n_frequencies=4, lite=False), (torch.randn(5, 3),), {}


@case("linear_relu_embeddings", grad=True)
def _():
    from rtdl_num_embeddings import LinearReLUEmbeddings

    return LinearReLUEmbeddings(3, d_embedding=8), (torch.randn(5, 3),), {}


@case("compute_bins_quantiles")
def _():
    from rtdl_num_embeddings import compute_bins

    return compute_bins, (torch.randn(200, 3),), dict(n_bins=8)


@case("compute_bins_tree")
def _():
    from rtdl_num_embeddings import compute_bins

    x = torch.randn(200, 3)
    y = x[:, 0] + 0.1 * torch.randn(200)
    return compute_bins, (x,), dict(n_bins=6, y=y, regression=True, tree_kwargs={"min_samples_leaf": 16})


@case("piecewise_linear_embeddings", grad=True)
def _():
    from rtdl_num_embeddings import PiecewiseLinearEmbeddings, compute_bins

    bins = compute_bins(torch.randn(200, 3), n_bins=8)
    return PiecewiseLinearEmbeddings(bins, d_embedding=8, activation=True, version="B"), (torch.randn(5, 3),), {}


@case("piecewise_linear_encoding")
def _():
    from rtdl_num_embeddings import PiecewiseLinearEncoding, compute_bins

    x = torch.randn(200, 3)
    x[:, 2] = torch.randint(0, 3, (200,)).float()
    return PiecewiseLinearEncoding(compute_bins(x, n_bins=8)), (torch.randn(5, 3),), {}

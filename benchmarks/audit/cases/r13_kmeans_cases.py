"""Round 13: clustering loops: kmeans-pytorch (a while loop until the centers stop moving) and
torch-kmeans (batched k-means, soft and constrained k-means, k nearest neighbours)."""
import torch

from . import case


@case("kmeans_pytorch_fit")
def _():
    from kmeans_pytorch import kmeans

    return kmeans, (torch.randn(40, 2),), {"num_clusters": 3}


@case("kmeans_pytorch_predict")
def _():
    from kmeans_pytorch import kmeans_predict

    return kmeans_predict, (torch.randn(40, 2), torch.randn(3, 2)), {"distance": "cosine"}


@case("torch_kmeans_forward")
def _():
    from torch_kmeans import KMeans

    return KMeans(n_clusters=3, num_init=2, max_iter=10, verbose=False), (torch.randn(2, 20, 2),), {}


@case("torch_kmeans_k_per_instance")
def _():
    from torch_kmeans import KMeans

    model = KMeans(init_method="k-means++", num_init=2, max_iter=10, verbose=False)
    return model, (torch.randn(2, 20, 2),), {"k": torch.tensor([2, 3])}


@case("torch_kmeans_predict")
def _():
    from torch_kmeans import KMeans

    model = KMeans(n_clusters=3, num_init=2, max_iter=10, verbose=False).fit(torch.randn(2, 20, 2))
    return model.predict, (torch.randn(2, 10, 2),), {}


@case("soft_kmeans", grad=True)
def _():
    from torch_kmeans import SoftKMeans

    return SoftKMeans(n_clusters=3, max_iter=10, verbose=False), (torch.randn(2, 20, 2),), {}


@case("constrained_kmeans")
def _():
    from torch_kmeans import ConstrainedKMeans

    model = ConstrainedKMeans(n_clusters=3, num_init=2, max_iter=10, verbose=False)
    return model, (torch.randn(2, 20, 2),), {"weights": torch.rand(2, 20) / 10}


@case("knn")
def _():
    from torch_kmeans.clustering import KNN

    return KNN(k=3), (torch.randn(2, 20, 2),), {}

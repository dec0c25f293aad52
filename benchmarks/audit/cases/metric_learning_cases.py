"""pytorch-metric-learning: embedding losses, miners and reducers."""
import torch

from . import case


def _emb(n=16, d=8, classes=4):
    return torch.nn.functional.normalize(torch.randn(n, d), dim=1), torch.arange(n) % classes


@case("triplet_margin_loss", grad=True)
def _():
    from pytorch_metric_learning import losses

    e, y = _emb()
    return losses.TripletMarginLoss(margin=0.1), (e.requires_grad_(), y), {}


@case("multi_similarity_miner")
def _():
    from pytorch_metric_learning import miners

    return miners.MultiSimilarityMiner(epsilon=0.1), _emb(), {}


@case("ntxent_loss", grad=True)
def _():
    from pytorch_metric_learning import losses

    e, y = _emb()
    return losses.NTXentLoss(temperature=0.1), (e.requires_grad_(), y), {}


@case("arcface_loss", grad=True)
def _():
    from pytorch_metric_learning import losses

    e, y = _emb()
    return losses.ArcFaceLoss(4, 8), (e.requires_grad_(), y), {}


@case("contrastive_loss")
def _():
    from pytorch_metric_learning import losses

    return losses.ContrastiveLoss(), _emb(), {}


@case("proxy_anchor_loss", grad=True)
def _():
    from pytorch_metric_learning import losses

    e, y = _emb()
    return losses.ProxyAnchorLoss(4, 8), (e.requires_grad_(), y), {}

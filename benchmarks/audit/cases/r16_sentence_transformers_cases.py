"""Round 16: sentence-transformers (embedding models' heads and objectives without a checkpoint:
pooling modules over token embeddings and masks, weighted layer pooling, triplet losses that mine
hard positives and negatives in the batch, ranking losses, similarity and retrieval utilities that
return Python lists)."""
import torch

from . import case


def _features(b=3, n=5, d=8):
    mask = torch.ones(b, n, dtype=torch.long)
    mask[0, 3:] = 0
    return {"token_embeddings": torch.randn(b, n, d), "attention_mask": mask}


@case("pooling_mean")
def _():
    from sentence_transformers.sentence_transformer.modules import Pooling

    return Pooling(8, pooling_mode="mean"), (_features(),), {}


@case("pooling_lasttoken")
def _():
    from sentence_transformers.sentence_transformer.modules import Pooling

    return Pooling(8, pooling_mode="lasttoken"), (_features(),), {}


@case("weighted_layer_pooling")
def _():
    from sentence_transformers.sentence_transformer.modules import WeightedLayerPooling

    f = _features()
    f["all_layer_embeddings"] = [torch.randn(3, 5, 8) for _ in range(5)]
    return WeightedLayerPooling(8, num_hidden_layers=4, layer_start=2), (f,), {}


@case("batch_hard_triplet", grad=True)
def _():
    from sentence_transformers.sentence_transformer.losses import BatchHardTripletLoss

    loss = BatchHardTripletLoss(torch.nn.Identity())
    return loss.batch_hard_triplet_loss, (torch.tensor([0, 0, 1, 1, 2, 2]), torch.randn(6, 8, requires_grad=True)), {}


@case("batch_semi_hard_triplet", grad=True)
def _():
    from sentence_transformers.sentence_transformer.losses import BatchSemiHardTripletLoss

    loss = BatchSemiHardTripletLoss(torch.nn.Identity())
    return loss.batch_semi_hard_triplet_loss, (torch.tensor([0, 0, 1, 1, 2, 2]), torch.randn(6, 8, requires_grad=True)), {}


@case("batch_all_triplet", grad=True)
def _():
    from sentence_transformers.sentence_transformer.losses import BatchAllTripletLoss

    loss = BatchAllTripletLoss(torch.nn.Identity())
    return loss.batch_all_triplet_loss, (torch.tensor([0, 0, 1, 1, 2, 2]), torch.randn(6, 8, requires_grad=True)), {}


@case("cosent", grad=True)
def _():
    from sentence_transformers.sentence_transformer.losses import CoSENTLoss

    loss = CoSENTLoss(torch.nn.Identity())
    emb = [torch.randn(4, 8, requires_grad=True), torch.randn(4, 8)]
    return loss.compute_loss_from_embeddings, (emb, torch.rand(4)), {}


@case("semantic_search")
def _():
    from sentence_transformers.util.retrieval import semantic_search

    return semantic_search, (torch.randn(3, 8), torch.randn(10, 8)), dict(top_k=2)


@case("community_detection")
def _():
    from sentence_transformers.util.retrieval import community_detection

    e = torch.randn(4, 8)
    return community_detection, (torch.cat([e, e + 0.01 * torch.randn(4, 8)]),), dict(threshold=0.9, min_community_size=2)

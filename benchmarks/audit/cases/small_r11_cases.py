"""Round 11 small models: equivariant graph layers (egnn-pytorch), point-cloud attention over
nearest neighbours (point-transformer-pytorch) and tabular transformers (tab-transformer-pytorch)."""
import torch

from . import case


@case("egnn_layer_neighbors")
def _():
    from egnn_pytorch import EGNN

    return EGNN(dim=16, num_nearest_neighbors=4, norm_coors=True), (torch.randn(2, 10, 16), torch.randn(2, 10, 3)), {
        "mask": torch.ones(2, 10, dtype=torch.bool)}


@case("egnn_layer_edges")
def _():
    from egnn_pytorch import EGNN

    return EGNN(dim=16, edge_dim=4, m_pool_method="mean", soft_edges=True), (
        torch.randn(2, 6, 16), torch.randn(2, 6, 3)), {"edges": torch.randn(2, 6, 6, 4)}


@case("egnn_network_adj")
def _():
    from egnn_pytorch import EGNN_Network

    net = EGNN_Network(num_tokens=10, dim=16, depth=2, num_adj_degrees=2, adj_dim=4,
                       only_sparse_neighbors=True, global_linear_attn_every=1,
                       global_linear_attn_dim_head=8)
    adj = torch.rand(1, 8, 8) > 0.5
    adj = adj | adj.transpose(-1, -2)
    return net, (torch.randint(0, 10, (1, 8)), torch.randn(1, 8, 3)), {"adj_mat": adj}


@case("point_transformer_neighbors")
def _():
    from point_transformer_pytorch import PointTransformerLayer

    return PointTransformerLayer(dim=16, pos_mlp_hidden_dim=16, num_neighbors=4), (
        torch.randn(2, 12, 16), torch.randn(2, 12, 3)), {"mask": torch.ones(2, 12, dtype=torch.bool)}


@case("multihead_point_transformer")
def _():
    from point_transformer_pytorch import MultiheadPointTransformerLayer

    return MultiheadPointTransformerLayer(dim=16, heads=2, dim_head=8, num_neighbors=4), (
        torch.randn(2, 12, 16), torch.randn(2, 12, 3)), {}


@case("tab_transformer")
def _():
    from tab_transformer_pytorch import TabTransformer

    model = TabTransformer(categories=(4, 5, 6), num_continuous=3, dim=16, depth=2, heads=2,
                           continuous_mean_std=torch.randn(3, 2), mlp_act=torch.nn.ReLU())
    categ = torch.stack([torch.randint(0, n, (4,)) for n in (4, 5, 6)], dim=-1)
    return model, (categ, torch.randn(4, 3)), {}


@case("ft_transformer")
def _():
    from tab_transformer_pytorch import FTTransformer

    model = FTTransformer(categories=(4, 5), num_continuous=3, dim=16, depth=2, heads=2)
    categ = torch.stack([torch.randint(0, n, (4,)) for n in (4, 5)], dim=-1)
    return model, (categ, torch.randn(4, 3)), {"return_attn": True}

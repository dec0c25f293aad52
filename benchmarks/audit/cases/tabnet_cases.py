"""pytorch-tabnet: TabNet's network (attentive transformer, sparsemax/entmax masks, ghost batch norm)."""
import torch

from . import case


def _groups(input_dim):
    return torch.eye(input_dim)  # no feature groups (what pytorch_tabnet.utils builds for [])


@case("tabnet_sparsemax")
def _():
    from pytorch_tabnet.tab_network import TabNet

    net = TabNet(6, 3, n_d=4, n_a=4, n_steps=2, virtual_batch_size=4, group_attention_matrix=_groups(6))
    net.eval()
    return net, (torch.randn(8, 6),), {}


@case("tabnet_entmax_categorical")
def _():
    from pytorch_tabnet.tab_network import TabNet

    net = TabNet(5, 2, n_d=4, n_a=4, n_steps=2, cat_idxs=[0], cat_dims=[3], cat_emb_dim=[2],
                 mask_type="entmax", virtual_batch_size=4,
                 group_attention_matrix=_groups(5))
    net.eval()
    x = torch.randn(8, 5)
    x[:, 0] = torch.randint(0, 3, (8,)).float()
    return net, (x,), {}


@case("tabnet_train_gbn", grad=True)
def _():
    from pytorch_tabnet.tab_network import TabNet

    net = TabNet(6, 3, n_d=4, n_a=4, n_steps=2, virtual_batch_size=4, group_attention_matrix=_groups(6))
    net.train()
    return net, (torch.randn(8, 6),), {}


@case("tabnet_pretraining")
def _():
    from pytorch_tabnet.tab_network import TabNetPretraining

    net = TabNetPretraining(6, n_d=4, n_a=4, n_steps=2, virtual_batch_size=4, group_attention_matrix=_groups(6))
    net.train()
    return net, (torch.randn(8, 6),), {}

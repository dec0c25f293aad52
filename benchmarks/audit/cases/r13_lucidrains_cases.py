"""Round 13 lucidrains models with data-dependent Python logic: E(n)-equivariant transformer over
coordinates with sparse neighbours and adjacency (En-transformer), soft mixture of experts with
padded and dynamic slots (soft-moe-pytorch), memory and compressed-memory recurrence with its
reconstruction loss (compressive-transformer-pytorch), sorted-bucket attention
(sinkhorn-transformer) and the multiscale byte transformer (MEGABYTE-pytorch), with the
autoregressive wrappers' loss and sampling loops."""
import torch

from . import case


@case("en_transformer_neighbors", grad=True)
def _():
    from en_transformer import EnTransformer

    model = EnTransformer(dim=16, depth=1, dim_head=32, heads=2, neighbors=3, edge_dim=4,
                          valid_neighbor_radius=2.0)
    mask = torch.ones(1, 8, dtype=torch.bool)
    mask[0, 6:] = False
    return model, (torch.randn(1, 8, 16), torch.randn(1, 8, 3)), {"edges": torch.randn(1, 8, 8, 4), "mask": mask}


@case("en_transformer_adjacency")
def _():
    from en_transformer import EnTransformer

    model = EnTransformer(num_tokens=10, dim=16, depth=1, dim_head=32, heads=2, neighbors=2,
                          only_sparse_neighbors=True, num_adj_degrees=2, adj_dim=4, rel_pos_emb=True)
    adj = torch.zeros(1, 6, 6, dtype=torch.bool)
    idx = torch.arange(5)
    adj[0, idx, idx + 1] = True
    adj[0, idx + 1, idx] = True
    return model, (torch.randint(0, 10, (1, 6)), torch.randn(1, 6, 3)), {"adj_mat": adj}


@case("en_transformer_global_linear")
def _():
    from en_transformer import EnTransformer

    model = EnTransformer(dim=16, depth=1, dim_head=32, heads=2, num_global_linear_attn_heads=1,
                          use_cross_product=True, talking_heads=True).eval()
    return model, (torch.randn(1, 6, 16), torch.randn(1, 6, 3)), {"return_coor_changes": True}


@case("soft_moe_mask")
def _():
    from soft_moe_pytorch import SoftMoE

    mask = torch.ones(2, 8, dtype=torch.bool)
    mask[1, 5:] = False
    model = SoftMoE(16, seq_len=8, num_experts=4, is_distributed=False)
    return model, (torch.randn(2, 8, 16),), {"mask": mask}


@case("soft_moe_noise", grad=True)
def _():
    from soft_moe_pytorch import SoftMoE

    model = SoftMoE(16, num_slots=2, num_experts=2, geglu=True, is_distributed=False, use_layernorm=True)
    return model, (torch.randn(2, 8, 16),), {"add_noise": True}


@case("soft_moe_dynamic_slots")
def _():
    from soft_moe_pytorch import DynamicSlotsSoftMoE

    mask = torch.ones(2, 7, dtype=torch.bool)
    mask[0, 4:] = False
    return DynamicSlotsSoftMoE(16, num_experts=4), (torch.randn(2, 7, 16),), {"mask": mask}


def _compressive(**kw):
    from compressive_transformer_pytorch import CompressiveTransformer

    return CompressiveTransformer(num_tokens=20, dim=16, seq_len=8, depth=2, heads=2, mem_len=8, cmem_len=4,
                                  cmem_ratio=2, memory_layers=[2], **kw)


@case("compressive_forward", grad=True)
def _():
    return _compressive(), (torch.randint(0, 20, (2, 8)),), {"mask": torch.ones(2, 8, dtype=torch.bool)}


@case("compressive_loss", grad=True)
def _():
    from compressive_transformer_pytorch import AutoregressiveWrapper

    model = AutoregressiveWrapper(_compressive(mogrify_gru=True))
    return model, (torch.randint(0, 20, (2, 17)),), {"return_loss": True}


@case("compressive_generate")
def _():
    from compressive_transformer_pytorch import AutoregressiveWrapper

    model = AutoregressiveWrapper(_compressive())
    return model.generate, (torch.randint(0, 20, (1, 4)), 4), {"eos_token": 3}


@case("sinkhorn_lm")
def _():
    from sinkhorn_transformer import SinkhornTransformerLM

    model = SinkhornTransformerLM(num_tokens=20, dim=16, max_seq_len=16, depth=1, heads=2, bucket_size=4,
                                  n_sortcut=1, n_local_attn_heads=1)
    return model, (torch.randint(0, 20, (2, 16)),), {"input_mask": torch.ones(2, 16, dtype=torch.bool)}


@case("sinkhorn_causal_loss", grad=True)
def _():
    from sinkhorn_transformer import AutoregressiveWrapper, SinkhornTransformerLM

    model = AutoregressiveWrapper(SinkhornTransformerLM(num_tokens=20, dim=16, max_seq_len=16, depth=1, heads=2,
                                                        bucket_size=4, causal=True, reversible=True))
    return model, (torch.randint(0, 20, (2, 17)),), {"return_loss": True}


@case("sinkhorn_generate")
def _():
    from sinkhorn_transformer import AutoregressiveWrapper, SinkhornTransformerLM

    model = AutoregressiveWrapper(SinkhornTransformerLM(num_tokens=20, dim=16, max_seq_len=16, depth=1, heads=2,
                                                        bucket_size=4, causal=True))
    return model.generate, (torch.randint(0, 20, (1, 4)), 3), {}


def _megabyte(**kw):
    from MEGABYTE_pytorch import MEGABYTE

    return MEGABYTE(num_tokens=20, dim=(16, 8), depth=(1, 1), max_seq_len=(4, 4), dim_head=8, heads=2, **kw)


@case("megabyte_loss", grad=True)
def _():
    return _megabyte(rel_pos=True), (torch.randint(0, 20, (2, 16)),), {"return_loss": True}


@case("megabyte_partial")
def _():
    return _megabyte(pos_emb=True), (torch.randint(0, 20, (2, 10)),), {}


@case("megabyte_generate")
def _():
    return _megabyte().generate, (), {"prime": torch.randint(0, 20, (1, 3))}

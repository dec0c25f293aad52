"""Round 12 small models (lucidrains): Conformer speech blocks (conformer), graph transformer over
node and edge features (graph-transformer-pytorch), Mega's multi-headed EMA (mega-pytorch),
hierarchical attention (h-transformer-1d) and PaLM's parallel blocks (PaLM-pytorch), with the
autoregressive wrappers' training loss and sampling loop."""
import torch

from . import case


@case("conformer_block_mask")
def _():
    from conformer import ConformerBlock

    mask = torch.ones(2, 12, dtype=torch.bool)
    mask[1, 8:] = False
    return ConformerBlock(dim=16, dim_head=8, heads=2, conv_kernel_size=5), (torch.randn(2, 12, 16),), {
        "mask": mask}


@case("conformer_causal")
def _():
    from conformer import Conformer

    return Conformer(16, depth=2, dim_head=8, heads=2, conv_kernel_size=5, conv_causal=True), (
        torch.randn(2, 12, 16),), {}


@case("graph_transformer_edges", grad=True)
def _():
    from graph_transformer_pytorch import GraphTransformer

    model = GraphTransformer(dim=16, depth=2, dim_head=8, heads=2, edge_dim=8, with_feedforwards=True,
                             gated_residual=True, rel_pos_emb=True)
    return model, (torch.randn(2, 6, 16), torch.randn(2, 6, 6, 8)), {"mask": torch.ones(2, 6, dtype=torch.bool)}


@case("graph_transformer_adjacency")
def _():
    from graph_transformer_pytorch import GraphTransformer

    model = GraphTransformer(dim=16, depth=1, dim_head=8, heads=2, accept_adjacency_matrix=True)
    adj = torch.rand(2, 6, 6) > 0.5
    return model, (torch.randn(2, 6, 16),), {"adj_mat": adj}


@case("mega_lm")
def _():
    from mega_pytorch import Mega

    model = Mega(num_tokens=20, dim=16, depth=2, ema_heads=4, attn_dim_qk=8, attn_dim_value=16,
                 laplacian_attn_fn=True)
    return model, (torch.randint(0, 20, (2, 16)),), {}


@case("mega_generate")
def _():
    from mega_pytorch import Mega
    from mega_pytorch.autoregressive_wrapper import AutoregressiveWrapper

    wrapper = AutoregressiveWrapper(Mega(num_tokens=20, dim=16, depth=1, ema_heads=2, attn_dim_qk=8,
                                         attn_dim_value=16))
    return wrapper.generate, (torch.randint(0, 20, (1, 4)), 3), {}


@case("h_transformer_1d")
def _():
    from h_transformer_1d import HTransformer1D

    model = HTransformer1D(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8,
                           block_size=8)
    mask = torch.ones(1, 32, dtype=torch.bool)
    return model, (torch.randint(0, 20, (1, 32)),), {"mask": mask}


@case("h_transformer_1d_causal")
def _():
    from h_transformer_1d import HTransformer1D

    model = HTransformer1D(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8,
                           block_size=8, causal=True, shift_tokens=True)
    return model, (torch.randint(0, 20, (1, 32)),), {}


@case("h_transformer_1d_loss", grad=True)
def _():
    from h_transformer_1d import HTransformer1D
    from h_transformer_1d.autoregressive_wrapper import AutoregressiveWrapper

    model = AutoregressiveWrapper(HTransformer1D(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2,
                                                 dim_head=8, block_size=8, causal=True, reversible=True))
    return model, (torch.randint(0, 20, (1, 33)),), {}


@case("palm")
def _():
    from palm_pytorch import PaLM

    return PaLM(num_tokens=20, dim=16, depth=2, dim_head=8, heads=2), (torch.randint(0, 20, (2, 10)),), {}


@case("palm_lite")
def _():
    from palm_pytorch.palm_lite import PaLM

    return PaLM(num_tokens=20, dim=16, depth=2, dim_head=8, heads=2), (torch.randint(0, 20, (2, 10)),), {}


@case("palm_generate")
def _():
    from palm_pytorch import PaLM
    from palm_pytorch.autoregressive_wrapper import AutoregressiveWrapper

    wrapper = AutoregressiveWrapper(PaLM(num_tokens=20, dim=16, depth=1, dim_head=8, heads=2))
    return wrapper.generate, (torch.randint(0, 20, (1, 4)), 3), {"eos_token": 5}

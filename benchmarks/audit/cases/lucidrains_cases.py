"""vector-quantize-pytorch and st-moe-pytorch (with their helpers colt5/local-attention)."""
import torch

from . import case


@case("vector_quantize_eval")
def _():
    from vector_quantize_pytorch import VectorQuantize

    return VectorQuantize(dim=16, codebook_size=32).eval(), (torch.randn(2, 8, 16),), {}


@case("vector_quantize_train", grad=True)
def _():
    from vector_quantize_pytorch import VectorQuantize

    vq = VectorQuantize(dim=16, codebook_size=32, kmeans_init=True, kmeans_iters=2).train()
    return vq, (torch.randn(2, 8, 16),), {}


@case("residual_vq")
def _():
    from vector_quantize_pytorch import ResidualVQ

    return ResidualVQ(dim=16, num_quantizers=3, codebook_size=32).eval(), (torch.randn(2, 8, 16),), {}


@case("fsq")
def _():
    from vector_quantize_pytorch import FSQ

    return FSQ(levels=[8, 5, 5]).eval(), (torch.randn(2, 8, 3),), {}


@case("lfq", grad=True)
def _():
    from vector_quantize_pytorch import LFQ

    return LFQ(dim=16, codebook_size=2 ** 4, entropy_loss_weight=0.1).train(), (torch.randn(2, 8, 16),), {}


@case("st_moe")
def _():
    from st_moe_pytorch import MoE

    return MoE(dim=16, num_experts=4, gating_top_n=2).eval(), (torch.randn(2, 8, 16),), {}


@case("st_moe_block_train", grad=True)
def _():
    from st_moe_pytorch import MoE, SparseMoEBlock

    moe = MoE(dim=16, num_experts=4, gating_top_n=2)
    return SparseMoEBlock(moe, add_ff_before=True, add_ff_after=True).train(), (torch.randn(2, 8, 16),), {}

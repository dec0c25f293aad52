"""reformer-pytorch: LSH attention with sorting into buckets, reversible layers (lucidrains)."""
import torch

from . import case


@case("reformer_lm")
def _():
    from reformer_pytorch import ReformerLM

    lm = ReformerLM(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8, bucket_size=4,
                    n_hashes=2, ff_chunks=1)
    lm.eval()
    return lm, (torch.randint(0, 20, (2, 32)),), {}


@case("lsh_self_attention_causal_mask")
def _():
    from reformer_pytorch import LSHSelfAttention

    attn = LSHSelfAttention(dim=16, heads=2, dim_head=8, bucket_size=4, n_hashes=2, causal=True)
    return attn, (torch.randn(2, 16, 16),), {"input_mask": torch.ones(2, 16, dtype=torch.bool)}


@case("reformer_full_attn_thres")
def _():
    from reformer_pytorch import Reformer

    model = Reformer(dim=16, depth=1, heads=2, dim_head=8, bucket_size=4, n_hashes=1, full_attn_thres=16,
                     n_local_attn_heads=1)
    return model, (torch.randn(2, 16, 16),), {}

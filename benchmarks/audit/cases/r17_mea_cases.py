"""Round 17: memory-efficient-attention-pytorch (chunked attention in Python loops over query
and key buckets, the flash-attention forward and backward as an `autograd.Function`, cosine-sim
attention, a transformer LM and its autoregressive wrapper's loss; its sampling loop left out:
over 5 minutes under Dynamo on the loaded machine)."""
import torch

from . import case


@case("attention_chunked")
def _():
    from memory_efficient_attention_pytorch import Attention

    attn = Attention(dim=16, heads=2, dim_head=8, causal=True, memory_efficient=True, q_bucket_size=4, k_bucket_size=4)
    mask = torch.ones(2, 12, dtype=torch.bool)
    mask[1, -3:] = False
    return attn, (torch.randn(2, 12, 16),), dict(mask=mask)


@case("memory_efficient_attention_fn")
def _():
    from memory_efficient_attention_pytorch import memory_efficient_attention

    q, k, v = (torch.randn(1, 2, 10, 8) for _ in range(3))
    return memory_efficient_attention, (q, k, v), dict(causal=True, q_bucket_size=4, k_bucket_size=4)


@case("flash_attention", grad=True)
def _():
    from memory_efficient_attention_pytorch import FlashAttention

    attn = FlashAttention(dim=16, heads=2, dim_head=8, causal=True, q_bucket_size=4, k_bucket_size=4)
    mask = torch.ones(2, 12, dtype=torch.bool)
    return attn, (torch.randn(2, 12, 16),), dict(mask=mask)


@case("cosine_sim_attention")
def _():
    from memory_efficient_attention_pytorch import CosineSimAttention

    attn = CosineSimAttention(dim=16, seq_len=12, heads=2, dim_head=8, causal=True, memory_efficient=True,
                              q_bucket_size=4, k_bucket_size=4)
    return attn, (torch.randn(2, 12, 16),), {}


def _lm():
    from memory_efficient_attention_pytorch.transformer import Transformer
    from memory_efficient_attention_pytorch.autoregressive_wrapper import AutoregressiveWrapper

    net = Transformer(num_tokens=20, max_seq_len=16, dim=16, depth=1, causal=True, dim_head=8, heads=2,
                      q_bucket_size=4, k_bucket_size=4)
    return AutoregressiveWrapper(net)


@case("lm_loss", grad=True)
def _():
    return _lm(), (torch.randint(0, 20, (2, 13)),), {}


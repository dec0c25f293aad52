"""linear-attention-transformer: linear attention with local heads and reversible layers (lucidrains)."""
import torch

from . import case


@case("linear_attention_lm")
def _():
    from linear_attention_transformer import LinearAttentionTransformerLM

    lm = LinearAttentionTransformerLM(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8,
                                      n_local_attn_heads=1, local_attn_window_size=8)
    lm.eval()
    return lm, (torch.randint(0, 20, (2, 32)),), {}


@case("linear_attention_causal_reversible", grad=True)
def _():
    from linear_attention_transformer import LinearAttentionTransformer

    model = LinearAttentionTransformer(dim=16, depth=2, max_seq_len=32, heads=2, dim_head=8, causal=True,
                                       reversible=True, blindspot_size=2)
    return model, (torch.randn(2, 32, 16),), {}

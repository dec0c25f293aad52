"""routing-transformer: attention routed by online k-means clusters (lucidrains)."""
import torch

from . import case


@case("routing_lm", grad=True)
def _():
    from routing_transformer import RoutingTransformerLM

    lm = RoutingTransformerLM(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8,
                              window_size=8, n_local_attn_heads=1, causal=True)
    lm.train()
    return lm, (torch.randint(0, 20, (2, 32)),), {}


@case("routing_lm_eval_mask")
def _():
    from routing_transformer import RoutingTransformerLM

    lm = RoutingTransformerLM(num_tokens=20, dim=16, depth=1, max_seq_len=32, heads=2, dim_head=8,
                              window_size=8, n_local_attn_heads=1)
    lm.eval()
    return lm, (torch.randint(0, 20, (2, 32)),), {"input_mask": torch.ones(2, 32, dtype=torch.bool)}

"""performer-pytorch: FAVOR+ linear attention (lucidrains), with feature redraws."""
import torch

from . import case


@case("performer_lm")
def _():
    from performer_pytorch import PerformerLM

    lm = PerformerLM(num_tokens=20, max_seq_len=16, dim=16, depth=1, heads=2, dim_head=8, nb_features=8)
    lm.eval()
    return lm, (torch.randint(0, 20, (2, 16)),), {}


@case("performer_causal_mask", grad=True)
def _():
    from performer_pytorch import Performer

    model = Performer(dim=16, depth=1, heads=2, dim_head=8, causal=True, nb_features=8,
                      feature_redraw_interval=1)
    model.train()
    return model, (torch.randn(2, 8, 16),), {"mask": torch.ones(2, 8, dtype=torch.bool)}


@case("self_attention_generalized")
def _():
    from performer_pytorch import SelfAttention

    attn = SelfAttention(dim=16, heads=2, dim_head=8, nb_features=8, generalized_attention=True)
    return attn, (torch.randn(2, 8, 16),), {}

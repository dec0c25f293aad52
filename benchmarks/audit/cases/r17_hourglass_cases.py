"""Round 17: hourglass-transformer-pytorch (hierarchical transformer LM: sequences shortened
and upsampled, nested hourglass levels; its autoregressive wrapper's loss; its sampling loop is
left out: over 6 minutes under Dynamo). Lengths are multiples of the shortening: the package's
padding path calls `math` it never imports."""
import torch

from . import case


def _lm(updown="linear"):
    from hourglass_transformer_pytorch import HourglassTransformerLM

    return HourglassTransformerLM(num_tokens=20, dim=16, max_seq_len=16, depth=(1, (1, 1, 1), 1),
                                  shorten_factor=(2, 2), heads=2, dim_head=8, updown_sample_type=updown)


@case("lm_linear")
def _():
    mask = torch.ones(2, 12, dtype=torch.bool)
    mask[0, -2:] = False
    return _lm(), (torch.randint(0, 20, (2, 12)),), dict(mask=mask)


@case("lm_naive_noncausal")
def _():
    from hourglass_transformer_pytorch import HourglassTransformerLM

    m = HourglassTransformerLM(num_tokens=20, dim=16, max_seq_len=16, depth=(1, 1, 1), shorten_factor=3,
                               heads=2, dim_head=8, updown_sample_type="naive", causal=False, attn_resampling=False)
    return m, (torch.randint(0, 20, (2, 12)),), {}


@case("wrapper_loss", grad=True)
def _():
    from hourglass_transformer_pytorch.autoregressive_wrapper import AutoregressiveWrapper

    return AutoregressiveWrapper(_lm()), (torch.randint(0, 20, (2, 13)),), {}


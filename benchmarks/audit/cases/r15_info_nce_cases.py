"""Round 15: info-nce-pytorch (the InfoNCE contrastive loss with in-batch, unpaired and paired
negatives)."""
import torch

from . import case


@case("info_nce_in_batch", grad=True)
def _():
    from info_nce import InfoNCE

    return InfoNCE(temperature=0.1), (torch.randn(8, 16), torch.randn(8, 16)), {}


@case("info_nce_unpaired", grad=True)
def _():
    from info_nce import InfoNCE

    return InfoNCE(negative_mode="unpaired"), (torch.randn(8, 16), torch.randn(8, 16), torch.randn(12, 16)), {}


@case("info_nce_paired_sum")
def _():
    from info_nce import info_nce

    args = (torch.randn(8, 16), torch.randn(8, 16), torch.randn(8, 5, 16))
    return info_nce, args, dict(reduction="sum", negative_mode="paired")

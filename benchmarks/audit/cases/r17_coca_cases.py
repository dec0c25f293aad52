"""Round 17: CoCa-pytorch (contrastive captioners: unimodal and multimodal text layers over
precomputed image tokens, attention pooling, caption and contrastive losses)."""
import torch

from . import case


def _coca():
    from coca_pytorch import CoCa

    return CoCa(dim=16, num_tokens=20, unimodal_depth=1, multimodal_depth=1, image_dim=12, num_img_queries=4,
                dim_head=8, heads=2, ff_mult=2)


@case("coca_loss", grad=True)
def _():
    text = torch.randint(1, 20, (2, 7))
    text[1, -2:] = 0
    return _coca(), (text,), dict(image_tokens=torch.randn(2, 5, 12), return_loss=True)


@case("coca_logits")
def _():
    return _coca(), (torch.randint(1, 20, (2, 6)),), dict(image_tokens=torch.randn(2, 5, 12))


@case("coca_embeddings")
def _():
    return _coca(), (torch.randint(1, 20, (2, 6)),), dict(image_tokens=torch.randn(2, 5, 12), return_embeddings=True)

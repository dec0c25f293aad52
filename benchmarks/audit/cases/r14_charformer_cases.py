"""Round 14: charformer-pytorch (tokenizer-free text: gradient-based subword tokenization over
byte blocks with offsets, masked block means, score consensus attention)."""
import torch

from . import case


def _gbst(**kw):
    from charformer_pytorch import GBST

    return GBST(num_tokens=257, dim=16, max_block_size=4, downsample_factor=2, **kw)


@case("gbst")
def _():
    return _gbst(score_consensus_attn=True), (torch.randint(0, 257, (2, 12)),), {}


@case("gbst_mask_offsets", grad=True)
def _():
    from charformer_pytorch import GBST

    model = GBST(num_tokens=257, dim=16, blocks=((3, 0), (3, 1), (2, 0)), downsample_factor=3,
                 score_consensus_attn=False)
    mask = torch.ones(2, 12, dtype=torch.bool)
    mask[1, 9:] = False
    return model, (torch.randint(0, 257, (2, 12)),), {"mask": mask}

"""Round 17: invariant-point-attention (AlphaFold2's structure-module attention over residue
frames: scalar, point and pairwise terms, masks, the IPA block)."""
import torch

from . import case


def _frames(b=1, n=6):
    q, _ = torch.linalg.qr(torch.randn(b, n, 3, 3))
    return q, torch.randn(b, n, 3)


@case("ipa")
def _():
    from invariant_point_attention import InvariantPointAttention

    attn = InvariantPointAttention(dim=16, heads=2, scalar_key_dim=8, scalar_value_dim=8,
                                   point_key_dim=2, point_value_dim=2, pairwise_repr_dim=8)
    rot, tr = _frames()
    mask = torch.ones(1, 6, dtype=torch.bool)
    mask[:, -2:] = False
    return attn, (torch.randn(1, 6, 16), torch.randn(1, 6, 6, 8)), dict(rotations=rot, translations=tr, mask=mask)


@case("ipa_block", grad=True)
def _():
    from invariant_point_attention import IPABlock

    block = IPABlock(dim=16, heads=2, scalar_key_dim=8, scalar_value_dim=8, point_key_dim=2,
                     point_value_dim=2, require_pairwise_repr=False, post_norm=False)
    rot, tr = _frames()
    return block, (torch.randn(1, 6, 16),), dict(rotations=rot, translations=tr)

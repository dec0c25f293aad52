"""x-unet: lucidrains' UNet for images and video (3d convs, attention, nested UNets)."""
import torch

from . import case


@case("xunet_image")
def _():
    from x_unet import XUnet

    net = XUnet(dim=8, channels=3, dim_mults=(1, 2), num_blocks_per_stage=(1, 1),
                num_self_attn_per_stage=(0, 1), nested_unet_depths=(0, 0), attn_heads=2, attn_dim_head=8)
    return net, (torch.randn(1, 3, 16, 16),), {}


@case("xunet_video_nested_convnext")
def _():
    from x_unet import XUnet

    net = XUnet(dim=8, channels=3, frame_kernel_size=3, dim_mults=(1, 2), num_blocks_per_stage=(1, 1),
                num_self_attn_per_stage=(0, 1), nested_unet_depths=(1, 0), nested_unet_dim=8,
                use_convnext=True, weight_standardize=True, attn_heads=2, attn_dim_head=8)
    return net, (torch.randn(1, 3, 2, 16, 16),), {}

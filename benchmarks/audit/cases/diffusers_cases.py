"""diffusers: denoising UNets, a DiT and schedulers."""
import torch

from . import case


@case("unet2d")
def _():
    from diffusers import UNet2DModel

    net = UNet2DModel(sample_size=8, in_channels=3, out_channels=3, layers_per_block=1,
                      block_out_channels=(8, 16), down_block_types=("DownBlock2D", "AttnDownBlock2D"),
                      up_block_types=("AttnUpBlock2D", "UpBlock2D"), norm_num_groups=4,
                      attention_head_dim=8).eval()
    return net, (torch.randn(1, 3, 8, 8), torch.tensor([10])), {}


@case("unet2d_condition")
def _():
    from diffusers import UNet2DConditionModel

    net = UNet2DConditionModel(sample_size=8, in_channels=4, out_channels=4, layers_per_block=1,
                               block_out_channels=(8, 16),
                               down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
                               up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
                               cross_attention_dim=16, norm_num_groups=4, attention_head_dim=4).eval()
    return net, (torch.randn(1, 4, 8, 8), 5, torch.randn(1, 3, 16)), {}


@case("ddpm_step")
def _():
    from diffusers import DDPMScheduler

    sched = DDPMScheduler(num_train_timesteps=50)
    sched.set_timesteps(10)
    t = sched.timesteps[0]
    return sched.step, (torch.randn(1, 3, 8, 8), t, torch.randn(1, 3, 8, 8)), {}


@case("dit")
def _():
    from diffusers import DiTTransformer2DModel

    net = DiTTransformer2DModel(num_attention_heads=2, attention_head_dim=8, in_channels=4, out_channels=4,
                                num_layers=1, sample_size=8, patch_size=2, num_embeds_ada_norm=10).eval()
    return net, (torch.randn(1, 4, 8, 8),), {"timestep": torch.tensor([3]), "class_labels": torch.tensor([1])}


@case("euler_step")
def _():
    from diffusers import EulerDiscreteScheduler

    sched = EulerDiscreteScheduler(num_train_timesteps=50)
    sched.set_timesteps(10)
    t = sched.timesteps[0]
    return sched.step, (torch.randn(1, 3, 8, 8), t, torch.randn(1, 3, 8, 8)), {}

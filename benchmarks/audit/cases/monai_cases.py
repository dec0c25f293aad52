"""MONAI: medical imaging networks, losses and inference."""
import torch

from . import case


@case("unet")
def _():
    from monai.networks.nets import UNet

    net = UNet(spatial_dims=2, in_channels=1, out_channels=2, channels=(4, 8, 16), strides=(2, 2),
               num_res_units=1).eval()
    return net, (torch.rand(1, 1, 16, 16),), {}


@case("basic_unet")
def _():
    from monai.networks.nets import BasicUNet

    net = BasicUNet(spatial_dims=2, in_channels=1, out_channels=2, features=(4, 4, 8, 8, 16, 4)).eval()
    return net, (torch.rand(1, 1, 32, 32),), {}


@case("dice_loss", grad=True)
def _():
    from monai.losses import DiceLoss

    pred = torch.randn(2, 3, 8, 8, requires_grad=True)
    target = torch.randint(0, 3, (2, 1, 8, 8))
    return DiceLoss(to_onehot_y=True, softmax=True), (pred, target), {}


@case("sliding_window_inference")
def _():
    from monai.inferers import sliding_window_inference

    net = torch.nn.Conv2d(1, 2, 3, padding=1).eval()
    return sliding_window_inference, (torch.rand(1, 1, 24, 24), (16, 16), 2, net), {"overlap": 0.25}


@case("swin_unetr")
def _():
    from monai.networks.nets import SwinUNETR

    net = SwinUNETR(in_channels=1, out_channels=2, feature_size=12, spatial_dims=2, depths=(1, 1, 1, 1),
                    num_heads=(1, 1, 1, 1)).eval()
    return net, (torch.rand(1, 1, 64, 64),), {}


@case("focal_loss", grad=True)
def _():
    from monai.losses import FocalLoss

    pred = torch.randn(2, 3, 8, 8, requires_grad=True)
    target = torch.randint(0, 3, (2, 1, 8, 8))
    return FocalLoss(to_onehot_y=True), (pred, target), {}

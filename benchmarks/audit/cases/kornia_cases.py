"""kornia: differentiable image processing, augmentation and geometry."""
import torch

from . import case


def _img(b=2, c=3, h=16, w=16):
    return torch.rand(b, c, h, w)


@case("gaussian_blur2d")
def _():
    import kornia

    return kornia.filters.gaussian_blur2d, (_img(), (5, 5), (1.5, 1.5)), {}


@case("rgb_to_hsv")
def _():
    import kornia

    return kornia.color.rgb_to_hsv, (_img(),), {}


@case("warp_perspective")
def _():
    import kornia

    m = torch.eye(3).repeat(2, 1, 1)
    m[:, 0, 2] = 1.5
    return kornia.geometry.transform.warp_perspective, (_img(), m, (16, 16)), {}


@case("augmentation_sequential")
def _():
    import kornia.augmentation as K

    aug = K.AugmentationSequential(K.RandomHorizontalFlip(p=0.5), K.ColorJitter(0.1, 0.1, 0.1, 0.1, p=1.0),
                                   K.RandomAffine(degrees=10.0, p=1.0))
    return aug, (_img(),), {}


@case("equalize")
def _():
    import kornia

    return kornia.enhance.equalize, (_img(),), {}


@case("ssim_loss", grad=True)
def _():
    import kornia

    return kornia.losses.ssim_loss, (_img().requires_grad_(), _img(), 5), {}


@case("canny")
def _():
    import kornia

    return kornia.filters.canny, (_img(),), {}


@case("axis_angle_to_rotation_matrix")
def _():
    import kornia

    return kornia.geometry.conversions.axis_angle_to_rotation_matrix, (torch.rand(4, 3),), {}


@case("sift_descriptor")
def _():
    import kornia

    return kornia.feature.SIFTDescriptor(32, 8, 4), (torch.rand(4, 1, 32, 32),), {}

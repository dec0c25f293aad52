"""pytorch-msssim: SSIM and MS-SSIM, image losses users compile in training."""
import torch

from . import case


@case("ssim_function")
def _():
    from pytorch_msssim import ssim

    x, y = torch.rand(2, 3, 32, 32), torch.rand(2, 3, 32, 32)
    return ssim, (x, y), {"data_range": 1.0, "size_average": True}


@case("ssim_module_loss", grad=True)
def _():
    from pytorch_msssim import SSIM

    crit = SSIM(data_range=1.0, channel=3)
    return crit, (torch.rand(2, 3, 32, 32, requires_grad=True), torch.rand(2, 3, 32, 32)), {}


@case("ms_ssim_module")
def _():
    from pytorch_msssim import MS_SSIM

    crit = MS_SSIM(data_range=1.0, channel=1, win_size=3, weights=[0.5, 0.3, 0.2])
    return crit, (torch.rand(1, 1, 64, 64), torch.rand(1, 1, 64, 64)), {}


@case("ssim_volumes")
def _():
    from pytorch_msssim import ssim

    x, y = torch.rand(1, 1, 16, 16, 16), torch.rand(1, 1, 16, 16, 16)
    return ssim, (x, y), {"data_range": 1.0, "win_size": 5}

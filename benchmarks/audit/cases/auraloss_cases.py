"""auraloss: audio losses in the time and frequency domain (STFT losses users compile in training)."""
import torch

from . import case


def _pair(n=2048):
    return torch.randn(2, 1, n), torch.randn(2, 1, n)


@case("multi_resolution_stft_loss")
def _():
    from auraloss.freq import MultiResolutionSTFTLoss

    loss = MultiResolutionSTFTLoss(fft_sizes=[256, 128], hop_sizes=[64, 32], win_lengths=[256, 128])
    return loss, _pair(), {}


@case("sum_and_difference_stft_loss")
def _():
    from auraloss.freq import SumAndDifferenceSTFTLoss

    loss = SumAndDifferenceSTFTLoss(fft_sizes=[256], hop_sizes=[64], win_lengths=[256])
    return loss, (torch.randn(2, 2, 2048), torch.randn(2, 2, 2048)), {}


@case("random_resolution_stft_loss")
def _():
    from auraloss.freq import RandomResolutionSTFTLoss

    return RandomResolutionSTFTLoss(resolutions=2, min_fft_size=64, max_fft_size=256), _pair(), {}


@case("sisdr_loss")
def _():
    from auraloss.time import SISDRLoss

    return SISDRLoss(), _pair(), {}


@case("esr_dc_logcosh_losses")
def _():
    from auraloss.time import DCLoss, ESRLoss, LogCoshLoss

    esr, dc, lc = ESRLoss(), DCLoss(), LogCoshLoss()

    def losses(a, b):
        return esr(a, b) + dc(a, b) + lc(a, b)

    return losses, _pair(), {}

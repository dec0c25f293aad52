"""julius: audio DSP (resampling, low/high/band-pass filters, FFT convolution)."""
import torch

from . import case


def _wav(b=2, n=400):
    return torch.randn(b, 1, n)


@case("resample_frac")
def _():
    import julius

    return julius.resample_frac, (_wav(), 4, 5), {}


@case("lowpass_filter")
def _():
    import julius

    return julius.lowpass_filter, (_wav(), 0.1), {}


@case("lowpass_filters_fft")
def _():
    import julius

    return julius.LowPassFilters([0.05, 0.2], fft=True), (_wav(n=800),), {}


@case("split_bands")
def _():
    import julius

    return julius.split_bands, (_wav(), 16000), {"n_bands": 4}


@case("bandpass_filter")
def _():
    import julius

    return julius.bandpass_filter, (_wav(), 0.05, 0.2), {}


@case("fft_conv1d", grad=True)
def _():
    import julius

    return julius.FFTConv1d(1, 4, 64), (_wav(n=512).requires_grad_(),), {}

"""Round 14: torchlibrosa (audio front ends in plain PyTorch: STFT and ISTFT as convolutions,
log-mel filter banks, framing, and SpecAugment's stripe dropping with random widths)."""
import torch

from . import case


@case("spectrogram")
def _():
    from torchlibrosa.stft import Spectrogram

    return Spectrogram(n_fft=64, hop_length=16, freeze_parameters=True), (torch.randn(2, 400),), {}


@case("logmel", grad=True)
def _():
    from torchlibrosa.stft import LogmelFilterBank, Spectrogram

    spec = Spectrogram(n_fft=64, hop_length=16)
    mel = LogmelFilterBank(sr=8000, n_fft=64, n_mels=16, fmin=0.0, fmax=4000, top_db=80.0,
                           freeze_parameters=False)
    return mel, (spec(torch.randn(2, 400)),), {}


@case("stft_istft")
def _():
    from torchlibrosa.stft import ISTFT, STFT

    stft = STFT(n_fft=64, hop_length=16, freeze_parameters=True)
    istft = ISTFT(n_fft=64, hop_length=16, freeze_parameters=True)
    real, imag = stft(torch.randn(2, 400))
    return istft, (real, imag, 400), {}


@case("enframe")
def _():
    from torchlibrosa.stft import Enframe

    return Enframe(frame_length=64, hop_length=16), (torch.randn(2, 400),), {}


@case("spec_augmentation")
def _():
    from torchlibrosa.augmentation import SpecAugmentation

    model = SpecAugmentation(time_drop_width=8, time_stripes_num=2, freq_drop_width=4, freq_stripes_num=2)
    model.train()
    return model, (torch.randn(2, 1, 32, 16),), {}

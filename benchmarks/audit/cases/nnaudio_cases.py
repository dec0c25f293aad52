"""Round 10: nnAudio spectrogram layers (STFT, mel, MFCC, CQT, gammatone) on a short waveform."""
import torch

from . import case


def _wave():
    return torch.randn(2, 4096)


@case("stft")
def _():
    from nnAudio.features import STFT

    return STFT(n_fft=256, hop_length=64, sr=8000, output_format="Magnitude", verbose=False), (_wave(),), {}


@case("stft_inverse")
def _():
    from nnAudio.features import STFT

    stft = STFT(n_fft=256, hop_length=64, sr=8000, output_format="Complex", iSTFT=True, verbose=False)
    spec = stft(_wave())
    return stft.inverse, (spec,), {"onesided": True, "length": 4096}


@case("mel_spectrogram")
def _():
    from nnAudio.features import MelSpectrogram

    return MelSpectrogram(sr=8000, n_fft=256, n_mels=32, hop_length=64, verbose=False), (_wave(),), {}


@case("mfcc")
def _():
    from nnAudio.features import MFCC

    return MFCC(sr=8000, n_mfcc=13, n_fft=256, n_mels=32, hop_length=64, verbose=False), (_wave(),), {}


@case("cqt")
def _():
    from nnAudio.features import CQT1992v2

    return CQT1992v2(sr=8000, hop_length=64, fmin=100, n_bins=24, verbose=False), (_wave(),), {}


@case("gammatonegram")
def _():
    from nnAudio.features import Gammatonegram

    return Gammatonegram(sr=8000, n_fft=256, n_bins=32, hop_length=64, verbose=False), (_wave(),), {}

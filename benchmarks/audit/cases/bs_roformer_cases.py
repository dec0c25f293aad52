"""Round 10: BS-RoFormer and Mel-Band RoFormer (music source separation: STFT, band split,
axial transformers with hyper-connections, multi-resolution STFT loss), tiny settings."""
import torch

from . import case

_SMALL = dict(dim=16, depth=1, time_transformer_depth=1, freq_transformer_depth=1, dim_head=8, heads=2,
              stft_n_fft=64, stft_hop_length=16, stft_win_length=64, dim_freqs_in=33,
              multi_stft_resolutions_window_sizes=(64, 32), multi_stft_hop_size=16)


def _bs(**kw):
    from bs_roformer import BSRoformer

    return BSRoformer(freqs_per_bands=(1,) * 9 + (8, 8, 8), **_SMALL, **kw)


@case("bs_roformer_separate")
def _():
    return _bs().eval(), (torch.randn(2, 2048),), {}


@case("bs_roformer_loss", grad=True)
def _():
    return _bs(num_residual_streams=1), (torch.randn(2, 2048),), {"target": torch.randn(2, 2048)}


@case("mel_band_roformer_separate")
def _():
    from bs_roformer import MelBandRoformer

    model = MelBandRoformer(num_bands=8, sample_rate=8000, **_SMALL).eval()
    return model, (torch.randn(2, 2048),), {}

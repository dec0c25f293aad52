"""asteroid-filterbanks: learnable and fixed audio filterbanks (encoders, decoders, PCEN)."""
import torch

from . import case


@case("stft_encoder_decoder")
def _():
    from asteroid_filterbanks import make_enc_dec

    enc, dec = make_enc_dec("stft", n_filters=64, kernel_size=32, stride=16)

    def roundtrip(wav):
        return dec(enc(wav))

    return roundtrip, (torch.randn(2, 1, 800),), {}


@case("param_sinc_encoder")
def _():
    from asteroid_filterbanks import make_enc_dec

    enc, _ = make_enc_dec("param_sinc", n_filters=32, kernel_size=65, stride=16)
    return enc, (torch.randn(2, 1, 800),), {}


@case("analytic_free_encoder_mag")
def _():
    from asteroid_filterbanks import make_enc_dec
    from asteroid_filterbanks.transforms import mag

    enc, _ = make_enc_dec("analytic_free", n_filters=32, kernel_size=16, stride=8)

    def spec(wav):
        return mag(enc(wav))

    return spec, (torch.randn(2, 1, 800),), {}


@case("torch_stft_encoder_decoder")
def _():
    from asteroid_filterbanks import make_enc_dec

    enc, dec = make_enc_dec("torch_stft", n_filters=32, kernel_size=32, stride=16)

    def roundtrip(wav):
        return dec(enc(wav), length=wav.shape[-1])

    return roundtrip, (torch.randn(2, 1, 800),), {}


@case("pcen")
def _():
    from asteroid_filterbanks.pcen import PCEN

    return PCEN(n_channels=10), (torch.rand(2, 1, 20, 30),), {}


@case("stateful_pcen")
def _():
    from asteroid_filterbanks.pcen import StatefulPCEN

    return StatefulPCEN(n_channels=10), (torch.rand(2, 1, 20, 30),), {}

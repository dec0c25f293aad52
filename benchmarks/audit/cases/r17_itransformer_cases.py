"""Round 17: iTransformer (time series forecasting with variates as tokens: memory tokens,
reversible instance normalisation, multiple prediction lengths, the 2D and FFT variants, losses
against targets)."""
import torch

from . import case


def _kw(**extra):
    kw = dict(num_variates=3, lookback_len=16, depth=2, dim=32, pred_length=(4, 8), heads=2, dim_head=8)
    kw.update(extra)
    return kw


@case("itransformer")
def _():
    from iTransformer import iTransformer

    return iTransformer(**_kw(num_residual_streams=1)).eval(), (torch.randn(2, 16, 3),), {}


@case("itransformer_revin_loss", grad=True)
def _():
    from iTransformer import iTransformer

    m = iTransformer(**_kw(use_reversible_instance_norm=True, num_tokens_per_variate=2))
    return m, (torch.randn(2, 16, 3),), dict(targets=(torch.randn(2, 4, 3), torch.randn(2, 8, 3)))


@case("itransformer2d", grad=True)
def _():
    from iTransformer import iTransformer2D

    m = iTransformer2D(**_kw(num_time_tokens=4, pred_length=4, use_reversible_instance_norm=True))
    return m, (torch.randn(2, 16, 3),), dict(targets=torch.randn(2, 4, 3))


@case("itransformer_fft")
def _():
    from iTransformer import iTransformerFFT

    return iTransformerFFT(**_kw(pred_length=4)).eval(), (torch.randn(2, 16, 3),), {}


@case("revin")
def _():
    from iTransformer.revin import RevIN

    return RevIN(3), (torch.randn(2, 3, 16),), dict(return_statistics=True)

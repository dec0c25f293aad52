"""normflows: normalizing flows (coupling, autoregressive splines, ActNorm)."""
import torch

from . import case


def _realnvp():
    import normflows as nf

    mask = torch.tensor([1, 0])
    flows = [nf.flows.MaskedAffineFlow(mask, nf.nets.MLP([2, 8, 2], init_zeros=True)), nf.flows.ActNorm(2)]
    return nf.NormalizingFlow(nf.distributions.DiagGaussian(2), flows)


@case("realnvp_log_prob")
def _():
    return _realnvp().log_prob, (torch.randn(5, 2),), {}


@case("realnvp_sample")
def _():
    return _realnvp().sample, (4,), {}


@case("autoregressive_spline_log_prob")
def _():
    import normflows as nf

    flows = [nf.flows.AutoregressiveRationalQuadraticSpline(4, 1, 8)]
    return nf.NormalizingFlow(nf.distributions.DiagGaussian(4), flows).log_prob, (torch.randn(5, 4),), {}


@case("coupled_spline_forward_kld", grad=True)
def _():
    import normflows as nf

    flows = [nf.flows.CoupledRationalQuadraticSpline(4, 1, 8), nf.flows.LULinearPermute(4)]
    return nf.NormalizingFlow(nf.distributions.DiagGaussian(4), flows).forward_kld, (torch.randn(5, 4),), {}

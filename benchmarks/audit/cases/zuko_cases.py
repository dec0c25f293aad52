"""zuko: normalizing flows (autoregressive, spline, coupling) as lazy distributions."""
import torch

from . import case


@case("maf_log_prob", grad=True)
def _():
    import zuko

    flow = zuko.flows.MAF(3, 2, transforms=2, hidden_features=[16])
    return flow(torch.randn(2)).log_prob, (torch.randn(8, 3),), {}


@case("nsf_sample")
def _():
    import zuko

    flow = zuko.flows.NSF(3, 2, transforms=1, hidden_features=[16])
    return flow(torch.randn(2)).rsample, ((8,),), {}


@case("realnvp_forward")
def _():
    import zuko

    return zuko.flows.RealNVP(4, 2, transforms=2, hidden_features=[16]), (torch.randn(2),), {}


@case("naf_log_prob")
def _():
    import zuko

    flow = zuko.flows.NAF(2, transforms=1, hidden_features=[8])
    return flow().log_prob, (torch.randn(5, 2),), {}


@case("gmm_log_prob")
def _():
    import zuko

    return zuko.mixtures.GMM(3, 2, components=4, hidden_features=[16]), (torch.randn(2),), {}

"""Round 14: flowtorch (normalizing flows whose bijectors are lazy until a shape is known,
affine and spline autoregressive transforms over MADE networks, sampling by inversion)."""
import torch

from . import case


def _flow(bijector):
    import flowtorch.distributions as dist

    base = torch.distributions.Independent(torch.distributions.Normal(torch.zeros(3), torch.ones(3)), 1)
    return dist.Flow(base, bijector)


@case("affine_autoregressive_rsample", grad=True)
def _():
    import flowtorch.bijectors as bij

    flow = _flow(bij.AffineAutoregressive())
    return flow.rsample, (torch.Size([5]),), {}


@case("affine_autoregressive_log_prob", grad=True)
def _():
    import flowtorch.bijectors as bij

    flow = _flow(bij.AffineAutoregressive())
    return flow.log_prob, (torch.randn(5, 3),), {}


@case("spline_autoregressive_log_prob")
def _():
    import flowtorch.bijectors as bij

    flow = _flow(bij.SplineAutoregressive())
    return flow.log_prob, (torch.randn(5, 3),), {}


@case("spline_autoregressive_sample")
def _():
    import flowtorch.bijectors as bij

    flow = _flow(bij.SplineAutoregressive())
    return flow.sample, (torch.Size([4]),), {}

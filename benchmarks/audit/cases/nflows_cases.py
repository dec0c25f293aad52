"""Round 10: nflows normalizing flows (MAF, RealNVP, rational-quadratic splines): log_prob and sample."""
import torch

from . import case


def _maf():
    from nflows.flows import MaskedAutoregressiveFlow

    return MaskedAutoregressiveFlow(features=3, hidden_features=8, num_layers=2, num_blocks_per_layer=1).eval()


@case("maf_log_prob")
def _():
    return _maf().log_prob, (torch.randn(5, 3),), {}


@case("maf_sample")
def _():
    return _maf().sample, (4,), {}


@case("realnvp_log_prob")
def _():
    from nflows.flows import SimpleRealNVP

    flow = SimpleRealNVP(features=4, hidden_features=8, num_layers=2, num_blocks_per_layer=1).eval()
    return flow.log_prob, (torch.randn(5, 4),), {}


def _spline_flow(coupling):
    from nflows import distributions, flows, transforms
    from nflows.nn.nets import ResidualNet

    if coupling:
        mask = torch.tensor([1, 0, 1, 0])
        layer = transforms.PiecewiseRationalQuadraticCouplingTransform(
            mask, lambda i, o: ResidualNet(i, o, hidden_features=8, num_blocks=1),
            num_bins=4, tails="linear", tail_bound=3.0)
    else:
        layer = transforms.MaskedPiecewiseRationalQuadraticAutoregressiveTransform(
            features=4, hidden_features=8, num_bins=4, tails="linear", tail_bound=3.0)
    return flows.Flow(transforms.CompositeTransform([layer, transforms.ReversePermutation(4)]),
                      distributions.StandardNormal([4])).eval()


@case("rq_coupling_log_prob")
def _():
    return _spline_flow(True).log_prob, (torch.randn(5, 4),), {}


@case("rq_autoregressive_log_prob")
def _():
    return _spline_flow(False).log_prob, (torch.randn(5, 4),), {}


@case("conditional_sample_and_log_prob")
def _():
    from nflows import distributions, flows, transforms

    flow = flows.Flow(
        transforms.MaskedAffineAutoregressiveTransform(features=2, hidden_features=8, context_features=3),
        distributions.ConditionalDiagonalNormal(shape=[2], context_encoder=torch.nn.Linear(3, 4))).eval()
    return flow.sample_and_log_prob, (2,), {"context": torch.randn(3, 3)}

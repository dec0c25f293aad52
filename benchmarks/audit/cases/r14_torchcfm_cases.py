"""Round 14: torchcfm (conditional flow matching: sampling time, location and target flow,
exact optimal-transport and Schroedinger-bridge couplings through POT on NumPy copies)."""
import torch

from . import case


@case("cfm_sample")
def _():
    from torchcfm.conditional_flow_matching import ConditionalFlowMatcher

    return ConditionalFlowMatcher(sigma=0.1).sample_location_and_conditional_flow, (torch.randn(8, 2), torch.randn(8, 2)), {}


@case("target_cfm_sample")
def _():
    from torchcfm.conditional_flow_matching import TargetConditionalFlowMatcher

    fm = TargetConditionalFlowMatcher(sigma=0.1)
    return fm.sample_location_and_conditional_flow, (torch.randn(8, 2), torch.randn(8, 2)), {"return_noise": True}


@case("vp_cfm_sample")
def _():
    from torchcfm.conditional_flow_matching import VariancePreservingConditionalFlowMatcher

    fm = VariancePreservingConditionalFlowMatcher(sigma=0.1)
    return fm.sample_location_and_conditional_flow, (torch.randn(8, 2), torch.randn(8, 2), torch.rand(8)), {}


@case("exact_ot_cfm_sample")
def _():
    from torchcfm.conditional_flow_matching import ExactOptimalTransportConditionalFlowMatcher

    fm = ExactOptimalTransportConditionalFlowMatcher(sigma=0.1)
    return fm.sample_location_and_conditional_flow, (torch.randn(8, 2), torch.randn(8, 2)), {}


@case("schrodinger_bridge_sample")
def _():
    from torchcfm.conditional_flow_matching import SchrodingerBridgeConditionalFlowMatcher

    fm = SchrodingerBridgeConditionalFlowMatcher(sigma=0.5, ot_method="sinkhorn")
    return fm.sample_location_and_conditional_flow, (torch.randn(8, 2), torch.randn(8, 2)), {}


@case("ot_plan_with_labels")
def _():
    from torchcfm.optimal_transport import OTPlanSampler

    sampler = OTPlanSampler(method="exact")
    return sampler.sample_plan_with_labels, (torch.randn(6, 2), torch.randn(6, 2), torch.arange(6), torch.arange(6)), {}


@case("ot_trajectory")
def _():
    from torchcfm.optimal_transport import OTPlanSampler

    return OTPlanSampler(method="exact").sample_trajectory, (torch.randn(3, 5, 2),), {}

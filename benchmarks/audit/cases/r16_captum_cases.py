"""Round 16: captum (interpretability: attributions that run autograd inside the attributed call,
integrated gradients over interpolation steps, DeepLift's hooks, perturbation methods that loop over
feature groups, noise tunnels that expand and re-run another attribution)."""
import torch

from . import case


def _model():
    return torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 3)).eval()


def _x():
    return torch.randn(2, 6)


@case("integrated_gradients", grad=True)
def _():
    from captum.attr import IntegratedGradients

    return IntegratedGradients(_model()).attribute, (_x(),), dict(target=0, n_steps=8)


@case("saliency", grad=True)
def _():
    from captum.attr import Saliency

    return Saliency(_model()).attribute, (_x(),), dict(target=1)


@case("input_x_gradient", grad=True)
def _():
    from captum.attr import InputXGradient

    return InputXGradient(_model()).attribute, (_x(),), dict(target=2)


@case("deeplift", grad=True)
def _():
    from captum.attr import DeepLift

    return DeepLift(_model()).attribute, (_x(),), dict(target=0)


@case("occlusion", grad=True)
def _():
    from captum.attr import Occlusion

    return Occlusion(_model()).attribute, (_x(),), dict(target=0, sliding_window_shapes=(2,))


@case("feature_ablation", grad=True)
def _():
    from captum.attr import FeatureAblation

    return FeatureAblation(_model()).attribute, (_x(),), dict(target=1)


@case("noise_tunnel", grad=True)
def _():
    from captum.attr import NoiseTunnel, Saliency

    return NoiseTunnel(Saliency(_model())).attribute, (_x(),), dict(target=0, nt_samples=3, nt_type="smoothgrad")


@case("gradient_shap", grad=True)
def _():
    from captum.attr import GradientShap

    return GradientShap(_model()).attribute, (_x(),), dict(baselines=torch.zeros(3, 6), target=0, n_samples=4)

"""Round 9 lucidrains packages: EMA of a model (ema-pytorch), the Lion optimizer, lambda layers, SIREN."""
import torch

from . import case


def _net():
    return torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))


@case("ema_update")
def _():
    from ema_pytorch import EMA

    ema = EMA(_net(), beta=0.99, update_after_step=0, update_every=1)
    return ema.update, (), {}


@case("ema_update_karras_power")
def _():
    from ema_pytorch import EMA

    ema = EMA(_net(), beta=0.999, update_after_step=2, update_every=2, power=2 / 3, include_online_model=False)
    ema.step.fill_(5)
    return ema.update, (), {}


@case("ema_forward")
def _():
    from ema_pytorch import EMA

    ema = EMA(_net())
    return ema, (torch.randn(3, 4),), {}


@case("post_hoc_ema_update")
def _():
    from ema_pytorch import PostHocEMA

    ema = PostHocEMA(_net(), sigma_rels=(0.05, 0.28), update_every=1, checkpoint_every_num_steps=1000,
                     checkpoint_folder="/tmp/tclint-audit-posthoc-ema")
    return ema.update, (), {}


def _lion(**kw):
    from lion_pytorch import Lion

    param = torch.nn.Parameter(torch.randn(4, 4))
    param.grad = torch.randn(4, 4)
    return Lion([param], lr=1e-4, weight_decay=1e-2, **kw).step, (), {}


@case("lion_step")
def _():
    return _lion()


@case("lion_step_decoupled")
def _():
    return _lion(betas=(0.95, 0.98), decoupled_weight_decay=True)


@case("lambda_layer_global")
def _():
    from lambda_networks import LambdaLayer

    layer = LambdaLayer(dim=8, dim_out=8, n=4, dim_k=4, heads=2, dim_u=1)
    return layer, (torch.randn(2, 8, 4, 4),), {}


@case("lambda_layer_local_conv")
def _():
    from lambda_networks import LambdaLayer

    layer = LambdaLayer(dim=8, dim_out=8, r=3, dim_k=4, heads=2, dim_u=2)
    return layer, (torch.randn(2, 8, 6, 6),), {}


@case("siren_wrapper", grad=True)
def _():
    from siren_pytorch import SirenNet, SirenWrapper

    net = SirenNet(dim_in=2, dim_hidden=16, dim_out=3, num_layers=3)
    wrapper = SirenWrapper(net, image_width=8, image_height=8, latent_dim=4)
    return wrapper, (), {"latent": torch.randn(4)}

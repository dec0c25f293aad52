"""Round 15: efficientnet-pytorch (EfficientNet backbones built from their name with smaller
width and depth: same-padding convolutions computed from the input size, drop-connect,
the memory-efficient Swish `autograd.Function`, endpoint extraction)."""
import torch

from . import case


def _net(**kw):
    from efficientnet_pytorch import EfficientNet

    return EfficientNet.from_name("efficientnet-b0", width_coefficient=0.25, depth_coefficient=0.25,
                                  image_size=32, num_classes=5, **kw)


@case("efficientnet_eval")
def _():
    model = _net()
    model.eval()
    return model, (torch.randn(1, 3, 32, 32),), {}


@case("efficientnet_train", grad=True)
def _():
    model = _net(drop_connect_rate=0.2)
    model.train()
    return model, (torch.randn(2, 3, 32, 32),), {}


@case("efficientnet_endpoints")
def _():
    model = _net()
    model.eval()
    model.set_swish(memory_efficient=False)
    return model.extract_endpoints, (torch.randn(1, 3, 32, 32),), {}

"""torch-ema: exponential moving averages of parameters, updated after each optimizer step."""
import torch

from . import case

_KEEP = []  # the EMA holds its parameters weakly: keep each case's model alive


def _ema(**kw):
    from torch_ema import ExponentialMovingAverage

    net = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    _KEEP.append(net)
    return net, ExponentialMovingAverage(net.parameters(), decay=0.99, **kw)


@case("update")
def _():
    _, ema = _ema()
    return ema.update, (), {}


@case("update_num_updates")
def _():
    _, ema = _ema(use_num_updates=True)
    return ema.update, (), {}


@case("store_copy_restore")
def _():
    net, ema = _ema()

    def swap(x):
        ema.store()
        ema.copy_to()
        y = net(x)
        ema.restore()
        return y

    return swap, (torch.randn(3, 4),), {}

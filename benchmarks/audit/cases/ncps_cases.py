"""ncps: neural circuit policies (closed-form continuous-time and liquid time-constant RNNs)."""
import torch

from . import case


@case("cfc")
def _():
    from ncps.torch import CfC

    return CfC(5, 8).eval(), (torch.randn(2, 6, 5),), {}


@case("ltc_wired")
def _():
    from ncps.torch import LTC
    from ncps.wirings import AutoNCP

    return LTC(5, AutoNCP(10, 2)).eval(), (torch.randn(2, 6, 5),), {}

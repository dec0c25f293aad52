"""Round 15: muon-optimizer (Muon: momentum orthogonalised by Newton-Schulz iterations, with an
auxiliary Adam for the other parameters)."""
import torch

from . import case


def _params():
    params = []
    for shape in ((4, 4), (3, 2, 2), (4,)):
        param = torch.nn.Parameter(torch.randn(*shape))
        param.grad = torch.randn(*shape)
        params.append(param)
    return params


@case("muon_single_device_step")
def _():
    from muon import SingleDeviceMuon

    params = [p for p in _params() if p.ndim >= 2]
    return SingleDeviceMuon(params, lr=0.02, weight_decay=0.01).step, (), {}


@case("muon_aux_adam_step")
def _():
    from muon import SingleDeviceMuonWithAuxAdam

    params = _params()
    groups = [dict(params=[p for p in params if p.ndim >= 2], use_muon=True, lr=0.02, weight_decay=0.01),
              dict(params=[p for p in params if p.ndim < 2], use_muon=False, lr=3e-4,
                   betas=(0.9, 0.95), weight_decay=0.01)]
    return SingleDeviceMuonWithAuxAdam(groups).step, (), {}


@case("muon_newton_schulz")
def _():
    from muon import zeropower_via_newtonschulz5

    return zeropower_via_newtonschulz5, (torch.randn(4, 6), 5), {}

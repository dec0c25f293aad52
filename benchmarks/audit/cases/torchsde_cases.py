"""torchsde: stochastic differential equation solvers."""
import torch

from . import case


class _SDE(torch.nn.Module):
    noise_type = "diagonal"
    sde_type = "ito"

    def __init__(self):
        super().__init__()
        self.mu = torch.nn.Linear(3, 3)

    def f(self, t, y):
        return torch.tanh(self.mu(y))

    def g(self, t, y):
        return 0.1 * torch.sigmoid(y)


class _Stratonovich(_SDE):
    sde_type = "stratonovich"


def _ts():
    return torch.linspace(0.0, 0.2, 3)


@case("sdeint_euler")
def _():
    import torchsde

    return torchsde.sdeint, (_SDE(), torch.rand(2, 3), _ts()), {"method": "euler", "dt": 0.05}


@case("sdeint_srk")
def _():
    import torchsde

    return torchsde.sdeint, (_SDE(), torch.rand(2, 3), _ts()), {"method": "srk", "dt": 0.05}


@case("sdeint_midpoint")
def _():
    import torchsde

    return torchsde.sdeint, (_Stratonovich(), torch.rand(2, 3), _ts()), {"method": "midpoint", "dt": 0.05}


@case("brownian_interval")
def _():
    import torchsde

    bm = torchsde.BrownianInterval(t0=0.0, t1=1.0, size=(2, 3))
    return bm, (0.25, 0.5), {}

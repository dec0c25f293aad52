"""torchcde: controlled differential equations (interpolation coefficients, cdeint)."""
import torch

from . import case


class _Field(torch.nn.Module):
    def __init__(self, hidden=4, channels=3):
        super().__init__()
        self.hidden, self.channels = hidden, channels
        self.linear = torch.nn.Linear(hidden, hidden * channels)

    def forward(self, t, z):
        return self.linear(z).tanh().view(z.shape[0], self.hidden, self.channels)


@case("cdeint_cubic")
def _():
    import torchcde

    coeffs = torchcde.hermite_cubic_coefficients_with_backward_differences(torch.randn(2, 10, 3))
    path = torchcde.CubicSpline(coeffs)
    return torchcde.cdeint, (), {"X": path, "func": _Field(), "z0": torch.randn(2, 4), "t": path.interval}


@case("natural_cubic_coeffs")
def _():
    import torchcde

    return torchcde.natural_cubic_coeffs, (torch.randn(2, 10, 3),), {}


@case("hermite_coeffs")
def _():
    import torchcde

    return torchcde.hermite_cubic_coefficients_with_backward_differences, (torch.randn(2, 10, 3),), {}


@case("linear_evaluate")
def _():
    import torchcde

    path = torchcde.LinearInterpolation(torchcde.linear_interpolation_coeffs(torch.randn(2, 10, 3)))
    return path.evaluate, (torch.tensor(1.5),), {}

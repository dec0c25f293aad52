"""Round 16: torch-kf (batched Kalman filtering: predict and update steps with matrix inverses,
a filter loop over time with optional NaN masks, Rauch-Tung-Striebel smoothing, Gaussian state
likelihoods)."""
import torch

from . import case


def _kf():
    from torch_kf import KalmanFilter

    dt = 1.0
    F = torch.tensor([[1.0, dt], [0.0, 1.0]])
    Q = torch.eye(2) * 0.01
    H = torch.tensor([[1.0, 0.0]])
    R = torch.eye(1) * 0.1
    return KalmanFilter(F, H, Q, R)


def _state(batch=3):
    from torch_kf import GaussianState

    return GaussianState(torch.randn(batch, 2, 1), torch.eye(2).expand(batch, 2, 2).clone())


@case("predict")
def _():
    return _kf().predict, (_state(),), {}


@case("update")
def _():
    return _kf().update, (_state(), torch.randn(3, 1, 1)), {}


@case("filter")
def _():
    return _kf().filter, (_state(), torch.randn(6, 3, 1, 1)), dict(update_first=True)


@case("rts_smooth")
def _():
    kf = _kf()
    states = kf.filter(_state(1), torch.randn(5, 1, 1, 1), update_first=True, return_all=True)
    return kf.rts_smooth, (states,), {}


@case("log_likelihood")
def _():
    return _state().log_likelihood, (torch.randn(3, 2, 1),), {}


@case("steady_state")
def _():
    return _kf().steady_state_covariance, (), dict(n=3)

"""Round 10: botorch acquisition functions on an unfitted GP (gpytorch's own files are in
the shared realworld set, not studied here: a break inside them counts at botorch's call),
and botorch's synthetic test functions."""
import torch

from . import case


def _gp():
    from botorch.models import SingleTaskGP

    train_x = torch.rand(8, 2, dtype=torch.float64)
    train_y = (train_x.sin().sum(-1, keepdim=True) + 0.1 * torch.randn(8, 1, dtype=torch.float64))
    model = SingleTaskGP(train_x, train_y)
    model.eval()
    return model, train_x, train_y


def _candidates(q=1):
    return torch.rand(4, q, 2, dtype=torch.float64)


@case("log_expected_improvement")
def _():
    from botorch.acquisition import LogExpectedImprovement

    model, _, train_y = _gp()
    return LogExpectedImprovement(model, best_f=train_y.max()), (_candidates(),), {}


@case("upper_confidence_bound")
def _():
    from botorch.acquisition import UpperConfidenceBound

    model, _, _ = _gp()
    return UpperConfidenceBound(model, beta=0.2), (_candidates(),), {}


@case("qlog_expected_improvement")
def _():
    from botorch.acquisition import qLogExpectedImprovement
    from botorch.sampling import SobolQMCNormalSampler

    model, _, train_y = _gp()
    acqf = qLogExpectedImprovement(model, best_f=train_y.max(), sampler=SobolQMCNormalSampler(torch.Size([16])))
    return acqf, (_candidates(q=2),), {}


@case("posterior_mean")
def _():
    from botorch.acquisition import PosteriorMean

    model, _, _ = _gp()
    return PosteriorMean(model), (_candidates(),), {}


@case("branin")
def _():
    from botorch.test_functions import Branin

    return Branin(negate=True), (torch.rand(5, 2, dtype=torch.float64),), {}


@case("hartmann_noisy")
def _():
    from botorch.test_functions import Hartmann

    return Hartmann(dim=6, noise_std=0.1), (torch.rand(5, 6, dtype=torch.float64),), {}

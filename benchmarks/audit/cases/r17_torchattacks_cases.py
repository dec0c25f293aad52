"""Round 17: torchattacks (adversarial examples: one-step and iterative gradient attacks with
`autograd.grad` in their loops, C&W's optimisation, DeepFool's per-sample Jacobians, APGD's step
size schedule, targeted modes; installed with --no-deps)."""
import torch
from torch import nn

from . import case


def _model():
    return nn.Sequential(nn.Flatten(), nn.Linear(3 * 4 * 4, 8), nn.ReLU(), nn.Linear(8, 5)).eval()


def _batch(n=2):
    return torch.rand(n, 3, 4, 4), torch.randint(0, 5, (n,))


@case("fgsm", grad=True)
def _():
    import torchattacks

    return torchattacks.FGSM(_model(), eps=0.05), _batch(), {}


@case("pgd", grad=True)
def _():
    import torchattacks

    return torchattacks.PGD(_model(), eps=0.05, alpha=0.01, steps=2), _batch(), {}


@case("pgd_targeted", grad=True)
def _():
    import torchattacks

    atk = torchattacks.PGD(_model(), eps=0.05, alpha=0.01, steps=2)
    atk.set_mode_targeted_random()
    return atk, _batch(), {}


@case("pgdl2", grad=True)
def _():
    import torchattacks

    return torchattacks.PGDL2(_model(), eps=0.5, alpha=0.1, steps=2), _batch(), {}


@case("mifgsm", grad=True)
def _():
    import torchattacks

    return torchattacks.MIFGSM(_model(), eps=0.05, alpha=0.01, steps=2), _batch(), {}


@case("cw", grad=True)
def _():
    import torchattacks

    return torchattacks.CW(_model(), c=1, kappa=0, steps=2, lr=0.01), _batch(), {}


@case("deepfool", grad=True)
def _():
    import torchattacks

    return torchattacks.DeepFool(_model(), steps=2, overshoot=0.02), _batch(), {}


@case("apgd", grad=True)
def _():
    import torchattacks

    return torchattacks.APGD(_model(), norm="Linf", eps=0.05, steps=3, n_restarts=1, seed=0), _batch(), {}


@case("jitter", grad=True)
def _():
    import torchattacks

    return torchattacks.Jitter(_model(), eps=0.05, alpha=0.01, steps=2), _batch(), {}


@case("eotpgd", grad=True)
def _():
    import torchattacks

    return torchattacks.EOTPGD(_model(), eps=0.05, alpha=0.01, steps=2, eot_iter=2), _batch(), {}

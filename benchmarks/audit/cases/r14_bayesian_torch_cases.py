"""Round 14: bayesian-torch (Bayesian layers by reparameterization and flipout with their KL
terms, a network converted by `dnn_to_bnn`, the Accuracy-vs-Uncertainty loss over samples)."""
import torch

from . import case


@case("linear_reparameterization", grad=True)
def _():
    from bayesian_torch.layers import LinearReparameterization

    return LinearReparameterization(6, 4), (torch.randn(3, 6),), {}


@case("conv2d_flipout", grad=True)
def _():
    from bayesian_torch.layers import Conv2dFlipout

    return Conv2dFlipout(2, 3, kernel_size=3, padding=1), (torch.randn(2, 2, 6, 6),), {}


@case("lstm_flipout")
def _():
    from bayesian_torch.layers import LSTMFlipout

    return LSTMFlipout(4, 5), (torch.randn(2, 3, 4),), {}


@case("dnn_to_bnn_kl", grad=True)
def _():
    from bayesian_torch.models.dnn_to_bnn import dnn_to_bnn, get_kl_loss

    net = torch.nn.Sequential(torch.nn.Linear(6, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    dnn_to_bnn(net, {"prior_mu": 0.0, "prior_sigma": 1.0, "posterior_mu_init": 0.0,
                     "posterior_rho_init": -3.0, "type": "Reparameterization", "moped_enable": False})
    return get_kl_loss, (net,), {}


@case("avu_loss", grad=True)
def _():
    from bayesian_torch.utils.avuc_loss import AvULoss

    return AvULoss(beta=3.0), (torch.randn(6, 3), torch.randint(0, 3, (6,)), 0.5), {}

"""Round 15: torchbnn (Bayesian layers sampling their weights on every call, the KL loss over a
model's Bayesian modules, and the conversion of a plain model)."""
import torch

from . import case


def _model():
    import torchbnn as bnn

    return torch.nn.Sequential(bnn.BayesLinear(prior_mu=0.0, prior_sigma=0.1, in_features=6, out_features=8),
                               torch.nn.ReLU(),
                               bnn.BayesLinear(prior_mu=0.0, prior_sigma=0.1, in_features=8, out_features=3))


@case("bayes_mlp", grad=True)
def _():
    return _model(), (torch.randn(4, 6),), {}


@case("bayes_conv_bn", grad=True)
def _():
    import torchbnn as bnn

    model = torch.nn.Sequential(bnn.BayesConv2d(prior_mu=0.0, prior_sigma=0.1, in_channels=2, out_channels=4, kernel_size=3),
                                bnn.BayesBatchNorm2d(prior_mu=0.0, prior_sigma=0.1, num_features=4))
    model.train()
    return model, (torch.randn(2, 2, 8, 8),), {}


@case("bkl_loss", grad=True)
def _():
    import torchbnn as bnn

    return bnn.BKLLoss(reduction="mean", last_layer_only=False), (_model(),), {}


@case("bayesian_kl_loss_functional", grad=True)
def _():
    from torchbnn.functional import bayesian_kl_loss

    return bayesian_kl_loss, (_model(),), dict(reduction="sum")

"""pytorch_optimizer (round 11): optimizers whose step() users compile (factored second
moments, preconditioners, orthogonalised updates) and its segmentation / classification losses."""
import torch

from . import case


def _step(name, shape=(4, 4), **kw):
    import pytorch_optimizer

    param = torch.nn.Parameter(torch.randn(*shape))
    param.grad = torch.randn(*shape)
    return getattr(pytorch_optimizer, name)([param], **kw).step, (), {}


@case("adabelief_step")
def _():
    return _step("AdaBelief")


@case("adafactor_step")
def _():
    return _step("AdaFactor", shape=(8, 4))


@case("came_step")
def _():
    return _step("CAME", shape=(8, 4))


@case("ademamix_step")
def _():
    return _step("AdEMAMix")


@case("soap_step")
def _():
    return _step("SOAP", shape=(8, 4), precondition_frequency=1)


@case("adamp_step")
def _():
    return _step("AdamP", shape=(8, 4))


@case("shampoo_step")
def _():
    return _step("Shampoo", shape=(8, 4))


@case("madgrad_step")
def _():
    return _step("MADGRAD")


@case("ranger21_step")
def _():
    return _step("Ranger21", num_iterations=100)


def _loss(name, logits, target, **kw):
    import pytorch_optimizer

    return getattr(pytorch_optimizer, name)(**kw), (logits, target), {}


@case("focal_loss", grad=True)
def _():
    return _loss("FocalLoss", torch.randn(8), torch.randint(0, 2, (8,)).float())


@case("dice_loss", grad=True)
def _():
    return _loss("DiceLoss", torch.randn(2, 3, 8, 8), torch.randint(0, 3, (2, 8, 8)), mode="multiclass")


@case("lovasz_hinge_loss", grad=True)
def _():
    return _loss("LovaszHingeLoss", torch.randn(2, 8, 8), torch.randint(0, 2, (2, 8, 8)).float())


@case("bi_tempered_loss", grad=True)
def _():
    return _loss("BiTemperedLogisticLoss", torch.randn(4, 5), torch.randint(0, 5, (4,)), t1=0.8, t2=1.2)

"""Round 12 optimizers whose step() users compile: MADGRAD and its mirror variant (madgrad),
AdaBelief (adabelief-pytorch) and CAME (came-pytorch, factored second moments)."""
import torch

from . import case


def _step(opt_class, shapes=((4, 4), (4,)), **kw):
    params = []
    for shape in shapes:
        param = torch.nn.Parameter(torch.randn(*shape))
        param.grad = torch.randn(*shape)
        params.append(param)
    return opt_class(params, **kw).step, (), {}


@case("madgrad_step")
def _():
    from madgrad import MADGRAD

    return _step(MADGRAD, lr=1e-2, weight_decay=1e-4)


@case("madgrad_decoupled_step")
def _():
    from madgrad import MADGRAD

    return _step(MADGRAD, lr=1e-2, momentum=0.0, weight_decay=1e-4, decouple_decay=True)


@case("mirror_madgrad_step")
def _():
    from madgrad import MirrorMADGRAD

    return _step(MirrorMADGRAD, lr=1e-2, weight_decay=1e-4)


@case("adabelief_step")
def _():
    from adabelief_pytorch import AdaBelief

    return _step(AdaBelief, lr=1e-3, eps=1e-16, betas=(0.9, 0.999), weight_decouple=True, rectify=False,
                 print_change_log=False)


@case("adabelief_rectify_amsgrad_step")
def _():
    from adabelief_pytorch import AdaBelief

    return _step(AdaBelief, lr=1e-3, amsgrad=True, rectify=True, weight_decouple=False,
                 print_change_log=False)


@case("came_step")
def _():
    from came_pytorch import CAME

    return _step(CAME, shapes=((4, 6), (6,)), lr=2e-4, weight_decay=1e-2)

"""Round 16: tensordict (modules that read and write named entries of a TensorDict: a module
wrapping a plain network by in/out keys, sequences of them with key selection, probabilistic
modules that build a distribution and sample, ensembles over stacked parameters, and TensorDict
operations themselves)."""
import torch

from . import case


def _td(batch=4):
    from tensordict import TensorDict

    return TensorDict({"obs": torch.randn(batch, 3)}, batch_size=[batch])


@case("module")
def _():
    from tensordict.nn import TensorDictModule

    return TensorDictModule(torch.nn.Linear(3, 2), in_keys=["obs"], out_keys=["act"]), (_td(),), {}


@case("sequential")
def _():
    from tensordict.nn import TensorDictModule, TensorDictSequential

    seq = TensorDictSequential(
        TensorDictModule(torch.nn.Linear(3, 5), in_keys=["obs"], out_keys=["hidden"]),
        TensorDictModule(torch.nn.Linear(5, 2), in_keys=["hidden"], out_keys=["act"]),
    )
    return seq, (_td(),), {}


@case("probabilistic")
def _():
    from tensordict.nn import NormalParamExtractor, ProbabilisticTensorDictModule, \
        ProbabilisticTensorDictSequential, TensorDictModule

    net = torch.nn.Sequential(torch.nn.Linear(3, 4), NormalParamExtractor())
    seq = ProbabilisticTensorDictSequential(
        TensorDictModule(net, in_keys=["obs"], out_keys=["loc", "scale"]),
        ProbabilisticTensorDictModule(in_keys=["loc", "scale"], out_keys=["action"],
                                      distribution_class=torch.distributions.Normal, return_log_prob=True),
    )
    return seq, (_td(),), {}


@case("ensemble")
def _():
    from tensordict.nn import EnsembleModule, TensorDictModule

    m = TensorDictModule(torch.nn.Linear(3, 2), in_keys=["obs"], out_keys=["act"])
    return EnsembleModule(m, num_copies=2), (_td(),), {}


@case("td_apply")
def _():
    td = _td()
    td["other"] = torch.randn(4, 2)
    return td.apply, (lambda x: x * 2,), {}


@case("td_stack")
def _():
    import tensordict

    return tensordict.stack, ([_td(), _td()],), {}

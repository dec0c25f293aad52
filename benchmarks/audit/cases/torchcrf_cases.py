"""pytorch-crf: a linear-chain CRF layer (log-likelihood and Viterbi decoding)."""
import torch

from . import case


def _crf():
    from torchcrf import CRF

    return CRF(5, batch_first=True)


@case("log_likelihood", grad=True)
def _():
    crf = _crf()
    emissions, tags = torch.randn(2, 6, 5), torch.randint(0, 5, (2, 6))
    mask = torch.ones(2, 6, dtype=torch.bool)  # the default uint8 mask fails under Dynamo itself
    return crf, (emissions, tags), {"mask": mask}


@case("decode")
def _():
    crf = _crf()
    mask = torch.ones(2, 6, dtype=torch.bool)
    mask[1, 4:] = False
    return crf.decode, (torch.randn(2, 6, 5),), {"mask": mask}

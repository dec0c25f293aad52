"""Round 15: TorchCRF (a linear-chain CRF layer: log-likelihood by the forward algorithm and
Viterbi decoding into Python lists)."""
import torch

from . import case


def _inputs():
    h = torch.randn(3, 6, 5)
    labels = torch.randint(0, 5, (3, 6))
    mask = torch.ones(3, 6, dtype=torch.bool)
    mask[1, 4:] = False
    mask[2, 3:] = False
    return h, labels, mask


@case("crf_log_likelihood", grad=True)
def _():
    from TorchCRF import CRF

    return CRF(5, use_gpu=False), _inputs(), {}


@case("crf_viterbi_decode")
def _():
    from TorchCRF import CRF

    h, _, mask = _inputs()
    return CRF(5, use_gpu=False).viterbi_decode, (h, mask), {}

"""Round 13: structured prediction with torch-struct: linear-chain, semi-Markov, dependency-tree
and CKY dynamic programs over semirings (sums, marginals by autograd.grad, argmax), and its
linear-chain CRF distribution (log-likelihood, k-best)."""
import torch

from . import case


@case("linear_chain_sum")
def _():
    from torch_struct import LinearChain

    lengths = torch.tensor([6, 4])
    return LinearChain().sum, (torch.randn(2, 5, 3, 3), lengths), {}


@case("linear_chain_marginals", grad=True)
def _():
    from torch_struct import LinearChain

    return LinearChain().marginals, (torch.randn(2, 5, 3, 3, requires_grad=True),), {}


@case("linear_chain_argmax", grad=True)
def _():
    from torch_struct import LinearChain, MaxSemiring

    return LinearChain(MaxSemiring).marginals, (torch.randn(2, 5, 3, 3),), {}


@case("semimarkov_sum")
def _():
    from torch_struct import SemiMarkov

    return SemiMarkov().sum, (torch.randn(2, 6, 3, 2, 2),), {"lengths": torch.tensor([7, 5])}


@case("deptree_sum")
def _():
    from torch_struct import DepTree

    return DepTree().sum, (torch.randn(2, 5, 5),), {}


@case("cky_crf_sum")
def _():
    from torch_struct import CKY_CRF

    return CKY_CRF().sum, (torch.randn(2, 5, 5, 3),), {}


@case("linear_chain_crf_log_prob", grad=True)
def _():
    from torch_struct import LinearChainCRF

    dist = LinearChainCRF(torch.randn(2, 5, 3, 3), lengths=torch.tensor([6, 4]))
    parts = LinearChainCRF.struct.to_parts(torch.randint(0, 3, (2, 6)), 3, lengths=torch.tensor([6, 4]))
    return dist.log_prob, (parts.float(),), {}


@case("linear_chain_crf_topk", grad=True)
def _():
    from torch_struct import LinearChainCRF

    return LinearChainCRF(torch.randn(2, 5, 3, 3)).topk, (2,), {}


@case("semimarkov_marginals", grad=True)
def _():
    from torch_struct import SemiMarkov

    return SemiMarkov().marginals, (torch.randn(2, 6, 3, 2, 2),), {}

"""Graph-break types used by the TC1xx-TC3xx rules that `hazards.py` does not list yet
(torch 2.13 registry wording). Kept apart so `hazards.py` stays untouched; merge freely."""
from __future__ import annotations

from tclint.analyzer.knowledge.hazards import GraphBreak

REQUIRES_GRAD_INPUT = GraphBreak("GB0125", "Unsupported Tensor.requires_grad_() call")
TENSOR_REPR = GraphBreak("GB0569", "repr() on tensor")
NON_TENSOR_RESULT = GraphBreak("GB0208", "torch.* op returned non-Tensor")

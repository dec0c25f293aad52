import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_arg
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class TensorIndexIntoContainer(Rule):
    """
    ## What it does
    Flags indexing an `nn.ModuleList` / `nn.Sequential` (or a list or tuple literal, a list
    of tensors built in the function, a parameter annotated `List[Tensor]` or
    `Tuple[Tensor, ...]`, or a shape) with a tensor, such as
    `self.experts[router_logits.argmax()]` or `scores[lengths[i] - 1]`, inside a compiled
    region.

    ## Why is this bad?
    Python containers need an `int` index, so Dynamo calls the tensor's `__index__`, an
    implicit `.item()`. With `capture_scalar_outputs=False` that cannot be traced and the
    graph ends there. Indexing a tensor with a tensor (`x[idx]`) is fine: it stays a
    tensor op.

    ## Example
    ```python
    expert = self.experts[scores.argmax()]
    return expert(x)
    ```

    ## Use instead
    ```python
    outputs = torch.stack([expert(x) for expert in self.experts])    # run all, then select
    weights = F.one_hot(scores.argmax(-1), len(self.experts)).T[..., None]
    return (outputs * weights).sum(0)
    ```
    Or loop over experts with a mask per expert, as MoE layers do.
    """

    code = "TC112"
    name = "tensor-index-into-container"
    message = "indexing a Python container with a tensor reads the tensor's value and breaks the graph"
    graph_break = hazards.ITEM

    VALID = [
        Example("""
            import torch
            from torch import nn
            class Experts(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.experts = nn.ModuleList(nn.Linear(3, 3) for _ in range(2))
                def forward(self, x):
                    out = torch.stack([e(x) for e in self.experts])
                    pick = torch.nn.functional.one_hot(x.sum(-1).argmax(-1), 2).T[..., None]
                    return (out * pick).sum(0) + self.experts[1](x)
        """, call="torch.compile(Experts())(torch.randn(2, 3))"),
        # an index from a shape is a Python int
        Example("""
            from typing import List
            import torch
            def last(score: List[torch.Tensor], h: torch.Tensor):
                return score[h.shape[1] - 1]
            @torch.compile
            def f(h):
                score = [h[:, t] for t in range(h.shape[1])]
                return last(score, h)
        """, call="f(torch.randn(2, 4))"),
    ]
    INVALID = [
        Example("""
            import torch
            from torch import nn
            class Experts(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.experts = nn.ModuleList(nn.Linear(3, 3) for _ in range(2))
                def forward(self, x):
                    choice = x.sum().gt(0).long()
                    return self.experts[choice](x)
        """, call="torch.compile(Experts())(torch.randn(2, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                scales = [0.5, 1.0, 2.0]
                return x * [0.5, 1.0, 2.0][x.argmax() % 3] + len(scales)
        """, call="f(torch.randn(3))"),
        # Viterbi backtracking (TorchCRF): the per-step scores, a list, at a sequence's end
        Example("""
            from typing import List
            import torch
            def best_end(score: List[torch.Tensor], seq_lens: torch.Tensor, i: int):
                end = seq_lens[i] - 1
                return score[end][i].max(0)
            @torch.compile
            def f(h, seq_lens):
                score = [h[:, 0]]
                for t in range(1, h.shape[1]):
                    score.append(score[t - 1] + h[:, t])
                return best_end(score, seq_lens, 0)
        """, call="f(torch.randn(2, 4, 3), torch.tensor([3, 4]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                outs = []
                for i in range(3):
                    outs.append(x * i)
                return outs[x.argmax() % 3]
        """, call="f(torch.randn(3))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
            return
        if not self._python_container(node.value):
            return
        is_tensor, cond = tensor_arg(self.facts, node.slice[0].slice.value)
        if is_tensor:
            self.report(node, condition=cond)

    def _python_container(self, value: cst.BaseExpression) -> bool:
        if isinstance(value, (cst.List, cst.Tuple, cst.ListComp)):
            return True
        if isinstance(value, cst.Attribute) and value.attr.value == "shape":
            return True
        if isinstance(value, cst.Name) and self.facts.function is not None:
            elements = self.facts.function.elements.get(value.value)  # a list or tuple of tensors
            if elements is not None and not elements[1]:
                return True
        return self.facts.value(value).kind is Kind.MODULE

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class TensorSliceBound(Rule):
    """
    ## What it does
    Flags slices whose start, stop or step is a tensor value, such as
    `x[:, :lengths.max()]`, inside a compiled region.

    ## Why is this bad?
    A slice bound must be a Python integer, so Dynamo has to read the tensor's value
    (an implicit `.item()`). With `capture_scalar_outputs=False` that cannot be traced
    and the graph ends there. Bounds from shapes (`x[:, :y.shape[1]]`) are static and fine.

    ## Example
    ```python
    max_len = lengths.max()
    x = x[:, :max_len]
    ```

    ## Use instead
    Pad to a static length and mask, pass the bound in as a Python int computed outside
    the compiled region, or set `torch._dynamo.config.capture_scalar_outputs = True`.
    """

    code = "TC108"
    name = "tensor-slice-bound"
    message = "slicing with a tensor bound reads the tensor's value and breaks the graph"
    graph_break = hazards.ITEM


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, y):
                return x[:, :y.shape[1]] + x[:, -y.size(1):]
        """, call="f(torch.randn(3, 4), torch.randn(3, 2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, lengths: torch.Tensor):
                return x[:, :lengths.max()]
        """, call="f(torch.randn(3, 4), torch.tensor([1, 2]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = (x > 0).sum()
                return x[n:]
        """, call="f(torch.randn(4))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Slice(self, node: cst.Slice) -> None:
        for bound in (node.lower, node.upper, node.step):
            if bound is None:
                continue
            is_tensor, cond = tensor_arg(self.facts, bound)
            if is_tensor:
                self.report(bound, condition=cond)
                return

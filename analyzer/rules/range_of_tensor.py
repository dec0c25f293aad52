import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import positional, tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class RangeOfTensor(Rule):
    """
    ## What it does
    Flags `range(...)` with a tensor argument, such as `range(lengths.max())`, inside a
    compiled region.

    ## Why is this bad?
    `range` needs Python integers, and Dynamo cannot call the builtin on a tensor: the
    graph ends at the call, even with `capture_scalar_outputs=True`. Ranges over shapes
    (`range(x.shape[0])`) are static and fine (Dynamo unrolls them).

    ## Example
    ```python
    for t in range(lengths.max()):
        h = self.cell(x[:, t], h)
    ```

    ## Use instead
    Loop over a static bound (`range(x.shape[1])`) and mask finished sequences, or pass
    the count in as a Python int computed outside the compiled region.
    """

    code = "TC109"
    name = "range-of-tensor"
    message = "`range()` of a tensor cannot be traced; the graph breaks here"
    graph_break = hazards.BUILTIN_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                out = x
                for i in range(x.shape[0]):
                    out = out + x[i]
                return out
        """, call="f(torch.randn(3, 2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, steps: torch.Tensor):
                out = x
                for i in range(steps.max()):
                    out = out * 2
                return out
        """, call="f(torch.randn(3), torch.tensor([1, 2]))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.facts.qualname(node.func) != "builtins.range":
            return
        for arg in positional(node):
            is_tensor, cond = tensor_arg(self.facts, arg)
            if is_tensor:
                self.report(node, condition=cond)
                return

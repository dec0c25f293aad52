import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import positional
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class RangeOfTensor(Rule):
    """
    ## What it does
    Flags `range(...)` with a tensor argument, such as `range(lengths.max())`, or a NumPy
    value (`range(np.prod(sizes))`, `range(np.int64(n))`) inside a compiled region.

    ## Why is this bad?
    `range` needs Python integers, and Dynamo cannot call the builtin on a tensor: the
    graph ends at the call, even with `capture_scalar_outputs=True`. Dynamo traces NumPy
    values as tensors, so a NumPy integer breaks the same way. Ranges over shapes
    (`range(x.shape[0])`) are static and fine (Dynamo unrolls them).

    ## Example
    ```python
    for t in range(lengths.max()):
        h = self.cell(x[:, t], h)
    ```

    ## Use instead
    Loop over a static bound (`range(x.shape[1])`) and mask finished sequences, or pass
    the count in as a Python int computed outside the compiled region; `int(...)` a NumPy
    count where it is computed, outside the compiled region.
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
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                table = np.ones((2, 3))
                for i in range(table.shape[0] * len(table)):
                    x = x + i
                return x
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x, sizes=(2, 3)):
                out = x
                for i in range(np.prod(sizes)):
                    out = out + i
                return out
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                steps = np.int64(3)
                for _ in range(steps):
                    x = x * 2
                return x
        """, call="f(torch.randn(3))"),
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
            value = self.facts.value(arg)
            if value.is_tensor:
                self.report(node, condition=value.condition)
                return
            if value.kind is Kind.NDARRAY:
                self.report(node, "`range()` of a NumPy value, which Dynamo traces as a tensor, cannot be "
                                  "traced; the graph breaks here", condition=value.condition)
                return

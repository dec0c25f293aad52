import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import positional, tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class PythonMathOnTensor(Rule):
    """
    ## What it does
    Flags functions of Python's `math` module (`math.sqrt`, `math.log`, `math.exp`,
    `math.isnan`, ...) called on a tensor inside a compiled region.

    ## Why is this bad?
    `math` functions work on Python numbers, so the tensor must be converted to one
    first: that reads tensor data and Dynamo ends the graph. `math` on shapes and other
    static numbers (`math.sqrt(x.shape[-1])`) is fine.

    ## Example
    ```python
    scale = math.sqrt(var)
    ```

    ## Use instead
    ```python
    scale = torch.sqrt(var)      # or var.sqrt(); likewise torch.log, torch.exp, torch.isnan
    ```
    """

    code = "TC106"
    name = "python-math-on-tensor"
    message = "a `math` function on a tensor reads tensor data and breaks the graph"
    graph_break = hazards.DATA_DEPENDENT_OP


    VALID = [
        Example("""
            import math
            import torch
            @torch.compile
            def f(q, k):
                return (q @ k.transpose(-1, -2)) / math.sqrt(q.shape[-1]) * math.pi
        """, call="f(torch.randn(2, 4), torch.randn(2, 4))"),
        Example("""
            import math
            import torch
            @torch.compile
            def f(x):
                return torch.sqrt(x.var()) * x
        """, call="f(torch.randn(3))"),
        Example("""
            import math
            import torch
            def _group(xs):
                return len(xs), [x.numel() for x in xs]
            @torch.compile
            def f(xs):
                total = 1.0
                n, sizes = _group(xs)
                for s in sizes:
                    total += s
                return xs[0] * math.sqrt(total / n)
        """, call="f([torch.ones(3), torch.ones(2)])"),
    ]
    INVALID = [
        Example("""
            import math
            import torch
            @torch.compile
            def f(x):
                return x / math.sqrt(x.var())
        """, call="f(torch.randn(3))"),
        Example("""
            import math
            import torch
            @torch.compile
            def f(x):
                m = x.mean()
                if math.isnan(m):
                    return x
                return x - m
        """, call="f(torch.randn(3))"),
        # a tensor travels in a list a helper returns, through a loop and `+=`
        Example("""
            import math
            import torch
            def _group(xs):
                sums = []
                for x in xs:
                    sums.append(x.sum())
                return sum(x.numel() for x in xs), sums
            @torch.compile
            def f(xs):
                size, total = 0, 1.0
                n, sums = _group(xs)
                size += n
                for s in sums:
                    total += s
                return math.sqrt(total / size)
        """, call="f([torch.ones(3), torch.ones(2)])"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual is None or not qual.startswith("math."):
            return
        for arg in positional(node):
            is_tensor, cond = tensor_arg(self.facts, arg)
            if is_tensor:
                self.report(node, f"`{qual}()` needs a Python number, so the tensor's value is read, which "
                                  f"Dynamo cannot trace; the graph breaks here. Use the torch equivalent",
                            condition=cond)
                return

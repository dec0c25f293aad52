import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_arg
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class TensorSliceBound(Rule):
    """
    ## What it does
    Flags slices whose start, stop or step is a tensor value, such as
    `x[:, :lengths.max()]` or `slice(start, end)` with tensor bounds, inside a compiled
    region, and slices bounded by an element of a NumPy array computed there.

    ## Why is this bad?
    A slice bound must be a Python integer, so Dynamo has to read the tensor's value
    (an implicit `.item()`). With `capture_scalar_outputs=False` that cannot be traced
    and the graph ends there. Dynamo traces NumPy arrays as tensors, so an element of one
    as a bound is read the same way (a data-dependent operator). Bounds from shapes
    (`x[:, :y.shape[1]]`) are static and fine.

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
    also_predicts = (hazards.DATA_DEPENDENT_OP,)  # a NumPy bound


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
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = x.argmax()
                return x[slice(n)]
        """, call="f(torch.randn(4))"),
        # rows of a NumPy array, as slices (monai `dense_patch_slices`)
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                starts = np.asarray([[0, 1], [1, 2]]).T
                patches = [tuple(slice(s, s + 2) for s in row) for row in starts]
                return x * len(patches)
        """, call="f(torch.randn(4))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Slice(self, node: cst.Slice) -> None:
        self._check((node.lower, node.upper, node.step))

    def visit_Call(self, node: cst.Call) -> None:
        if self.facts.qualname(node.func) == "builtins.slice" and len(node.args) <= 3:
            self._check([a.value for a in node.args if a.keyword is None and not a.star])

    def _check(self, bounds) -> None:
        for bound in bounds:
            if bound is None:
                continue
            is_tensor, cond = tensor_arg(self.facts, bound)
            if is_tensor:
                self.report(bound, condition=cond)
                return
            if self.facts.value(bound).kind is Kind.NDARRAY:
                self.report(bound, "a NumPy value as a slice bound: Dynamo traces the array as a tensor and "
                                   "reads its value (a data-dependent operator); the graph breaks here",
                            graph_break=hazards.DATA_DEPENDENT_OP)
                return

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_or_unknown
from tclint.analyzer.rules.base import Example, Rule


class TensorTolist(Rule):
    """
    ## What it does
    Flags `tensor.tolist()` inside a compiled region.

    ## Why is this bad?
    `.tolist()` copies every element into Python numbers. Dynamo cannot trace that for
    floating-point tensors (even with `capture_scalar_outputs=True`), and for integer
    tensors it is a data-dependent operation unless scalar outputs are captured: the
    graph ends at the call.

    ## Example
    ```python
    sizes = counts.tolist()
    chunks = torch.split(x, sizes)
    ```

    ## Use instead
    Keep the values as a tensor and use tensor ops, or call `.tolist()` outside the
    compiled region and pass the Python list in.
    """

    code = "TC104"
    name = "tensor-tolist"
    message = "`.tolist()` copies tensor values into Python and breaks the graph"
    graph_break = hazards.TOLIST
    also_predicts = (hazards.DATA_DEPENDENT_OP,)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                dims = list(x.shape)
                return x.reshape(dims[0], -1)
        """, call="f(torch.randn(3, 4))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                return y.tolist()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, counts: torch.Tensor):
                sizes = (counts + 1).tolist()
                return x * sizes[0]
        """, call="f(torch.randn(3), torch.tensor([1, 2]))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "tolist" and not node.args):
            return
        # on a value of unknown type it is almost always a tensor; static values and modules are not
        is_tensor, cond = tensor_or_unknown(self.facts, func.value)
        if is_tensor:
            self.report(node, condition=cond)

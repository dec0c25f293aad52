import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_or_unknown
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text


class TensorItem(Rule):
    """
    ## What it does
    Flags `tensor.item()` inside a compiled region.

    ## Why is this bad?
    `.item()` copies one value out of the tensor into a Python number. With Dynamo's
    default `capture_scalar_outputs=False` that value cannot be traced, so the graph ends
    at the call.

    ## Example
    ```python
    correct = (pred == target).sum().item()
    return correct / target.numel()
    ```

    ## Use instead
    ```python
    return (pred == target).sum() / target.numel()   # stay a tensor; call .item() outside
    ```
    Or set `torch._dynamo.config.capture_scalar_outputs = True`.
    """

    code = "TC102"
    name = "tensor-item"
    message = "`.item()` converts a tensor to a Python number and breaks the graph"
    graph_break = hazards.ITEM

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x.sum() / x.numel()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def summarize(x):
                return x.sum().item()  # not reached from a compiled region
            @torch.compile
            def f(x):
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = x.shape[0]
                if isinstance(n, torch.Tensor):
                    n = n.item()
                return x * n
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def compiling():
                try:
                    return torch.compiler.is_compiling()
                except Exception:
                    return False
            @torch.compile
            def f(x):
                if not compiling():
                    x = x / x.sum().item()
                return x * 2
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(logits, target):
                correct = (logits.argmax(-1) == target).sum().item()
                return correct / target.numel()
        """, call="f(torch.randn(4, 3), torch.tensor([0, 1, 2, 0]))"),
        # reported as info: it only runs while building the exception
        Example("""
            import torch
            @torch.compile
            def f(x):
                if x.shape[0] > 2:
                    raise ValueError(f"too long, total {x.sum().item()}")
                return x
            def run():
                try:
                    f(torch.ones(3))
                except ValueError:
                    pass
        """, call="run()"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "item" and not node.args):
            return
        # on a value of unknown type it is almost always a tensor; static values and modules are not
        is_tensor, cond = tensor_or_unknown(self.facts, func.value)
        if is_tensor:
            named = value_text(node)
            message = f"`.item()` converts a tensor to a Python number, so `{named}` breaks the graph" if named else None
            self.report(node, message, condition=cond)

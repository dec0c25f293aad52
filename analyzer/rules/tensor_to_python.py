import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import sole_argument, tensor_arg
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text

_CASTS = {"builtins.bool": "bool", "builtins.int": "int", "builtins.float": "float"}


class TensorToPython(Rule):
    """
    ## What it does
    Flags `bool(t)`, `int(t)` and `float(t)` where `t` is a tensor, inside a compiled
    region.

    ## Why is this bad?
    Converting a tensor to a Python number reads its value, like `t.item()`. With
    Dynamo's default `capture_scalar_outputs=False` that value cannot be traced, so the
    graph ends at the conversion. Converting shapes and sizes (`int(x.shape[0])`) is fine.

    ## Example
    ```python
    n_valid = int(mask.sum())
    return x[:, :n_valid]
    ```

    ## Use instead
    Keep the value a tensor (`mask.sum()`), use shapes, or compute it outside the
    compiled region and pass it in. Or set
    `torch._dynamo.config.capture_scalar_outputs = True`.
    """

    code = "TC103"
    name = "tensor-to-python"
    message = "converting a tensor to a Python number reads its value and breaks the graph"
    graph_break = hazards.ITEM


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x * float(x.size(-1)) + int(x.shape[0]) + bool(x.numel())
        """, call="f(torch.randn(3, 4))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                scale = float(x.abs().max())
                return x / scale
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, lengths: torch.Tensor):
                return x * int(lengths[0])
        """, call="f(torch.randn(3), torch.tensor([2, 3]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x + bool(x.sum() > 0)
        """, call="f(torch.randn(3))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Call(self, node: cst.Call) -> None:
        cast = _CASTS.get(self.facts.qualname(node.func))
        if cast is None:
            return
        arg = sole_argument(node)
        if arg is None:
            return
        is_tensor, cond = tensor_arg(self.facts, arg)
        if is_tensor:
            named = value_text(arg)
            what = f"the tensor `{named}`" if named else "a tensor"
            self.report(node, f"`{cast}()` of {what} reads its value (like `.item()`); the graph breaks here",
                        condition=cond)

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import argument, method_call, tensor_arg
from tclint.analyzer.rules.base import Example, Rule

_FUNCTIONS = frozenset({"torch.equal", "torch.allclose", "torch.is_nonzero"})
_METHODS = frozenset({"equal", "allclose", "is_nonzero"})


class DataDependentOp(Rule):
    """
    ## What it does
    Flags torch calls that return a Python `bool` computed from tensor data, inside a
    compiled region: `torch.equal`, `torch.allclose`, `torch.is_nonzero` (and the
    `Tensor.equal` / `Tensor.allclose` methods), and `torch._assert(cond, msg)` with a
    tensor condition.

    ## Why is this bad?
    Their result depends on the tensors' values but is a Python value, not a tensor, so
    Dynamo cannot keep it in the graph: it reports a data-dependent operator and breaks.
    A plain `assert (x > 0).all()` is traced (Dynamo turns it into a runtime assert);
    `torch._assert` on a static condition such as a shape is fine too.

    ## Example
    ```python
    if torch.allclose(attn.sum(-1), torch.ones_like(attn[..., 0])):
        ...
    ```

    ## Use instead
    ```python
    ok = torch.isclose(a, b).all()       # a tensor; use with torch.where
    ```
    Do value checks outside the compiled region, or use `torch._assert_async`.
    """

    code = "TC107"
    name = "data-dependent-op"
    message = "this op returns a Python value computed from tensor data; the graph breaks here"
    graph_break = hazards.DATA_DEPENDENT_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                assert (x > -100).all()
                torch._assert(x.shape[0] == 3, "expects 3 rows")
                return torch.isclose(x, x + 1).all()
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x + 1
                return torch.allclose(x, y), y
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x.clone()
                return x.equal(y), y
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                torch._assert((x > -100).all(), "values out of range")
                return x + 1
        """, call="f(torch.randn(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual in _FUNCTIONS:
            self.report(node, f"`{qual}()` returns a Python bool computed from tensor values, which Dynamo "
                              f"cannot trace; the graph breaks here")
            return
        if qual == "torch._assert":
            cond_expr = argument(node, 0, "condition")
            if cond_expr is None:
                return
            is_tensor, cond = tensor_arg(self.facts, cond_expr)
            if is_tensor:
                self.report(node, "`torch._assert` on a tensor condition reads tensor data, which Dynamo cannot "
                                  "trace; the graph breaks here (a plain `assert` or `torch._assert_async` traces)",
                            condition=cond)
            return
        mc = method_call(node)
        if mc is None or qual is not None:
            return
        receiver, method = mc
        if method in _METHODS:
            is_tensor, cond = tensor_arg(self.facts, receiver)
            # tensor-only method names: an un-annotated compiled input counts too
            if is_tensor or self.facts.value(receiver).assumed:
                self.report(node, f"`Tensor.{method}()` returns a Python bool computed from tensor values, which "
                                  f"Dynamo cannot trace; the graph breaks here", condition=cond)

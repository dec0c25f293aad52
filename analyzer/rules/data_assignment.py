import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import function_body, param_names, target_names
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class DataAssignment(Rule):
    """
    ## What it does
    Flags `t.data = value` where `t` is a tensor computed inside the compiled region.

    ## Why is this bad?
    Replacing `.data` swaps the storage behind a tensor without autograd knowing. Dynamo
    supports it for graph inputs, parameters and buffers, but not for an intermediate
    created in the graph: the graph breaks at the assignment. `self.lin.weight.data = w`
    and `x.data = ...` on an input are fine.

    ## Example
    ```python
    y = x * 2
    y.data = y.data.clamp(0, 1)
    ```

    ## Use instead
    ```python
    y = (x * 2).clamp(0, 1)          # compute the new value; or y.copy_(...) under no_grad
    ```
    """

    code = "TC215"
    name = "data-assignment"
    message = "assigning `.data` of an intermediate tensor cannot be traced; the graph breaks here"
    graph_break = hazards.DATA_MUTATION

    VALID = [
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = nn.Linear(3, 3)
                def forward(self, x):
                    self.lin.weight.data = torch.zeros(3, 3)
                    return self.lin(x)
        """, call="torch.compile(M())(torch.randn(2, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x: torch.Tensor):
                x.data = torch.zeros(4, 3)
                return x + 1
        """, call="f(torch.randn(4, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                y.data = torch.zeros(4, 3)
                return y
        """, call="f(torch.randn(4, 3))"),
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        fn = self.facts.function
        for t in node.targets:
            target = t.target
            if not (isinstance(target, cst.Attribute) and target.attr.value == "data"):
                continue
            base = target.value
            if not isinstance(base, cst.Name) or base.value in param_names(fn.node):
                continue
            cond = self.facts.tensor_condition(base)
            if cond is None or not self._computed_here(fn.node, base.value):
                continue
            self.report(target, condition=None if cond is True else cond)

    def _computed_here(self, fn_node: cst.FunctionDef, name: str) -> bool:
        """Every binding of `name` in the function computes a new tensor (not an alias)."""
        values = [v for t, v in function_body(fn_node).assigns if name in target_names(t)]
        if not values:
            return False
        for v in values:
            if isinstance(v, (cst.Name, cst.Attribute, cst.Subscript)):
                return False  # an alias of a parameter, buffer or input, perhaps
            if isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and self.facts.value(v.func.value).kind is Kind.MODULE \
                    and v.func.attr.value not in ("forward", "__call__"):
                return False
        return True

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class TensorMembership(Rule):
    """
    ## What it does
    Flags `value in t` and `value not in t` where `t` is a tensor, inside a compiled
    region.

    ## Why is this bad?
    `in` on a tensor compares every element and converts the answer to a Python `bool`,
    which reads tensor data. With `capture_scalar_outputs=False` Dynamo cannot trace
    that, so the graph ends at the test. The break happens inside `Tensor.__contains__`,
    where Dynamo cannot resume the frame (torch 2.13), so the rest of the function runs
    eagerly: findings after it in the same function show once this one is fixed. A
    helper that tests membership only ends its own frame; its caller resumes after the
    call.

    ## Example
    ```python
    if pad_id in tokens:
        tokens = tokens[tokens != pad_id]
    ```

    ## Use instead
    ```python
    has_pad = (tokens == pad_id).any()     # a tensor; combine with torch.where
    ```
    """

    code = "TC105"
    name = "tensor-membership"
    message = "`in` on a tensor reads tensor data into a Python bool and breaks the graph"
    graph_break = hazards.ITEM


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                if 4 in x.shape:
                    x = x * 2
                return (x == 3).any()
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, batch):
                if "scale" in batch:
                    x = x * batch["scale"]
                return x
        """, call="f(torch.randn(3), {'scale': 2.0})"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, ids: torch.Tensor):
                found = 2 in ids
                return x + 1, found
        """, call="f(torch.randn(3), torch.tensor([1, 2, 3]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x * 2 if 0.0 in x else x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                ids = x.argmax(-1)
                if 0 not in ids:
                    return x
                return x + 1
        """, call="f(torch.randn(4, 3))"),
        # the frame ends at the test: Dynamo reports nothing after it, not even the print
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x + 1
                if 0.0 in x:
                    y = y * 2
                print("done")
                return y
        """, call="f(torch.randn(3))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def visit_Comparison(self, node: cst.Comparison) -> None:
        left = node.left
        for target in node.comparisons:
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                right = target.comparator
                is_tensor, cond = tensor_arg(self.facts, right)
                # An un-annotated compiled input may be a dict or a list (`"labels" in batch`),
                # but a number looked up in it (`0.0 in x`) is a tensor membership test.
                if is_tensor or (self.facts.value(right).assumed and _is_number(left)):
                    self.report(node, condition=cond, ends_frame=True)
                    return
            left = target.comparator


def _is_number(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, (cst.Integer, cst.Float))

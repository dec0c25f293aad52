import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import argument
from tclint.analyzer.rules.base import Example, Rule


def _is_minus_one(expr: cst.BaseExpression) -> bool:
    return (isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus)
            and isinstance(expr.expression, cst.Integer) and expr.expression.value == "1")


class OneHotWithoutNumClasses(Rule):
    """
    ## What it does
    Flags `F.one_hot(labels)` without `num_classes` (or with `num_classes=-1`) inside a
    compiled region.

    ## Why is this bad?
    Without `num_classes`, `one_hot` sizes its output as `labels.max() + 1`, which is
    read from the data. Dynamo cannot trace that and breaks the graph, whatever the
    `capture_*` settings.

    ## Example
    ```python
    target = F.one_hot(labels).float()
    ```

    ## Use instead
    ```python
    target = F.one_hot(labels, num_classes=self.num_classes).float()
    ```
    """

    code = "TC304"
    name = "one-hot-without-num-classes"
    message = "`one_hot` without `num_classes` sizes its output from the data; the graph breaks here"
    graph_break = hazards.ONE_HOT
    also_predicts = (hazards.DATA_DEPENDENT_OP,)


    VALID = [
        Example("""
            import torch
            import torch.nn.functional as F
            @torch.compile
            def f(labels):
                return F.one_hot(labels, num_classes=5) + F.one_hot(labels, 5)
        """, call="f(torch.tensor([0, 2, 1]))"),
    ]
    INVALID = [
        Example("""
            import torch
            import torch.nn.functional as F
            @torch.compile
            def f(labels):
                return F.one_hot(labels).float()
        """, call="f(torch.tensor([0, 2, 1]))"),
        Example("""
            import torch
            from torch.nn.functional import one_hot
            @torch.compile
            def f(labels):
                return one_hot(labels, num_classes=-1)
        """, call="f(torch.tensor([0, 2, 1]))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.facts.qualname(node.func) not in ("torch.nn.functional.one_hot", "torch._C._nn.one_hot"):
            return
        if any(a.star for a in node.args):
            return
        num_classes = argument(node, 1, "num_classes")
        if num_classes is None or _is_minus_one(num_classes):
            self.report(node)

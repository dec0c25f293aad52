import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import BoundNames, keyword, method_call, positional, tensor_or_unknown
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind

# Reductions that give a 0-dim integer tensor when called without a dimension.
_INDEX_REDUCTIONS = frozenset({"argmax", "argmin", "count_nonzero"})
# Methods that keep a 0-dim integer tensor 0-dim and integer (`index.sub(1).clamp(0, n)`).
_KEEPS_SCALAR = frozenset({"add", "sub", "clamp", "clamp_min", "clamp_max", "long"})


class ScalarTensorIndex(Rule):
    """
    ## What it does
    Flags indexing a tensor with a 0-dim integer tensor, such as `x[scores.argmax()]`,
    `x[:, mask.sum()]` or `x[i + 1]` with `i = (t == v).nonzero(as_tuple=True)[0][0]`,
    inside a compiled region.

    ## Why is this bad?
    A 0-dim index selects one position, so the result's shape depends on its value: Dynamo
    reads the value (a data-dependent operator) and the graph ends there. Indexing with a
    tensor of indices (`x[scores.argmax(-1)]`) stays a gather and is fine.

    ## Example
    ```python
    best = logits.argmax()
    return hidden.flatten(0, 1)[best]
    ```

    ## Use instead
    ```python
    best = logits.argmax().unsqueeze(0)            # a 1-element index tensor
    return hidden.flatten(0, 1).index_select(0, best)
    ```
    """

    code = "TC113"
    name = "scalar-tensor-index"
    message = "indexing with a 0-dim tensor reads its value and breaks the graph"
    graph_break = hazards.DATA_DEPENDENT_OP

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                rows = torch.arange(x.shape[0])
                return x[rows, x.argmax(-1)] + x.flatten().index_select(0, x.argmax().unsqueeze(0))
        """, call="f(torch.randn(3, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                best = x.flatten().argmax()
                return x.flatten()[best]
        """, call="f(torch.randn(3, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x[:, (x[0] > 0).sum()]
        """, call="f(torch.randn(3, 3))"),
        # one position of `nonzero`'s result, shifted by a Python int (diffusers' schedulers)
        Example("""
            import torch
            @torch.compile
            def f(timesteps, t):
                index = (timesteps == t).nonzero(as_tuple=True)[0][0]
                return timesteps[index + 1]
        """, call="f(torch.arange(5).flip(0), 3)"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._scalars = BoundNames()  # names bound to a 0-dim index

    def visit_Assign(self, node: cst.Assign) -> None:
        names = self._scalars.names(self.facts)
        self._scalars.assign(self.facts, node, self._scalar_index(node.value, names))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self.facts.value(node.value).known_tensor:
            return
        names = self._scalars.names(self.facts)
        for element in node.slice:
            if isinstance(element.slice, cst.Index) and self._scalar_index(element.slice.value, names):
                self.report(element.slice.value)
                return

    def _scalar_index(self, expr: cst.BaseExpression, names: set[str]) -> bool:
        """`x.argmax()`, `torch.argmax(x)`, `(x > 0).sum()`, one element of `nonzero`'s result,
        one of those shifted by a Python number (`i + 1`, `i.sub(1)`), or a name bound to one."""
        if isinstance(expr, cst.Name):
            return expr.value in names
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.Add, cst.Subtract)):
            return any(self._scalar_index(side, names) and self.facts.value(other).kind is Kind.STATIC
                       for side, other in ((expr.left, expr.right), (expr.right, expr.left)))
        if isinstance(expr, cst.Subscript):
            return self._nonzero_element(expr)
        if not isinstance(expr, cst.Call) or keyword(expr, "dim") is not None:
            return False
        qual = self.facts.qualname(expr.func)
        if qual is not None:
            return qual.startswith("torch.") and qual[6:] in _INDEX_REDUCTIONS and len(positional(expr)) == 1
        mc = method_call(expr)
        if mc is None or positional(expr):
            return False
        receiver, method = mc
        if method in _KEEPS_SCALAR:
            return self._scalar_index(receiver, names)
        value = self.facts.value(receiver)
        if method in _INDEX_REDUCTIONS:
            return value.known_tensor
        return method == "sum" and value.known_mask  # counting a mask

    def _nonzero_element(self, expr: cst.Subscript) -> bool:
        """`m.nonzero(as_tuple=True)[0][0]`, `torch.where(m)[0][0]`, `torch.nonzero(m)[0, 0]`:
        whatever the rank of `m`, two integer positions of these results pick one element."""
        positions = []
        while isinstance(expr, cst.Subscript):
            if not all(isinstance(el.slice, cst.Index) and _is_int(el.slice.value) for el in expr.slice):
                return False
            positions[:0] = expr.slice
            expr = expr.value
        if len(positions) != 2 or not isinstance(expr, cst.Call):
            return False
        qual = self.facts.qualname(expr.func)
        if qual == "torch.where":
            return len(expr.args) == 1 and expr.args[0].keyword is None
        if qual == "torch.nonzero":
            return bool(expr.args)
        mc = method_call(expr)  # a method only tensors (and NumPy arrays) have
        return mc is not None and mc[1] == "nonzero" and not positional(expr) and tensor_or_unknown(self.facts, mc[0])[0]


def _is_int(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Integer)

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind

_BOOL_METHODS = frozenset({
    "bool", "eq", "ne", "gt", "lt", "ge", "le", "isnan", "isinf", "isfinite", "isneginf",
    "isposinf", "logical_and", "logical_or", "logical_not", "logical_xor", "isclose",
})
_BOOL_FUNCTIONS = frozenset(f"torch.{m}" for m in _BOOL_METHODS - {"bool"})


class BooleanMaskIndex(Rule):
    """
    ## What it does
    Flags reading `x[mask]` with a boolean tensor `mask` (a comparison result such as
    `x[x > 0]`, `.bool()`, `torch.isnan(...)`, the values of a mask's `.max(dim)`, or a
    helper's comparison of its parameters where a compiled caller passes tensors, or a mask
    in the tuple it returns), and `x[mask] += v`, inside a compiled region.
    An input of the compiled function is not taken for a mask, whatever its name: it may
    as well hold indices, which do not break.

    ## Why is this bad?
    Boolean indexing selects as many elements as the mask has `True` values, so the
    result's size depends on the data. Dynamo treats it as a dynamic-shape operator and
    breaks the graph (unless `capture_dynamic_output_shape_ops=True`). Writing through a
    mask, `x[mask] = 0`, keeps the shape and is traced fine.

    ## Example
    ```python
    loss = F.cross_entropy(logits[valid], target[valid])
    ```

    ## Use instead
    ```python
    loss = F.cross_entropy(logits, target.masked_fill(~valid, -100), ignore_index=-100)
    # or: (per_elem * valid).sum() / valid.sum(); x.masked_fill(~mask, 0); torch.where(mask, a, b)
    ```
    """

    code = "TC302"
    name = "boolean-mask-index"
    message = "indexing with a boolean mask gives a data-dependent shape; the graph breaks here"
    graph_break = hazards.DYNAMIC_SHAPE_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x.clone()
                y[y < 0] = 0
                return y.masked_fill(x > 1, 1)
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                best, where = x.max(dim=-1)
                return x[:, where] * best
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            def order(x):
                return x.argsort()
            @torch.compile
            def f(x):
                idx = order(x)
                return x[idx]
        """, call="f(torch.randn(8))"),
        Example("""
            import torch
            def below(x, low):
                return x < low
            @torch.compile
            def f(x):
                keep = below(x.shape[0], 2)
                return x[keep] + 1
        """, call="f(torch.randn(4, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x[x > 0].sum()
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x.clone()
                y[torch.isnan(y)] += 1
                return y
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            def drop_self_loops(edge_index):
                keep = edge_index[0] != edge_index[1]
                return edge_index[:, keep]
            @torch.compile
            def f(edge_index):
                return drop_self_loops(edge_index) * 2
        """, call="f(torch.tensor([[0, 1, 2], [0, 2, 1]]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x[torch.max(x > 0, dim=1).values]
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            def first_nonzero(x, dim: int = -1):
                nonz = x > 0
                return ((nonz.cumsum(dim) == 1) & nonz).max(dim)
            @torch.compile
            def f(x):
                found, idx = first_nonzero(x)
                return idx[found]
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            def out_of_bounds(x, low, upp):
                a, b = x < low, x > upp
                return torch.logical_or(a, b)
            @torch.compile
            def f(x):
                inside = ~out_of_bounds(x, -0.5, 0.5)
                return x[inside]
        """, call="f(torch.randn(8))"),
        Example("""
            import torch
            def below(x, low):
                return x < low
            @torch.compile
            def f(x):
                keep = ~below(x, 0.5)
                return x[keep]
        """, call="f(torch.rand(8))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._store_targets: set[int] = set()

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_dynamic_output_shape_ops

    def _is_mask(self, expr: cst.BaseExpression):
        """True, a Condition (a mask where it holds), or False."""
        value = self.facts.value(expr)
        if value.known_mask:
            return True
        if value.kind is Kind.MASK:
            return value.condition
        if value.mask_when:
            return value.mask_when
        if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.BitInvert):
            return self._is_mask(expr.expression)
        if isinstance(expr, cst.BinaryOperation) and isinstance(expr.operator, (cst.BitAnd, cst.BitOr, cst.BitXor)):
            left, right = self._is_mask(expr.left), self._is_mask(expr.right)
            if not (left and right):
                return False
            return True if left is True and right is True else frozenset().union(
                *(side for side in (left, right) if side is not True))
        if isinstance(expr, cst.Call):
            qual = self.facts.qualname(expr.func)
            if qual in _BOOL_FUNCTIONS:
                return True
            if qual is None and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in _BOOL_METHODS:
                return self.facts.value(expr.func.value).known_tensor
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            if isinstance(t.target, cst.Subscript):
                self._store_targets.add(id(t.target))

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if id(node) in self._store_targets:
            return  # `x[mask] = v` keeps the shape: traced
        for element in node.slice:
            mask = self._is_mask(element.slice.value) if isinstance(element.slice, cst.Index) else False
            if mask:
                if self.facts.value(node.value).kind in (Kind.STATIC, Kind.MODULE):
                    return
                self.report(node, condition=None if mask is True else mask)
                return

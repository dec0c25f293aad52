import libcst as cst

from tclint.analyzer.call_refs import AnyMethod, Method, Named, NumpyResult, SuperMethod
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text
from tclint.analyzer.values import Kind


class TensorBranch(Rule):
    """
    ## What it does
    Flags `if`, `while`, conditional expressions, `and`/`or`/`not` (also outside a
    test: `ok = not (ids < 0).any()`), comprehension filters, `all()`/`any()` over tensor
    elements (`all(a < b for a, b in zip(t[:-1], t[1:]))`) and `assert`s with a message
    built at run time whose condition is a tensor value inside a compiled region.

    ## Why is this bad?
    Dynamo records one straight-line graph. A Python branch on tensor *data* cannot be
    decided while tracing, so Dynamo ends the graph, runs the condition eagerly and
    resumes in a new graph. Branching on shapes, dtypes, `self.training` or config
    values is fine: those are static and Dynamo guards on them. So is a check only
    float16 tensors reach (`x.dtype == torch.float16 and torch.isinf(x).any()`): tclint
    reads code for float32 and bfloat16, where Dynamo never traces it. `assert tensor_cond`
    with no message or a constant one becomes a runtime assertion in the graph; a
    message built at run time (`.format()`, an f-string with values, `%`) cannot.

    ## Example
    ```python
    if torch.isnan(scores).any():
        scores = torch.nan_to_num(scores)
    ```

    ## Use instead
    ```python
    scores = torch.nan_to_num(scores)          # or torch.where(cond, a, b)
    ```
    For genuinely different computations use `torch.cond(pred, true_fn, false_fn, operands)`.
    """

    code = "TC101"
    name = "tensor-branch"
    message = "branching on a tensor value breaks the graph"
    graph_break = hazards.BRANCHING
    also_predicts = (hazards.DATA_DEPENDENT_OP,)

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._tested: set[int] = set()  # `not` nodes inside a test already checked

    VALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                side = int(np.sqrt(x.shape[-1]))
                if np.issubdtype(np.float32, np.floating):
                    x = x * 2
                return x.reshape(-1, side, side)
        """, call="f(torch.ones(2, 16))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if x.dtype == torch.float16 and torch.isinf(x).any():
                    x = torch.clamp(x, min=-60000.0, max=60000.0)
                return x * 2
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, y):
                batch = torch.broadcast_shapes(x.shape[:-1], y.shape[:-1])
                if batch != y.shape[:-1]:
                    y = y.expand(*batch, y.shape[-1])
                return x + y
        """, call="f(torch.ones(2, 3), torch.ones(1, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                frozen = not x.requires_grad and not x.is_cuda
                return x * 2 if frozen else x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if x.dim() == 2 and x.shape[0] > 1:
                    x = x * 2
                return x if x.dtype == torch.float32 else x.float()
        """, call="f(torch.randn(3, 4))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return torch.where(x.sum() > 0, x, -x)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def forward(self, x, mask=None):
                    if self.training and mask is not None:
                        x = x * mask
                    return x
        """, call="torch.compile(M())(torch.randn(3), torch.ones(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                assert (x > 0).all()
                assert (x < 9).all(), "values out of range"
                return x + 1
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, scale):
                if not isinstance(scale, torch.Tensor):
                    if scale > 1:
                        x = x * scale
                return x
        """, call="f(torch.randn(3), 2.0)"),
        Example("""
            import torch
            def _group(xs):
                sums = [x.sum() for x in xs]
                return len(xs), sums
            @torch.compile
            def f(xs):
                n, sums = _group(xs)
                if sums:
                    return xs[0] + n
                return xs[0]
        """, call="f([torch.ones(3), torch.ones(2)])"),
        Example("""
            import torch
            rows = lambda t: t.shape[0]
            @torch.compile
            def f(x):
                if rows(x) > 2:
                    return x * 2
                return x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, scale: float):
                norm = lambda t: t.norm()
                if scale > 1:
                    norm = lambda t: scale
                if norm(x) > 1:
                    return x / 2
                return x
        """, call="f(torch.randn(3), 2.0)"),
        Example("""
            import torch
            def search(obj_func, x, f):
                f_new, g_new = obj_func(x)
                if f_new > f:
                    return g_new
                return x
            def evaluate(x):
                return float(x.shape[0]), x * 2
            @torch.compile
            def f(x):
                return search(evaluate, x, 2.0)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Tagged(torch.Tensor):
                def from_forward(self) -> bool:
                    return getattr(self, "mode", None) == "forward"
            def tagged(y: torch.Tensor) -> bool:
                return isinstance(y, Tagged) and y.from_forward()
            @torch.compile
            def f(y: torch.Tensor):
                if tagged(y):
                    return y
                if isinstance(y, Tagged) and y.from_forward():
                    return y * 2
                return y + 1
            def make(mode):
                t = torch.randn(3).as_subclass(Tagged)
                t.mode = mode
                return t
        """, call="f(make('inverse'))"),
        Example("""
            import torch
            class Tagged(torch.Tensor):
                def from_forward(self):
                    return True
            @torch.compile
            def f(x):
                y = x.as_subclass(Tagged)
                if isinstance(y, Tagged):
                    if y.from_forward():
                        return y * 2
                return y + 1
        """, call="f(torch.ones(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Tagged(torch.Tensor):
                def positive(self):
                    return self.sum() > 0
            @torch.compile
            def f(x):
                y = x.as_subclass(Tagged)
                if isinstance(y, Tagged):
                    if y.positive():
                        return y * 2
                return y + 1
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            class Tagged(torch.Tensor):
                def from_forward(self) -> bool:
                    return getattr(self, "mode", None) == "forward"
            @torch.compile
            def f(y: torch.Tensor):
                if isinstance(y, Tagged) and y.from_forward() and y.sum() > 0:
                    return y * 2
                return y + 1
            def make(mode):
                t = torch.randn(3).as_subclass(Tagged)
                t.mode = mode
                return t
        """, call="f(make('forward'))"),
        Example("""
            import torch
            def search(obj_func, x, f, gtd):
                f_new, g_new = obj_func(x)
                if f_new > f + 1e-4 * gtd:
                    return g_new
                return x
            def evaluate(x):
                return 3.0, x * 2
            @torch.compile
            def f(x):
                return search(evaluate, x, 2.0, x.sum())
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def search(obj_func, x):
                f_new, g_new = obj_func(x)
                if f_new > 0:
                    return g_new
                return x
            def evaluate(x):
                return x.sum(), x * 2
            @torch.compile
            def f(x):
                return search(evaluate, x)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            dot = lambda u, v: torch.dot(u.view(-1), v.view(-1))
            @torch.compile
            def f(g, d):
                gtd = dot(g, d)
                if gtd > 0:
                    return g
                return -g
        """, call="f(torch.randn(3), torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, batched: bool):
                if batched:
                    dot = lambda u, v: torch.bmm(u.unsqueeze(1), v.unsqueeze(2)).view(-1)
                else:
                    dot = lambda u, v, eps=1e-6: u.mul(v).sum(-1) + eps
                if dot(x, x) > 1:
                    return x / 2
                return x
        """, call="f(torch.randn(3), False)"),
        Example("""
            import torch
            def increasing(ts):
                return all(a < b for a, b in zip(ts[:-1], ts[1:]))
            @torch.compile
            def f(ts):
                if not increasing(ts):
                    ts = ts.flip(0)
                return ts * 2
        """, call="f(torch.tensor([0.0, 0.5, 1.0]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if x.sum() > 0:
                    return x
                return -x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                while x.abs().max() > 1:
                    x = x / 2
                return x
        """, call="f(torch.randn(3) * 10)"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x if x.mean() > 0 else -x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                if not torch.isnan(x).any():
                    return x
                return x.nan_to_num()
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, t):
                if x.min() <= t <= x.max():
                    return x
                return -x
        """, call="f(torch.randn(3), 0.5)"),
        Example("""
            import collections
            import torch
            Span = collections.namedtuple("Span", "lo, hi")
            @torch.compile
            def f(x):
                span = Span(x.min(), x.max())
                if span.hi - span.lo > 1:
                    return x / (span.hi - span.lo)
                return x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                assert (x > 0).all(), "not positive: {}".format(x.shape)
                return x + 1
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, t):
                assert x[0] == t[0] and x[-1] == t[-1]
                return x + 1
        """, call="f(torch.ones(3), torch.ones(3))"),
        Example("""
            import numpy as np
            import torch
            def chunk_length(a, b):
                if a == b:
                    return a
                return np.lcm(a, b)
            @torch.compile
            def f(x):
                if x.shape[-1] % chunk_length(4, 6) != 0:
                    x = torch.nn.functional.pad(x, (0, 2))
                return x
        """, call="f(torch.ones(2, 10))"),
        Example("""
            import torch
            @torch.compile
            def f(x, ids, strict: bool = True):
                if strict and not ids.any():
                    return x
                return x + 1
        """, call="f(torch.ones(3), torch.zeros(3))"),
        Example("""
            import torch
            @torch.compile
            def f(ids):
                valid = ids.dim() == 2 and not (ids < 0).any()
                return ids + 1, valid
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, alpha, beta):
                picked = [b for i, (a, b) in enumerate(zip(alpha, beta)) if a == 1.0]
                return x + len(picked)
        """, call="f(torch.ones(3), torch.tensor([0.5, 1.0]), torch.ones(2))"),
        Example("""
            import torch
            def _group(xs):
                sums = [x.sum() for x in xs]
                return len(xs), sums
            @torch.compile
            def f(xs):
                n, sums = _group(xs)
                if sums[0] > 0:
                    return xs[0] + n
                return xs[0]
        """, call="f([torch.ones(3), torch.ones(2)])"),
    ]

    def _check(self, test: cst.BaseExpression) -> None:
        shown = test  # `if not t:` is reported as a branch on `not t`
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            self._tested.add(id(test))
            test = test.expression
        value = self.facts.value(test)
        if value.truth_is_data:
            named, said = value_text(shown), self._where_from(test)
            what = "a NumPy value, which Dynamo traces as a tensor" if value.kind is Kind.NDARRAY else "a tensor"
            if named:
                message = f"branching on `{named}`, {what}{f' ({said})' if said else ''}, breaks the graph"
            else:
                message = f"{self.message} ({said})" if said else None
            self.report(shown, message, condition=_with_numpy_returns(value.condition))

    def _where_from(self, test: cst.BaseExpression) -> str | None:
        """"`peak`, a tensor returned by `torch.amax`" for the first name in the test whose
        value's origin is known."""
        todo = [test]
        while todo:
            e = todo.pop(0)
            if isinstance(e, cst.Name):
                said = self.facts.value(e).describe(e.value)
                if said:
                    return said
            elif isinstance(e, cst.Comparison):
                todo += [e.left, *(t.comparator for t in e.comparisons)]
            elif isinstance(e, (cst.BinaryOperation, cst.BooleanOperation)):
                todo += [e.left, e.right]
            elif isinstance(e, cst.UnaryOperation):
                todo.append(e.expression)
        return None

    def visit_If(self, node: cst.If) -> None:
        self._check(node.test)

    def visit_While(self, node: cst.While) -> None:
        self._check(node.test)

    def visit_IfExp(self, node: cst.IfExp) -> None:
        self._check(node.test)

    def visit_CompIf(self, node: cst.CompIf) -> None:
        self._check(node.test)

    def visit_Assert(self, node: cst.Assert) -> None:
        if node.msg is not None and not _constant_text(node.msg):
            self._check(node.test)

    def visit_BooleanOperation(self, node: cst.BooleanOperation) -> None:
        # `a and b` tests the truth of `a` (and of `b` when the result is itself tested).
        self._check(node.left)

    def visit_Call(self, node: cst.Call) -> None:
        # `all(a < b for ...)`, `any(...)`: the builtin takes the truth of each element
        if (self.facts.qualname(node.func) in ("builtins.all", "builtins.any") and len(node.args) == 1
                and isinstance(node.args[0].value, (cst.GeneratorExp, cst.ListComp, cst.SetComp))):
            value = self.facts.element_value(node.args[0].value)
            if value.truth_is_data:
                name = self.facts.qualname(node.func).rpartition(".")[2]
                # over a generator, Dynamo cannot rebuild it half-run after the break and runs the
                # rest of the frame eagerly ("Generator reconstruction with mutations")
                self.report(node, f"`{name}()` reads the truth of each element, {value.kind.value}; "
                                  f"the graph breaks here", condition=_with_numpy_returns(value.condition),
                            ends_frame=isinstance(node.args[0].value, cst.GeneratorExp))

    def visit_UnaryOperation(self, node: cst.UnaryOperation) -> None:
        # `not t` asks for the truth of `t` wherever it stands, in a test or not; a test that
        # is one `not` says so itself.
        if not isinstance(node.operator, cst.Not) or id(node) in self._tested:
            return
        value = self.facts.value(node.expression)
        if value.truth_is_data:
            named = value_text(node.expression)
            what = f"`{named}`, {value.kind.value}," if named else value.kind.value
            self.report(node, f"`not` on {what} reads its value; the graph breaks here",
                        condition=_with_numpy_returns(value.condition), graph_break=hazards.DATA_DEPENDENT_OP)


def _with_numpy_returns(condition):
    """A truth test also breaks where a helper returns a NumPy value (a `NumpyResult`)."""
    if not condition:
        return condition
    calls = {NumpyResult(ref) for ref in condition if isinstance(ref, (Named, Method, SuperMethod, AnyMethod))}
    return type(condition)(condition | calls) if calls else condition


def _constant_text(node: cst.BaseExpression) -> bool:
    """A message Python compiles to a constant: a string literal, or an f-string without
    replacement fields."""
    if isinstance(node, cst.SimpleString):
        return True
    if isinstance(node, cst.ConcatenatedString):
        return _constant_text(node.left) and _constant_text(node.right)
    if isinstance(node, cst.FormattedString):
        return all(isinstance(part, cst.FormattedStringText) for part in node.parts)
    return False

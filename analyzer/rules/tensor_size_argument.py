import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.int_arguments import CONSTRUCTORS, FUNCTIONS, METHODS, NumberParams
from tclint.analyzer.rules._support import BoundNames, keyword, method_call, positional, tensor_arg
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class TensorSizeArgument(Rule):
    """
    ## What it does
    Flags tensors passed where a torch op needs a Python number: sizes and lengths
    (`torch.arange(lengths.max())`, `x.new_zeros(n, d)` with `n = mask.sum()`), `k` of
    `topk`, `shifts` of `roll`, `num_classes` of `one_hot`, `pad` of `F.pad`, the scalar
    factor of `torch.add(a, b, alpha=...)` or `torch.addcmul(..., value=...)`, inside a
    compiled region.

    ## Why is this bad?
    The op needs the number itself, so Dynamo has to read the tensor's value (an implicit
    `.item()`). With `capture_scalar_outputs=False` it reports a data-dependent operator and
    the graph ends there. Sizes from shapes (`x.size(0)`, `x.shape[-1]`) are static and fine.

    ## Example
    ```python
    max_len = attention_mask.sum(-1).max()
    positions = torch.arange(max_len, device=x.device)
    ```

    ## Use instead
    ```python
    positions = torch.arange(attention_mask.shape[-1], device=x.device)   # pad to the static length
    ```
    Or compute the number outside the compiled region and pass it in as an int, or set
    `torch._dynamo.config.capture_scalar_outputs = True`.
    """

    code = "TC111"
    name = "tensor-size-argument"
    message = "this op needs a Python number here; passing a tensor reads its value and breaks the graph"
    graph_break = hazards.DATA_DEPENDENT_OP

    VALID = [
        Example("""
            import torch
            def rearrange(backend, x, shape):
                return backend.reshape(x, shape)
            @torch.compile
            def f(x):
                return rearrange(torch, x, (x.shape[0], -1))
        """, call="f(torch.randn(4, 2))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = x.size(0)
                return torch.arange(n) + x.new_zeros(x.shape[0]) + torch.full((n,), x.mean())
        """, call="f(torch.randn(4))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x.view(x.shape[0], -1).topk(2).values.clamp(min=x.mean())
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(exp_avg, grad):
                exp_avg = exp_avg.clone()
                exp_avg.add_(grad, alpha=grad.norm())
                return exp_avg
        """, call="f(torch.zeros(3), torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                max_len = (x > 0).sum(-1).max()
                return torch.arange(max_len)
        """, call="f(torch.randn(3, 4))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = (x > 0).sum()
                return x.new_zeros((n, 2))
        """, call="f(torch.randn(4))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                k = (x > 0).sum()
                return torch.topk(x, k)
        """, call="f(torch.randn(4))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                n = (x > 0).sum()
                return torch.full((n,), 0.5)
        """, call="f(torch.randn(4))"),
        Example("""
            import torch
            import torch.nn.functional as F
            @torch.compile
            def f(labels):
                return F.one_hot(labels, num_classes=labels.max() + 1)
        """, call="f(torch.tensor([0, 2, 1]))"),
        Example("""
            import torch
            def bfgs_update(inv_hess, s, y, rho_inv):
                rho = rho_inv.reciprocal()
                return torch.addr(inv_hess, s, y, alpha=-rho)
            @torch.compile
            def f(inv_hess, s, y):
                return bfgs_update(inv_hess, s, y, y.dot(s))
        """, call="f(torch.eye(3), torch.randn(3), torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                width = torch.randint(0, 3, (1,))[0]
                start = torch.randint(0, x.shape[0] - width, (1,))
                return x + start
        """, call="f(torch.randn(8))"),
        Example("""
            import torch
            @torch.compile
            def f(stats, g):
                stats = stats.clone()
                stats.addmm_(g, g.t(), beta=g.norm())
                return stats
        """, call="f(torch.eye(3), torch.randn(3, 3))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_scalar_outputs

    def __init__(self, analyzer):
        super().__init__(analyzer)
        # Names computed by number arithmetic, like `new_height = 2 * window_size[0] - 1`
        # on an un-annotated input, which is usually a size here.
        self._numbers = BoundNames()

    def visit_Assign(self, node: cst.Assign) -> None:
        names = self._numbers.names(self.facts)
        self._numbers.assign(self.facts, node, self._number_arithmetic(node.value, names))

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual is not None:
            params, label = FUNCTIONS.get(qual), f"`{qual.removeprefix('torch.nn.functional.')}`"
        else:
            mc = method_call(node)
            if mc is None or mc[1] not in METHODS or not self._tensor_like(mc[0]) or self._backend_call(mc[0], node):
                return
            params, label = METHODS[mc[1]], f"`.{mc[1]}()`"
        if params is None:
            return
        names = self._numbers.names(self.facts)
        for arg in _number_arguments(node, params):
            is_tensor, cond = tensor_arg(self.facts, arg)
            if is_tensor and not self._number_arithmetic(arg, names):
                self.report(arg, f"{label} needs a Python number here; passing a tensor reads its value "
                                 f"(an implicit `.item()`) and breaks the graph", condition=cond)
                return

    def _number_arithmetic(self, expr: cst.BaseExpression, names: set[str]) -> bool:
        """True when no part of `expr` is a known tensor: arithmetic on inputs (which are
        often sizes), Python numbers, and torch functions of those (`torch.div(n, 2)`,
        which Dynamo computes as a number), but not a tensor built from numbers
        (`torch.randint(0, 3, (1,))[0]`), which Dynamo must read."""
        if isinstance(expr, cst.Name):
            return expr.value in names or self.facts.tensor_condition(expr) is None
        if isinstance(expr, cst.Subscript):
            return self._number_arithmetic(expr.value, names)
        if isinstance(expr, cst.Attribute) and self.facts.attribute_condition(expr) is not None:
            # `self.ranks`: a tensor where the object's class stores one (or a property returns one),
            # known from where it comes from, not taken for an input
            return False
        if isinstance(expr, cst.BinaryOperation):
            return self._number_arithmetic(expr.left, names) and self._number_arithmetic(expr.right, names)
        if isinstance(expr, cst.UnaryOperation):
            return self._number_arithmetic(expr.expression, names)
        qual = self.facts.qualname(expr.func) if isinstance(expr, cst.Call) else None
        if qual in CONSTRUCTORS:
            return False
        if qual is not None and qual.startswith("torch."):
            return all(self._number_arithmetic(a.value, names) for a in expr.args)
        return self.facts.tensor_condition(expr) is None

    def _backend_call(self, receiver: cst.BaseExpression, call: cst.Call) -> bool:
        """`backend.reshape(tensor, shape)`: a receiver of unknown kind given the tensor as
        its first argument is a namespace of functions, not the tensor itself."""
        args = positional(call)
        return (not self.facts.value(receiver).known_tensor and bool(args)
                and tensor_arg(self.facts, args[0])[0])

    def _tensor_like(self, receiver: cst.BaseExpression) -> bool:
        value = self.facts.value(receiver)
        if value.kind in (Kind.TENSOR, Kind.MASK):
            return True
        # an object of unknown type, but not `self` or an imported module such as `np`
        return value.kind is Kind.UNKNOWN and not self.facts.is_self(receiver) and self.facts.qualname(receiver) is None


def _number_arguments(call: cst.Call, params: NumberParams):
    """The arguments in number positions; the elements of a literal size tuple or list."""
    args = positional(call)
    chosen = args if params.positions is None else [args[i] for i in params.positions if i < len(args)]
    chosen += [v for v in (keyword(call, name) for name in params.keywords) if v is not None]
    for arg in chosen:
        if isinstance(arg, (cst.Tuple, cst.List)):
            yield from (el.value for el in arg.elements if not isinstance(el, cst.StarredElement))
        else:
            yield arg

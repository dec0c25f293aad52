import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import BoundNames, method_call
from tclint.analyzer.rules.base import Example, Rule

# Tensor methods that change the view of their receiver in place (its shape or strides).
_INPLACE_VIEWS = frozenset({"t_", "transpose_", "swapdims_", "swapaxes_", "squeeze_", "unsqueeze_", "as_strided_"})


def _is_grad(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Attribute) and expr.attr.value == "grad"


class InplaceViewOfInput(Rule):
    """
    ## What it does
    Flags an in-place view method (`t_()`, `transpose_()`, `squeeze_()`, `unsqueeze_()`,
    `swapdims_()`, `as_strided_()`) called on a gradient read from `.grad` (as in an
    optimizer's `step()`), which is always an input of the compiled graph.

    ## Why is this bad?
    Dynamo cannot change the view of a graph input in place ("Getting an inplace view on a
    graph input is not supported"): the graph breaks at the call. On a tensor computed
    inside the graph the same method traces fine. (A tensor passed to the compiled function
    breaks too, but a `forward`'s parameter is an input only where that module is the one
    compiled, not where another module's `forward` passes it an intermediate, so parameters
    are left alone.)

    ## Example
    ```python
    @torch.compile
    def step(params):
        for p in params:
            grad = p.grad
            grad = grad.transpose_(0, 1).contiguous()
    ```

    ## Use instead
    Use the out-of-place method (`grad.transpose(0, 1)`, `x.unsqueeze(0)`), which returns a
    new view and leaves the input as it is.
    """

    code = "TC244"
    name = "inplace-view-of-input"
    message = "an in-place view method on a gradient (an input of the compiled graph) is not supported; the graph breaks here"
    graph_break = hazards.INPLACE_VIEW_OF_INPUT

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                y.transpose_(0, 1)
                return y.unsqueeze(0)
        """, call="f(torch.randn(3, 4))"),
        Example("""
            import torch
            @torch.compile
            def f(p):
                grad = p.grad
                grad = grad.clone()
                grad.t_()
                return grad * 2
        """, call="f((lambda p: (setattr(p, 'grad', torch.randn(3, 4)), p)[1])(torch.nn.Parameter(torch.randn(3, 4))))"),
        Example("""
            import torch
            class Inner(torch.nn.Module):
                def forward(self, h):
                    h.unsqueeze_(0)
                    return h * 2
            class Outer(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.inner = Inner()
                def forward(self, x):
                    return self.inner(x * 2)
        """, call="torch.compile(Outer())(torch.randn(3, 4))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(p):
                p.grad.t_()
                return p.grad * 2
        """, call="f((lambda p: (setattr(p, 'grad', torch.randn(3, 3)), p)[1])(torch.nn.Parameter(torch.randn(3, 3))))"),
        Example("""
            import torch
            @torch.compile
            def f(p):
                grad = p.grad
                grad = grad.transpose_(0, 1).contiguous()
                return grad * 2
        """, call="f((lambda p: (setattr(p, 'grad', torch.randn(3, 4)), p)[1])(torch.nn.Parameter(torch.randn(3, 4))))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._grads = BoundNames()  # names whose latest assignment read a `.grad`

    def leave_Assign(self, node: cst.Assign) -> None:
        # after the value: `grad = grad.transpose_(0, 1)` calls the method on the old binding
        self._grads.assign(self.facts, node, _is_grad(node.value))

    def visit_Call(self, node: cst.Call) -> None:
        found = method_call(node)
        if found is None or found[1] not in _INPLACE_VIEWS or self.facts.function is None:
            return
        receiver = found[0]
        if _is_grad(receiver) or (isinstance(receiver, cst.Name) and receiver.value in self._grads.names(self.facts)):
            self.report(node, f"`.{found[1]}()` changes the view of a gradient read from `.grad`, an input of the "
                              "compiled graph, which Dynamo does not support; the graph breaks here. Use the "
                              "out-of-place method")

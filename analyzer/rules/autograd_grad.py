import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class AutogradGrad(Rule):
    """
    ## What it does
    Flags `torch.autograd.grad(...)` inside a compiled region.

    ## Why is this bad?
    With Dynamo's default `trace_autograd_ops=False`, `torch.autograd.grad` is not traced:
    the graph ends at the call and the gradient is computed eagerly.

    ## Example
    ```python
    @torch.compile
    def gradient_penalty(critic, x):
        out = critic(x)
        (g,) = torch.autograd.grad(out.sum(), x, create_graph=True)
        return ((g.norm(dim=1) - 1) ** 2).mean()
    ```

    ## Use instead
    Compile the model (or the part before `autograd.grad`) and call
    `torch.autograd.grad` outside the compiled function, or use `torch.func.grad`,
    which Dynamo traces.
    """

    code = "TC213"
    name = "autograd-grad"
    message = "`torch.autograd.grad` is not traced by Dynamo; the graph breaks here"
    graph_break = hazards.AUTOGRAD_GRAD


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return torch.func.grad(lambda t: (t * t).sum())(x)
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = (x * x).sum()
                (g,) = torch.autograd.grad(y, x)
                return g
        """, call="f(torch.randn(3, requires_grad=True))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if self.facts.qualname(node.func) == "torch.autograd.grad":
            self.report(node)

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import method_call, tensor_or_unknown
from tclint.analyzer.rules.base import Example, Rule


class RetainGradCall(Rule):
    """
    ## What it does
    Flags `tensor.retain_grad()` inside a compiled region.

    ## Why is this bad?
    `retain_grad()` asks autograd to keep the gradient of an intermediate tensor, which the
    compiled graph (built through AOTAutograd) cannot express: the graph ends at the call.

    ## Example
    ```python
    def forward(self, x):
        h = self.encoder(x)
        h.retain_grad()
        self.saved = h
        return self.head(h)
    ```

    ## Use instead
    Inspect the gradient with a hook registered outside the compiled region, or run the
    model eagerly (`torch.compiler.set_stance("force_eager")`) while debugging gradients.
    """

    code = "TC222"
    name = "retain-grad-call"
    message = "`.retain_grad()` is not supported in a compiled graph; the graph breaks here"
    graph_break = hazards.RETAIN_GRAD

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                return y, y.requires_grad
        """, call="f(torch.randn(3, requires_grad=True))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                y.retain_grad()
                return y
        """, call="f(torch.randn(3, requires_grad=True))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        found = method_call(node)
        if found is None or found[1] != "retain_grad" or node.args:
            return
        is_tensor, condition = tensor_or_unknown(self.facts, found[0])
        if is_tensor:
            self.report(node, condition=condition)

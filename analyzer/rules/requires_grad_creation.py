import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import keyword
from tclint.analyzer.rules.base import Example, Rule


class RequiresGradCreation(Rule):
    """
    ## What it does
    Flags tensors created with `requires_grad=True` inside a compiled region
    (`torch.zeros(n, requires_grad=True)`, `torch.tensor(v, requires_grad=True)`,
    `torch.ones_like(x, requires_grad=True)`).

    ## Why is this bad?
    A tensor that requires grad made in the middle of the program is a new autograd leaf,
    which Dynamo cannot put in a graph: the graph ends at the call, whether or not the
    tensor is used afterwards.

    ## Example
    ```python
    def forward(self, x):
        offset = torch.zeros(x.shape[-1], requires_grad=True)
        return x + offset
    ```

    ## Use instead
    Make learnable values parameters of the module (`self.offset = nn.Parameter(...)` in
    `__init__`), or create the tensor before the compiled call and pass it in.
    """

    code = "TC221"
    name = "requires-grad-creation"
    message = ("a tensor created with `requires_grad=True` is a new autograd leaf, which Dynamo cannot "
               "trace; the graph breaks here")
    graph_break = hazards.CREATE_REQUIRES_GRAD

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x + torch.zeros(3, requires_grad=False)
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                offset = torch.zeros(3, requires_grad=True)
                return x + offset
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x + torch.ones_like(x, requires_grad=True)
        """, call="f(torch.randn(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        flag = keyword(node, "requires_grad")
        if not (isinstance(flag, cst.Name) and flag.value == "True"):
            return
        qual = self.facts.qualname(node.func)
        # nn.Parameter(..., requires_grad=True) has its own break and rule (module-in-forward)
        if qual and qual.startswith("torch.") and not qual.startswith("torch.nn."):
            self.report(node)

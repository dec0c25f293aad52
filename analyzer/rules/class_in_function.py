import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class ClassInFunction(Rule):
    """
    ## What it does
    Flags a `class` statement inside a function that compiled code runs: the class is built
    each time the function runs (an `autograd.Function` made per call around a closure, a
    small record type).

    ## Why is this bad?
    Dynamo 2.13 cannot trace building a class (`__build_class__`), whatever its bases and
    body: the graph breaks at the `class` line ("Invalid call to __build_class__").

    ## Example
    ```python
    def solve(f, x):
        class Adjoint(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return f(x)
        return Adjoint.apply(x)
    ```

    ## Use instead
    Define the class once at module level, and pass what it closed over as arguments
    (an `autograd.Function` takes them in `apply`, or store them on the instance).
    """

    code = "TC240"
    name = "class-in-function"
    message = "building a class in compiled code is not traceable; the graph breaks here (define it at module level)"
    graph_break = hazards.CLASS_DEFINITION

    VALID = [
        Example("""
            import torch
            class Scale:
                k = 2
            @torch.compile
            def f(x):
                return x * Scale.k
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                class Scale:
                    k = 2
                return x * Scale.k
        """, call="f(torch.ones(2))"),
        Example("""
            import torch
            def make(scale):
                class Mul(torch.autograd.Function):
                    @staticmethod
                    def forward(ctx, t):
                        return t * scale
                    @staticmethod
                    def backward(ctx, g):
                        return g * scale
                return Mul
            @torch.compile
            def f(x):
                return make(2.0).apply(x)
        """, call="f(torch.ones(2))"),
    ]

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if self.facts.function is not None:
            self.report(node.name)

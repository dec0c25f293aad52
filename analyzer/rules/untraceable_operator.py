from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class UntraceableOperator(Rule):
    """
    ## What it does
    Flags `a @ b` and `~a` in compiled code where `a` is an object of a class of your
    project that defines `__matmul__` / `__invert__` (built in the code: `a = Op(...)`,
    `self`, `Op(...) @ b`). Found in the project phase, once tclint knows the class.

    ## Why is this bad?
    Dynamo 2.13 inlines most operators of a plain Python class (`+`, `-`, `*`, `/`, `-a`,
    ...) but not these two: it fails to trace the operator, whatever the method does,
    and the graph breaks ("Failed to trace builtin operator", or "Failed to convert
    args/kwargs to proxy" when the other operand is a tensor). An operator is no point Dynamo can resume at, so it compiles
    the function only up to the statement (TC228 says so when the graph is big enough
    there) and runs the rest of it eagerly.

    ## Example
    ```python
    class Operator:
        def __init__(self, w):
            self.w = w
        def __matmul__(self, x):
            return self.w @ x

    def forward(self, x):
        return Operator(self.weight) @ x     # graph break, the rest runs eagerly
    ```

    ## Use instead
    Call the method by name (`op.apply(x)`, or `op.__matmul__(x)`), which Dynamo inlines.
    """

    code = "TC232"
    name = "untraceable-operator"
    message = "Dynamo cannot trace `@` or `~` on an object of a class of yours: the graph breaks here"
    graph_break = hazards.BUILTIN_OP
    also_predicts = (hazards.OBJECT_ARGUMENT,)  # what Dynamo names it when the other operand is a tensor

    VALID = [
        Example("""
            import torch
            class Operator:
                def __init__(self, w):
                    self.w = w
                def __matmul__(self, x):
                    return self.w * x
                def __neg__(self):
                    return Operator(-self.w)
                def apply(self, x):
                    return self.w * x
            @torch.compile
            def f(x):
                op = Operator(x.sin())
                y = (-op).apply(x)
                return op.__matmul__(y) + x @ x
        """, call="f(torch.ones(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Operator:
                def __init__(self, w):
                    self.w = w
                def __matmul__(self, x):
                    return self.w * x
            @torch.compile
            def f(x):
                x = x * 2
                return Operator(x.sin()) @ x
        """, call="f(torch.ones(3))"),
        Example("""
            import torch
            class Mask:
                def __init__(self, keep):
                    self.keep = keep
                def __invert__(self):
                    return Mask(1 - self.keep)
            @torch.compile
            def f(x):
                m = Mask(x.sigmoid())
                return x * (~m).keep
        """, call="f(torch.ones(3))"),
    ]

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class ReturnedFunctionDefault(Rule):
    """
    ## What it does
    Flags a compiled function's `return` of an object it builds there whose class's `__init__`
    stores a parameter's function default on it (`def __init__(self, q, fmt=lambda x: x):
    self.fmt = fmt`), or a dataclass field's, where the call leaves that parameter to its
    default. Found in the project phase, which knows the class from any file.

    ## Why is this bad?
    Dynamo knows a function default of the `__init__` it inlines by value only, without a
    source. When the object leaves the compiled frame, Dynamo has to rebuild it with its
    attributes and cannot rebuild that function ("Reconstruction failure"): it compiles the
    function up to the `return` and runs the rest eagerly. A function passed explicitly, a
    builtin, a lambda made in `__init__`'s body, or an object that stays in the frame is fine.

    ## Example
    ```python
    class ActionValue:
        def __init__(self, q, formatter=lambda x: x):
            self.q = q
            self.formatter = formatter

    @torch.compile
    def q_function(x):
        return ActionValue(x * 2)   # breaks: `formatter` has no source
    ```

    ## Use instead
    Default to `None` and pick the function when it is used, pass the function explicitly,
    or return the tensors and build the object outside the compiled code.
    """

    code = "TC233"
    name = "returned-function-default"
    message = "returns an object built here that stores a function default Dynamo cannot rebuild"
    graph_break = hazards.RECONSTRUCTION_FAILURE

    VALID = [
        Example("""
            import torch
            def identity(x):
                return x
            class ActionValue:
                def __init__(self, q, formatter=lambda x: x):
                    self.q = q
                    self.formatter = formatter
            @torch.compile
            def f(x):
                return ActionValue(x * 2, identity)
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            class ActionValue:
                def __init__(self, q, formatter=lambda x: x):
                    self.q = q
                    self.formatter = formatter
            @torch.compile
            def f(x):
                return ActionValue(x * 2).q + 1
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            class ActionValue:
                def __init__(self, q, formatter=torch.relu):
                    self.q = q
                    self.formatter = formatter
            @torch.compile
            def f(x):
                return ActionValue(x * 2)
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            class ActionValue:
                def __init__(self, q):
                    self.q = q
                    self.formatter = lambda x: x
            @torch.compile
            def f(x):
                return ActionValue(x * 2)
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            class ActionValue:
                def __init__(self, q, formatter=lambda x: x):
                    self.q = formatter(q)
            def build(x):
                return ActionValue(x * 2)
            @torch.compile
            def f(x):
                return build(x).q + 1
        """, call="f(torch.ones(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            class ActionValue:
                def __init__(self, q, formatter=lambda x: x):
                    self.q = q
                    self.formatter = formatter
            @torch.compile
            def f(x):
                h = x * 2
                return ActionValue(h)
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            from dataclasses import dataclass
            def identity(x):
                return x
            @dataclass
            class ActionValue:
                q: torch.Tensor
                formatter: object = identity
            class Distributional(ActionValue):
                pass
            @torch.compile
            def f(x):
                out = Distributional(x * 2)
                return out, x
        """, call="f(torch.ones(2, 3))"),
        Example("""
            import torch
            def identity(x):
                return x
            class ActionValue:
                def __init__(self, q, *, formatter=identity):
                    self.q = q
                    self.formatter = formatter
            class Head(torch.nn.Module):
                def forward(self, x):
                    return ActionValue(x * 2)
            model = torch.compile(Head())
            def f(x):
                return model(x)
        """, call="f(torch.ones(2, 3))"),
    ]

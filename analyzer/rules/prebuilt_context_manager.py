import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class PrebuiltContextManager(Rule):
    """
    ## What it does
    Flags `with self.timer:` (or `with TIMER:` on a module-level object) inside a compiled
    region, when the object is an instance of a library or project class built before the
    compiled code runs (in `__init__`, or at import); and `with ctx:` on a parameter that a
    compiled caller passes such an object (`wrap(self.timer, x)`), or passes on.

    ## Why is this bad?
    Dynamo traces a user-defined context manager only when the compiled code builds it
    itself (`with Timer():`). Entering one that already exists is an "Unsupported context
    manager" for Dynamo 2.13, even when its `__enter__` and `__exit__` are trivial: the
    graph breaks at the `with` and the block runs eagerly.

    ## Example
    ```python
    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.profile = RegionTimer()

        def forward(self, x):
            with self.profile:
                return self.body(x)
    ```

    ## Use instead
    Build the context manager in the `with` statement (`with RegionTimer():`), or move
    the timing or bookkeeping around the compiled call.
    """

    code = "TC223"
    name = "prebuilt-context-manager"
    message = ("entering a context manager built outside the compiled code is not supported by Dynamo; "
               "the graph breaks here and the block runs eagerly")
    graph_break = hazards.CONTEXT_MANAGER

    VALID = [
        Example("""
            import torch
            class Depth:
                def __init__(self):
                    self.depth = 0
                def __enter__(self):
                    self.depth += 1
                    return self
                def __exit__(self, *exc):
                    self.depth -= 1
            @torch.compile
            def f(x):
                with Depth(), torch.no_grad():
                    y = x * 2
                return y
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Depth:
                def __enter__(self):
                    return self
                def __exit__(self, *exc):
                    return None
            def wrap(ctx, x):
                with ctx:  # built in the compiled code: traced
                    return x * 2
            @torch.compile
            def f(x):
                return wrap(Depth(), x)
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Depth:
                def __init__(self):
                    self.depth = 0
                def __enter__(self):
                    self.depth += 1
                    return self
                def __exit__(self, *exc):
                    self.depth -= 1
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.depth = Depth()
                def forward(self, x):
                    with self.depth:
                        y = x * 2
                    return y
        """, call="torch.compile(Net())(torch.randn(3))"),
        Example("""
            import torch
            class Depth:
                def __enter__(self):
                    return self
                def __exit__(self, *exc):
                    return None
            DEPTH = Depth()
            @torch.compile
            def f(x):
                with DEPTH:
                    y = x * 2
                return y
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Depth:
                def __enter__(self):
                    return self
                def __exit__(self, *exc):
                    return None
            def wrap(ctx, x):
                with ctx:
                    return x * 2
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.depth = Depth()
                def forward(self, x):
                    return wrap(self.depth, x)
        """, call="torch.compile(Net())(torch.randn(3))"),
    ]

    def visit_With(self, node: cst.With) -> None:
        params = self.facts.function.param_refs if self.facts.function is not None else {}
        for item in node.items:
            built = self.analyzer.built_before(item.item)
            if built is not None:
                name = built.rpartition(".")[2]
                self.report(item.item, f"`{name}` object built outside the compiled code: {self.message}")
            elif isinstance(item.item, cst.Name) and item.item.value in params:
                param = params[item.item.value]
                self.report(item.item, f"`{param.name}` may be an object built outside the compiled code: {self.message}",
                            condition=frozenset({refs.PrebuiltArg(param.function, param.position, param.name)}))

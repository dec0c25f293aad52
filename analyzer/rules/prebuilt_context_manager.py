import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class PrebuiltContextManager(Rule):
    """
    ## What it does
    Flags `with self.timer:` (or `with TIMER:` on a module-level object) inside a compiled
    region, when the object is an instance of a library or project class built before the
    compiled code runs (in `__init__`, or at import).

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
    ]

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            built = self._built_before(item.item)
            if built is not None:
                name = built.rpartition(".")[2]
                self.report(item.item, f"`{name}` object built outside the compiled code: {self.message}")

    def _built_before(self, expr: cst.BaseExpression) -> str | None:
        """The class an existing object was built from, if it is a library or project class."""
        facts = self.facts
        built = None
        if isinstance(expr, cst.Attribute) and facts.is_self(expr.value):
            built = facts.function.class_scope.built_from.get(expr.attr.value)
        elif isinstance(expr, cst.Name) and facts.function is not None and facts.function.lookup(expr.value) is None:
            built = facts.module_instances.get(expr.value)
        # torch's and the standard library's context managers have their own handling
        if built is None or not facts.is_project_name(built) or not built.rpartition(".")[2][:1].isupper():
            return None
        return built

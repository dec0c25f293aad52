import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import compile_guard_fix
from tclint.analyzer.rules.base import Example, Rule


class PrintCall(Rule):
    """
    ## What it does
    Flags `print(...)` inside a compiled region.

    ## Why is this bad?
    Printing is a side effect Dynamo cannot put in a graph: it ends the graph at the
    call, prints eagerly and starts a new graph after it, whatever is printed (a
    constant string, a shape or a tensor).

    ## Example
    ```python
    def forward(self, x):
        print("input", x.shape)
        return self.net(x)
    ```

    ## Use instead
    Print outside the compiled call, or guard debug output with
    `if not torch.compiler.is_compiling():`. To keep the print but move it after the
    graph, add `print` to `torch._dynamo.config.reorderable_logging_functions`.
    """

    code = "TC201"
    name = "print-call"
    message = "`print()` is a side effect Dynamo cannot trace; the graph breaks here"
    graph_break = hazards.BUILTIN_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x * 2
            def run(x):
                y = f(x)
                print(y.shape)  # outside the compiled region
                return y
        """, call="run(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                if not torch.compiler.is_compiling():
                    print("shape", y.shape)  # what the quick fix writes: eager runs only
                return y + 1
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                print("shape", y.shape)
                return y + 1
        """, call="f(torch.randn(3))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return "builtins.print" not in dynamo.reorderable_logging_functions

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._statements: set[int] = set()  # print calls that are whole statements (fixable)

    def visit_Expr(self, node: cst.Expr) -> None:
        if isinstance(node.value, cst.Call) and self.facts.qualname(node.value.func) == "builtins.print":
            self._statements.add(id(node.value))
            self.report(node.value, fix=compile_guard_fix(self.facts, node))

    def visit_Call(self, node: cst.Call) -> None:
        if id(node) not in self._statements and self.facts.qualname(node.func) == "builtins.print":
            self.report(node)

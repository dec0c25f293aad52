import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import GRAPH_BREAK
from tclint.analyzer.rules._support import UntraceableCalls
from tclint.analyzer.rules.base import Example, Rule


class ExplicitGraphBreak(Rule):
    """
    ## What it does
    Flags `torch._dynamo.graph_break()` inside a compiled region.

    ## Why is this bad?
    The call exists to split the graph: Dynamo ends the graph there and starts a new one.
    It is often left over from debugging, and each break costs a graph boundary (lost
    fusion, extra guards) on every call.

    ## Example
    ```python
    def forward(self, x):
        x = self.encoder(x)
        torch._dynamo.graph_break()
        return self.head(x)
    ```

    ## Use instead
    ```python
    def forward(self, x):
        return self.head(self.encoder(x))
    ```
    If a part must run eagerly, move it into a function decorated with
    `torch.compiler.disable` so the intent is explicit.
    """

    code = "TC208"
    name = "explicit-graph-break"
    message = "`torch._dynamo.graph_break()` ends the graph here"
    graph_break = hazards.GRAPH_BREAK_CALL


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return (x * 2).relu()
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                x = x * 2
                torch._dynamo.graph_break()
                return x.relu()
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._calls = UntraceableCalls(GRAPH_BREAK)

    def visit_Call(self, node: cst.Call) -> None:
        if self._calls.match(self.facts, node) is not None:
            self.report(node)

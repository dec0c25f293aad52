import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import DEBUGGER
from tclint.analyzer.rules._support import UntraceableCalls
from tclint.analyzer.rules.base import Example, Rule


class DebuggerCall(Rule):
    """
    ## What it does
    Flags `breakpoint()` and `pdb.set_trace()` inside a compiled region.

    ## Why is this bad?
    Dynamo cannot trace into the debugger: `pdb` is skipped and the `breakpoint` builtin
    is not traceable, so the graph ends at the call. The debugger then stops in the
    eager remainder, not in the code you compiled.

    ## Example
    ```python
    def forward(self, x):
        h = self.encoder(x)
        breakpoint()
        return self.head(h)
    ```

    ## Use instead
    Remove the call before compiling, or debug eagerly with
    `torch.compiler.set_stance("force_eager")`.
    """

    code = "TC209"
    name = "debugger-call"
    message = "entering the debugger is not traceable; the graph breaks here"
    graph_break = hazards.BUILTIN_OP
    also_predicts = (hazards.SKIPPED,)

    # The INVALID examples install a no-op hook so that running them does not stop.

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                h = x * 2
                return h.relu()
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import sys
            import torch
            sys.breakpointhook = lambda *args, **kwargs: None
            @torch.compile
            def f(x):
                h = x * 2
                breakpoint()
                return h.relu()
        """, call="f(torch.randn(3))"),
        Example("""
            import pdb
            import torch
            pdb.Pdb.set_trace = lambda self, frame=None: None
            @torch.compile
            def f(x):
                h = x * 2
                pdb.set_trace()
                return h.relu()
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._calls = UntraceableCalls(DEBUGGER)

    def visit_Call(self, node: cst.Call) -> None:
        hit = self._calls.match(self.facts, node)
        if hit is not None:
            self.report(node, self._calls.message(*hit), graph_break=hit[1].graph_break)

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import WALL_CLOCK
from tclint.analyzer.rules._support import UntraceableCalls
from tclint.analyzer.rules.base import Example, Rule


class WallClock(Rule):
    """
    ## What it does
    Flags reads of the clock (`time.time()`, `time.perf_counter()`, `time.sleep()`,
    `datetime.datetime.now()`, ...) inside a compiled region.

    ## Why is this bad?
    Dynamo skips the `time` module and cannot trace `datetime` methods, so it ends the
    graph at the call, runs it eagerly and starts a new graph after it. Timing code
    inside the region also measures tracing, not the compiled kernels.

    ## Example
    ```python
    def forward(self, x):
        start = time.perf_counter()
        y = self.net(x)
        self.elapsed = time.perf_counter() - start
        return y
    ```

    ## Use instead
    ```python
    start = time.perf_counter()
    y = compiled_model(x)              # time the compiled call from outside
    elapsed = time.perf_counter() - start
    ```
    On GPU use `torch.cuda.Event(enable_timing=True)` or `torch.profiler`.
    """

    code = "TC203"
    name = "wall-clock"
    message = "reading the clock is not traceable and breaks the graph"
    graph_break = hazards.SKIPPED
    also_predicts = (hazards.METHOD_CALL,)


    VALID = [
        Example("""
            import time
            import torch
            @torch.compile
            def f(x):
                return x * 2
            def timed(x):
                start = time.perf_counter()
                y = f(x)
                return y, time.perf_counter() - start
        """, call="timed(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import time
            import torch
            @torch.compile
            def f(x):
                start = time.time()
                y = x * 2
                return y, time.time() - start
        """, call="f(torch.randn(3))"),
        Example("""
            import datetime
            import torch
            @torch.compile
            def f(x):
                stamp = datetime.datetime.now()
                return x + 1, stamp
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._calls = UntraceableCalls(WALL_CLOCK)

    def visit_Call(self, node: cst.Call) -> None:
        hit = self._calls.match(self.facts, node)
        if hit is not None:
            self.report(node, self._calls.message(*hit), graph_break=hit[1].graph_break)

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import SIDE_EFFECT
from tclint.analyzer.rules._support import UntraceableCalls
from tclint.analyzer.rules.base import Example, Rule


class SideEffectCall(Rule):
    """
    ## What it does
    Flags calls with effects outside the graph inside a compiled region: the file system
    (`open`, `os.path.exists`, `os.makedirs`, `shutil`, `glob`), processes (`subprocess`,
    `os.system`), serialization (`pickle`, `json`, `torch.save`, `torch.load`), `uuid`,
    `sys.getsizeof`, warning filters (`warnings.simplefilter`), torch's global random state
    (`torch.manual_seed`, `torch.Generator()`), c10d `barrier` / `broadcast`, thread locks,
    `gc.collect`, `sys.stdout.write`, CUDA queries (`torch.cuda.device_count()`,
    `torch.cuda.memory_allocated()`), and context managers such as
    `torch.autograd.detect_anomaly()`, `torch.random.fork_rng()`,
    `contextlib.redirect_stdout()` and `tempfile.TemporaryDirectory()`, and reading or
    setting a module-level `contextvars.ContextVar`.

    ## Why is this bad?
    Dynamo skips these modules (or cannot trace the builtin), so the graph ends at the
    call, the call runs eagerly, and a new graph starts after it. The effect also runs
    on every call, which is rarely what a model's forward wants.

    ## Example
    ```python
    def forward(self, x):
        y = self.net(x)
        torch.save(y, "activations.pt")
        return y
    ```

    ## Use instead
    Return what needs saving and do the I/O after the compiled call returns (or before
    it, for reads). Path manipulation (`os.path.join`) and `os.getenv` are traceable.
    """

    code = "TC205"
    name = "side-effect-call"
    message = "this call has effects Dynamo cannot trace; the graph breaks here"
    graph_break = hazards.SKIPPED
    also_predicts = (hazards.BUILTIN_OP, hazards.METHOD_CALL, hazards.CONTEXT_MANAGER,
                     hazards.NON_TENSOR_RESULT, hazards.OPAQUE_OBJECT, hazards.INLINE_SKIPPED)


    VALID = [
        Example("""
            import os
            import torch
            @torch.compile
            def f(x):
                if os.getenv("DOUBLE") == "1":
                    x = x * 2
                name = os.path.join("out", "x.pt")
                return x + 1, name
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import os
            import torch
            @torch.compile
            def f(x):
                if os.path.exists("/definitely/not/here"):
                    x = x * 2
                return x + 1
        """, call="f(torch.randn(3))"),
        Example("""
            import json
            import torch
            @torch.compile
            def f(x):
                record = json.dumps({"n": x.shape[0]})
                return x + 1, record
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                with open(__file__) as fh:
                    first = fh.readline()
                return x + 1, first
        """, call="f(torch.randn(3))"),
        Example("""
            import sys
            import torch
            @torch.compile
            def f(x):
                return x + sys.getsizeof(3)
        """, call="f(torch.randn(3))"),
        Example("""
            import warnings
            import torch
            @torch.compile
            def f(x):
                warnings.simplefilter("ignore")
                return x + 1
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                torch.manual_seed(0)
                return x + torch.rand(3)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                gen = torch.Generator()
                return x + 1, gen
        """, call="f(torch.randn(3))"),
        Example("""
            import contextlib
            import io
            import torch
            @torch.compile
            def f(x):
                with torch.autograd.detect_anomaly():
                    y = x * 2
                with contextlib.redirect_stdout(io.StringIO()):
                    y = y + 1
                return y
        """, call="f(torch.randn(3))"),
        Example("""
            import contextvars
            import torch
            CAPTURE = contextvars.ContextVar("capture", default=False)
            @torch.compile
            def f(x):
                return x * 2 if CAPTURE.get() else x
        """, call="f(torch.randn(3))"),
        Example("""
            import gc
            import sys
            import torch
            @torch.compile
            def f(x):
                gc.collect()
                sys.stderr.write("step\\n")
                return x + torch.cuda.device_count()
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._calls = UntraceableCalls(SIDE_EFFECT)

    def visit_Call(self, node: cst.Call) -> None:
        hit = self._calls.match(self.facts, node)
        if hit is not None:
            self.report(node, self._calls.message(*hit), graph_break=hit[1].graph_break)
        elif self._context_var_access(node.func):
            self.report(node, "reading or setting a `contextvars.ContextVar` is not traceable; the graph breaks "
                              "here. Read it before the compiled call and pass the value in",
                        graph_break=hazards.METHOD_CALL)

    def _context_var_access(self, func: cst.BaseExpression) -> bool:
        return (isinstance(func, cst.Attribute) and func.attr.value in ("get", "set", "reset")
                and isinstance(func.value, cst.Name)
                and self.facts.module_instances.get(func.value.value) == "contextvars.ContextVar")

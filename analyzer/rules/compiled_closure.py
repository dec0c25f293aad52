import libcst as cst

from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.file_analysis import COMPILE_NAMES
from tclint.analyzer.rules.base import Example, Rule


class CompiledClosure(Rule):
    """
    ## What it does
    Flags `torch.compile(...)` of a lambda or nested function, inside a function, when
    it captures variables of the enclosing function.

    ## Why is this bad?
    Every call of the enclosing function makes a fresh closure. Dynamo guards on the
    captured values, so when they differ between calls the closure is compiled again.

    ## Example
    ```python
    def apply(x, k):
        return torch.compile(lambda t: t * k)(x)
    ```

    ## Use instead
    ```python
    @torch.compile
    def scaled(t, k):
        return t * k

    def apply(x, k):
        return scaled(x, k)       # pass the value as an argument, compile once
    ```
    """

    code = "TC402"
    name = "compiled-closure"
    message = "compiling a closure inside a function: it recompiles whenever the captured values change"
    severity = Severity.INFO
    scope = "module"
    report_anywhere = True
    recompiles = True

    VALID = [
        Example("""
            import torch
            @torch.compile
            def scaled(t, k):
                return t * k
            def apply(x, k):
                return scaled(x, k)
            def run():
                for k in (2, 2, 2):
                    apply(torch.randn(3), k)
        """, call="run()"),
    ]
    INVALID = [
        Example("""
            import torch
            def apply(x, k):
                return torch.compile(lambda t: t * k)(x)
            def run():
                for k in (1, 2, 3):
                    apply(torch.randn(3), k)
        """, call="run()"),
        Example("""
            import torch
            def apply(x, k):
                def inner(t):
                    return t + k
                return torch.compile(inner)(x)
            def run():
                for k in (1, 2, 3):
                    apply(torch.randn(3), k)
        """, call="run()"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self.nested: list[dict[str, cst.FunctionDef]] = []

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        if self.nested:
            self.nested[-1][node.name.value] = node
        self.nested.append({})

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.nested.pop()

    def visit_Call(self, node: cst.Call) -> None:
        fn = self.facts.function
        if fn is None or not node.args or self.facts.qualname(node.func) not in COMPILE_NAMES:
            return
        target = node.args[0].value
        if isinstance(target, cst.Lambda):
            body, params = target.body, target.params
        elif isinstance(target, cst.Name) and self.nested and target.value in self.nested[-1]:
            inner = self.nested[-1][target.value]
            body, params = inner.body, inner.params
        else:
            return
        own = {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)}
        captured = sorted(n for n in _names(body) - own if n in fn.env)
        if captured:
            self.report(node, f"compiling a closure that captures {', '.join(f'`{c}`' for c in captured)}: "
                              "Dynamo guards on captured values and recompiles when they change")


def _names(node: cst.CSTNode) -> set[str]:
    found: set[str] = set()

    class _Collect(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

    node.visit(_Collect())
    return found

import libcst as cst

from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.file_analysis import COMPILE_NAMES, _decorator_target
from tclint.analyzer.rules.base import Example, Rule


class VaryingScalarArgument(Rule):
    """
    ## What it does
    Flags calls of a compiled function, inside a loop, that pass a Python number which
    changes from iteration to iteration (the loop counter, or a value computed from it).

    ## Why is this bad?
    Dynamo specializes compiled code on the values of Python `int` and `float` arguments
    and guards on them. When the value changes, the guard fails and the function is
    compiled again (after the first change Dynamo retries with a dynamic value, but that
    still costs a second compilation, and branches on the value recompile again).

    ## Example
    ```python
    for step in range(num_steps):
        loss = train_step(model, batch, step * 0.01)
    ```

    ## Use instead
    ```python
    lr = torch.tensor(0.0)
    for step in range(num_steps):
        lr.fill_(step * 0.01)          # a tensor input: same graph every step
        loss = train_step(model, batch, lr)
    ```
    Or mark the value dynamic from the start with `torch._dynamo.mark_dynamic` /
    `torch.compile(dynamic=True)`.
    """

    code = "TC401"
    name = "varying-scalar-argument"
    message = "a Python number that changes every iteration is passed to a compiled function: it recompiles"
    severity = Severity.INFO
    scope = "module"
    report_anywhere = True
    recompiles = True

    VALID = [
        Example("""
            import torch
            @torch.compile
            def scale(x, s):
                return x * s
            def run():
                for _ in range(4):
                    scale(torch.randn(3), 2)
        """, call="run()"),
        Example("""
            import torch
            @torch.compile
            def scale(x, s):
                return x * s
            def run():
                s = torch.tensor(0.0)
                for i in range(4):
                    s.fill_(i)
                    scale(torch.randn(3), s)
        """, call="run()"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def scale(x, s):
                return x * s
            def run():
                for i in range(4):
                    scale(torch.randn(3), i)
        """, call="run()"),
        Example("""
            import torch
            def shift(x, s):
                return x + s
            compiled_shift = torch.compile(shift)
            def run():
                for step in range(4):
                    offset = step * 0.5
                    compiled_shift(torch.randn(3), offset)
        """, call="run()"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self.compiled: set[str] = analyzer.compiled_defs  # filled before any node is visited
        self.varying: list[set[str]] = []  # per enclosing loop: names that change per iteration

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        for dec in node.decorators:
            if self.facts.qualname(_decorator_target(dec)) in COMPILE_NAMES:
                self.compiled.add(node.name.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if isinstance(value, cst.Call) and self.facts.qualname(value.func) in COMPILE_NAMES:
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    self.compiled.add(t.target.value)
        if self.varying and self._mentions_varying(value):
            for t in node.targets:
                if isinstance(t.target, cst.Name):
                    self.varying[-1].add(t.target.value)

    def visit_For(self, node: cst.For) -> None:
        names = set()
        it = node.iter
        if isinstance(it, cst.Call):
            qual = self.facts.qualname(it.func)
            if qual == "builtins.range" and isinstance(node.target, cst.Name):
                names.add(node.target.value)
            elif qual == "builtins.enumerate" and isinstance(node.target, cst.Tuple):
                first = node.target.elements[0].value
                if isinstance(first, cst.Name):
                    names.add(first.value)
        elif isinstance(it, (cst.List, cst.Tuple)) and isinstance(node.target, cst.Name):
            if it.elements and all(isinstance(e.value, (cst.Integer, cst.Float)) for e in it.elements):
                names.add(node.target.value)
        outer = self.varying[-1] if self.varying else set()
        self.varying.append(set(outer) | names)

    def leave_For(self, node: cst.For) -> None:
        self.varying.pop()

    def visit_Call(self, node: cst.Call) -> None:
        if not self.varying or not isinstance(node.func, cst.Name) or node.func.value not in self.compiled:
            return
        for arg in node.args:
            if self._is_varying_number(arg.value):
                self.report(arg.value, f"`{node.func.value}` is compiled and gets a Python number that changes "
                                       "every iteration: Dynamo guards on it and recompiles")
                return

    def _is_varying_number(self, expr) -> bool:
        if isinstance(expr, cst.Name):
            return expr.value in self.varying[-1]
        if isinstance(expr, cst.BinaryOperation):
            return self._mentions_varying(expr) and all(
                isinstance(side, (cst.Name, cst.Integer, cst.Float, cst.BinaryOperation)) for side in (expr.left, expr.right)
            )
        return False

    def _mentions_varying(self, expr) -> bool:
        if isinstance(expr, cst.Name):
            return expr.value in self.varying[-1]
        if isinstance(expr, cst.BinaryOperation):
            return self._mentions_varying(expr.left) or self._mentions_varying(expr.right)
        if isinstance(expr, cst.UnaryOperation):
            return self._mentions_varying(expr.expression)
        return False

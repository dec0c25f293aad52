import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import keyword
from tclint.analyzer.rules.base import Example, Rule


class GeneratorArgument(Rule):
    """
    ## What it does
    Flags a `torch.Generator` passed as `generator=` to a torch call inside a compiled region
    (`torch.randn(n, generator=g)`), where `g` is built in the function
    (`torch.Generator(device).manual_seed(seed)`, also in one arm of an `if` whose other arm
    binds `None`: the call breaks wherever the generator's arm ran) or at module level.
    Building the generator in compiled code is a break of its own (TC205).

    ## Why is this bad?
    Dynamo cannot put a generator object in a graph: the call breaks it ("Failed to convert
    args/kwargs to proxy"), whether the generator was built inside the compiled function,
    passed in, or lives at module level. `generator=None` traces.

    ## Example
    ```python
    def noise(size, seed):
        g = torch.Generator().manual_seed(seed)
        return torch.randn(size, generator=g)
    ```

    ## Use instead
    ```python
    # draw the noise before the compiled call and pass the tensor in, or draw from the
    # global RNG (seeded with torch.manual_seed outside the compiled region)
    def noise(size):
        return torch.randn(size)
    ```
    """

    code = "TC230"
    name = "generator-argument"
    message = ("a torch.Generator passed as `generator=` cannot be put in a graph; the graph breaks here "
               "(draw outside the compiled region, or from the global RNG)")
    graph_break = hazards.OBJECT_ARGUMENT

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, generator=None):
                return x + torch.randn(3, generator=generator)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, seed=3):
                gen = torch.Generator().manual_seed(seed)
                if seed > 5:
                    seed = 0
                gen = None
                return x + torch.rand(3, generator=gen)
        """),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, seed=3):
                g = torch.Generator("cpu").manual_seed(int(seed))
                return x + torch.randn(3, generator=g)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x, seed=3):
                if seed is not None:
                    gen = torch.Generator(device=x.device)
                    gen.manual_seed(seed)
                else:
                    gen = None
                idx = torch.multinomial(
                    x.abs(),
                    num_samples=2,
                    generator=gen,
                )
                return x[idx]
        """, call="f(torch.randn(5))"),
        Example("""
            import torch
            G = torch.Generator()
            @torch.compile
            def f(x):
                return x + torch.rand(3, generator=G)
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        # (function key, local name) -> the `if` arms of each binding to a generator still live
        self._generators: dict[tuple[str, str], list[tuple]] = {}
        self._arms: list[list] = []  # the `if` statements around the node: [If, arm (0 body, 1 orelse)]

    def visit_If(self, node: cst.If) -> None:
        if self._arms and self._arms[-1][0].orelse is node:
            self._arms[-1][1] = 1  # an `elif`
        self._arms.append([node, 0])

    def leave_If(self, original_node: cst.If) -> None:
        if self._arms and self._arms[-1][0] is original_node:
            self._arms.pop()

    def visit_Else(self, node: cst.Else) -> None:
        if self._arms and self._arms[-1][0].orelse is node:  # not the `else` of a `for`, `while` or `try`
            self._arms[-1][1] = 1

    def visit_Assign(self, node: cst.Assign) -> None:
        arms = tuple((id(n), arm) for n, arm in self._arms)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                where = (self.facts.function.key, target.target.value)
                live = [a for a in self._generators.get(where, []) if _exclusive(a, arms)]
                if self._builds_generator(node.value):
                    live.append(arms)
                self._generators[where] = live

    def visit_Call(self, node: cst.Call) -> None:
        passed = keyword(node, "generator")
        if passed is None or not (self.facts.qualname(node.func) or "").startswith("torch."):
            return
        if self._builds_generator(passed) or isinstance(passed, cst.Name) and (
                self._generators.get((self.facts.function.key, passed.value))
                or self.facts.function.lookup(passed.value) is None
                and self.facts.module_instances.get(passed.value) == "torch.Generator"):
            self.report(node)  # Dynamo places the break on the call's first line

    def _builds_generator(self, value: cst.BaseExpression) -> bool:
        """`torch.Generator(...)`, also with `.manual_seed(...)` called on it."""
        while (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
               and value.func.attr.value == "manual_seed"):
            value = value.func.value
        return isinstance(value, cst.Call) and self.facts.qualname(value.func) == "torch.Generator"


def _exclusive(first: tuple, second: tuple) -> bool:
    """Two bindings in different arms of one `if`: the later does not replace the earlier."""
    for a, b in zip(first, second):
        if a != b:
            return a[0] == b[0]
    return False

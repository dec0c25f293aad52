import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import keyword
from tclint.analyzer.rules.base import Example, Rule


class GeneratorArgument(Rule):
    """
    ## What it does
    Flags a `torch.Generator` passed as `generator=` to a torch call inside a compiled region
    (`torch.randn(n, generator=g)`), where `g` is built in the function
    (`torch.Generator(device).manual_seed(seed)`) or at module level. Building the generator
    in compiled code is a break of its own (TC205).

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
            G = torch.Generator()
            @torch.compile
            def f(x):
                return x + torch.rand(3, generator=G)
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._generators: set[tuple[str, str]] = set()  # (function key, local name) holding a generator

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                where = (self.facts.function.key, target.target.value)
                if self._builds_generator(node.value):
                    self._generators.add(where)
                else:
                    self._generators.discard(where)

    def visit_Call(self, node: cst.Call) -> None:
        passed = keyword(node, "generator")
        if passed is None or not (self.facts.qualname(node.func) or "").startswith("torch."):
            return
        if self._builds_generator(passed) or isinstance(passed, cst.Name) and (
                (self.facts.function.key, passed.value) in self._generators
                or self.facts.function.lookup(passed.value) is None
                and self.facts.module_instances.get(passed.value) == "torch.Generator"):
            self.report(passed)

    def _builds_generator(self, value: cst.BaseExpression) -> bool:
        """`torch.Generator(...)`, also with `.manual_seed(...)` called on it."""
        while (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)
               and value.func.attr.value == "manual_seed"):
            value = value.func.value
        return isinstance(value, cst.Call) and self.facts.qualname(value.func) == "torch.Generator"

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

# C functions Dynamo neither inlines nor handles for a generator object: it calls them with
# the arguments it traced and cannot pass a generator (torch 2.13, checked under Dynamo:
# "Failed to convert args/kwargs to proxy" for `math.*`, "Failed to trace builtin operator"
# for `bytes` and `heapq`'s selectors, then "Generator reconstruction with mutations").
# The builtins Dynamo models (`sum`, `max`, `min`, `any`, `all`, `tuple`, `list`, `sorted`,
# `set`, `dict`, `zip`, `map`, `next`), `str.join`, `functools.reduce`, `itertools` and
# `collections` consume a generator fine.
_REFUSE_GENERATORS = frozenset({
    "math.prod", "math.fsum", "math.dist", "builtins.bytes", "heapq.nlargest", "heapq.nsmallest",
})


class GeneratorIntoCCall(Rule):
    """
    ## What it does
    Flags a generator expression passed to `math.prod`, `math.fsum`, `math.dist`, `bytes`,
    `heapq.nlargest` or `heapq.nsmallest` inside a compiled region
    (`math.prod(s for s in x.shape[1:])`).

    ## Why is this bad?
    Dynamo runs these C functions itself with the arguments it traced, and a generator is no
    value it can hand over: the graph breaks ("Failed to convert args/kwargs to proxy"), and
    since Dynamo cannot rebuild the half-run generator to resume after the call
    ("Generator reconstruction with mutations"), it runs the rest of the function eagerly.
    `sum`, `max`, `tuple` and the other builtins Dynamo models consume a generator fine.

    ## Example
    ```python
    n = math.prod(s for s in x.shape[1:])
    ```

    ## Use instead
    ```python
    n = math.prod(x.shape[1:])  # or math.prod([s for s in x.shape[1:]])
    ```
    """

    code = "TC241"
    name = "generator-into-c-call"
    message = ("a generator passed to a C function Dynamo cannot inline breaks the graph, and the rest of the "
               "function runs eagerly; pass a list (`[... for ...]`) instead")
    graph_break = hazards.OBJECT_ARGUMENT
    also_predicts = (hazards.BUILTIN_OP, hazards.GENERATOR_RECONSTRUCTION)

    VALID = [
        Example("""
            import math
            import torch
            @torch.compile
            def f(x):
                n = math.prod([s for s in x.shape[1:]])
                total = sum(s for s in x.shape) + max(s for s in x.shape)
                return x.reshape(-1, n) * total
        """, call="f(torch.randn(2, 3, 4))"),
    ]
    INVALID = [
        Example("""
            import math
            import torch
            @torch.compile
            def f(x):
                n = math.prod(s for s in x.shape[1:])
                return x.reshape(-1, n)
        """, call="f(torch.randn(2, 3, 4))"),
        Example("""
            import heapq
            import torch
            @torch.compile
            def f(x):
                largest = heapq.nlargest(1, (s for s in x.shape))
                return x * largest[0]
        """, call="f(torch.randn(2, 3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        if not any(isinstance(a.value, cst.GeneratorExp) and not a.star for a in node.args):
            return
        qual = self.facts.qualname(node.func)
        if qual in _REFUSE_GENERATORS:
            name = qual.removeprefix("builtins.")
            self.report(node, f"a generator passed to `{name}()`, a C function Dynamo cannot inline, breaks the "
                              f"graph, and the rest of the function runs eagerly; pass a list (`[... for ...]`) "
                              f"instead", ends_frame=True,
                        graph_break=self.graph_break if qual.startswith("math.") else hazards.BUILTIN_OP)

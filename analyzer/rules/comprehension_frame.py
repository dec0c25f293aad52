from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class ComprehensionFrame(Rule):
    """
    ## What it does
    Flags a list, set or dict comprehension over a list, a dict (or its `.items()`,
    `.values()`, `.keys()`) or an `nn.ModuleList`/`Sequential`/`ModuleDict`, in a compiled
    function, where Dynamo has to compile the comprehension as a frame of its own: the
    function runs eagerly there (after a graph break in a loop body, or in a block Dynamo
    cannot resume in), or a graph break inside a comprehension over a dict or modules.
    Found in the project phase, once tclint knows which functions break. Only for code that
    runs on Python 3.11 or older (`target-version`, from `requires-python` by default):
    Python 3.12 inlines comprehensions (PEP 709).

    ## Why is this bad?
    Before Python 3.12 a comprehension is a function of its own that receives the iterator
    of what it iterates. Dynamo traces it inline as long as it traces the function around
    it; otherwise it compiles it separately, and cannot step a list's or a dict's iterator
    that a frame receives ("Missing tp_iternext"): the comprehension runs eagerly too, one
    more break. A tuple's or a range's iterator is fine, and so is a generator expression.

    ## Example
    ```python
    def forward(self, x):
        for layer in self.layers:
            x = layer(x)                            # breaks: the whole forward runs eagerly
        return torch.stack([head(x) for head in self.heads])   # a frame of its own: breaks
    ```

    ## Use instead
    Fix the break that makes the function run eagerly, or loop with a `for` statement
    (or over a tuple) instead of a comprehension.
    """

    code = "TC243"
    name = "comprehension-frame"
    message = "Dynamo compiles this comprehension as a frame of its own and cannot step its iterator"
    graph_break = hazards.MISSING_TP_ITERNEXT

    @classmethod
    def runs_on(cls, python: tuple[int, int]) -> bool:
        return python < (3, 12)  # 3.12 inlines comprehensions: no frame of their own

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, weights):
                return {name: x * w for name, w in weights.items()}
        """, call="f(torch.randn(3), {'a': 1.0, 'b': 2.0})"),
        Example("""
            import torch
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.heads = torch.nn.ModuleList([torch.nn.Linear(3, 3), torch.nn.Linear(3, 3)])
                def forward(self, x):
                    return torch.stack([head(x) for head in self.heads])
            net = torch.compile(Net())
        """, call="net(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            def g(t):
                if t.sum() > 0:
                    return t
                return -t
            @torch.compile
            def f(x, d):
                for i in range(2):
                    x = g(x)
                return x, [x * v for v in d.values()]
        """, call="f(torch.randn(3), {'a': 1.0, 'b': 2.0})"),
        Example("""
            import torch
            def g(t):
                if t.sum() > 0:
                    return t
                return -t
            @torch.compile
            def f(x, weights):
                return {name: g(x) * w for name, w in weights.items()}
        """, call="f(torch.randn(3), {'a': 1.0, 'b': 2.0})"),
        Example("""
            import torch
            class Head(torch.nn.Module):
                def forward(self, x):
                    if x.sum() > 0:
                        return x
                    return -x
            class Net(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.heads = torch.nn.ModuleList([])
                    for _ in range(2):
                        head = Head()
                        self.heads.append(head)
                def forward(self, x):
                    return torch.stack([head(x) for head in self.heads])
            net = torch.compile(Net())
        """, call="net(torch.randn(3))"),
        Example("""
            import torch
            def g(t):
                if t.sum() > 0:
                    return t
                return -t
            @torch.compile
            def f(x, scales):
                order = sorted(scales)
                y = x * 2
                y = y + 1
                try:
                    z = g(y)
                finally:
                    pass
                return z, [x * s for s in order]
        """, call="f(torch.randn(3), [2.0, 1.0])"),
    ]

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class ModuleInitBreak(Rule):
    """
    ## What it does
    Flags each `super().__init__()` in the class chain of an nn.Module that compiled code
    builds (`Block(t)` in a compiled function) while its `__init__` breaks the graph, itself
    or in anything it calls, and in those of the modules that `__init__` builds. Found in the project phase, once tclint knows which functions
    break.

    ## Why is this bad?
    To resume after a break inside `__init__`, Dynamo must rebuild the half-built module,
    and it cannot trace a module whose `nn.Module.__init__` has not finished ("Uninitialized
    nn.Module"): every `super().__init__()` on the way breaks too. A plain class with the
    same `__init__`, or a module whose `__init__` traces, adds no break.

    ## Example
    ```python
    class Scale(nn.Module):
        def __init__(self, t):
            super().__init__()        # breaks too
            self.k = t.item()         # the break in __init__

    def forward(self, x, t):
        return Scale(t)(x)
    ```

    ## Use instead
    Build modules outside the compiled code (in the parent's `__init__`), or keep their
    `__init__` free of graph breaks.
    """

    code = "TC226"
    name = "module-init-break"
    message = "an nn.Module whose `__init__` breaks the graph, built in compiled code"
    graph_break = hazards.UNINITIALIZED_MODULE

    VALID = [
        Example("""
            import torch
            class Scale:
                def __init__(self, k):
                    self.k = k
                def __call__(self, x):
                    return x * self.k
            class Double(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.register_buffer("k", torch.tensor(2.0))
                def forward(self, x):
                    return x * self.k
            @torch.compile
            def f(x):
                return Scale(3)(x) + Double()(x)
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import torch
            class Base(torch.nn.Module):
                def __init__(self):
                    super().__init__()
            class Scale(Base):
                def __init__(self, t):
                    super().__init__()
                    self.k = t.item()
                def forward(self, x):
                    return x * self.k
            @torch.compile
            def f(x, t):
                return Scale(t)(x)
        """, call="f(torch.ones(2), torch.tensor(3.0))"),
        Example("""
            import torch
            from torch import nn
            class Window(nn.Module):
                def __init__(self, size):
                    super().__init__()
                    self.size = size
            class Bands(nn.Module):
                def __init__(self, edges):
                    super().__init__()
                    self.window = Window(4)
                    self.n = int(edges.max())
                def forward(self, x):
                    return x * self.n
            @torch.compile
            def f(x, edges):
                return Bands(edges)(x)
        """, call="f(torch.ones(2), torch.tensor([1.0, 3.0]))"),
    ]

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.untraceable import NUMPY_SIZE_ARGUMENT, PYTHON_RANDOM
from tclint.analyzer.rules._support import UntraceableCalls, argument
from tclint.analyzer.rules.base import Example, Rule


class PythonRandom(Rule):
    """
    ## What it does
    Flags draws from Python's `random` module (`random.random()`, `random.choice()`,
    `random.shuffle()`, ...) and from NumPy's global generator (`np.random.rand()`,
    `np.random.beta()` for mixup, `np.random.permutation()`, ...) inside a compiled region.
    Array draws with a size (`np.random.rand(3)`, `np.random.normal(0, 1, size=n)`) trace
    through `torch._numpy` and are not flagged; a single scalar draw breaks.

    ## Why is this bad?
    Dynamo skips most of `random` and cannot put NumPy's global random state in a graph,
    so the graph ends at the call. (`random.randint` and `random.uniform` are traced:
    Dynamo replays them, but then the value is baked into the graph as a constant.)

    ## Example
    ```python
    def forward(self, x):
        if self.training and random.random() < self.drop_prob:
            return x
        return self.block(x)
    ```

    ## Use instead
    ```python
    def forward(self, x):
        keep = torch.rand((), device=x.device) >= self.drop_prob
        return torch.where(keep, self.block(x), x)
    ```
    """

    code = "TC204"
    name = "python-random"
    message = "Python/NumPy randomness is not traceable and breaks the graph"
    graph_break = hazards.SKIPPED
    also_predicts = (hazards.DATA_DEPENDENT_OP, hazards.NUMPY_UNSUPPORTED)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x * (torch.rand(x.shape) > 0.5)
        """, call="f(torch.randn(3))"),
        Example("""
            import random
            import torch
            @torch.compile
            def f(x):
                return x * random.randint(1, 3)   # replayed by Dynamo, no break
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                noise = np.random.normal(0.0, 0.1, size=x.shape) + np.random.rand(*x.shape)
                return x + torch.from_numpy(noise).float()
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def mixup(x):
                lam = np.random.beta(0.4, 0.4)
                return lam * x + (1 - lam) * x.flip(0)
        """, call="mixup(torch.randn(4, 3))"),
        Example("""
            import random
            import torch
            @torch.compile
            def f(x):
                return x * random.random()
        """, call="f(torch.randn(3))"),
        Example("""
            import random
            import torch
            @torch.compile
            def f(x):
                order = [0, 1, 2]
                random.shuffle(order)
                return x[order]
        """, call="f(torch.randn(3))"),
        Example("""
            import numpy as np
            import torch
            @torch.compile
            def f(x):
                return x + np.random.rand()
        """, call="f(torch.randn(3))"),
    ]

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._calls = UntraceableCalls(PYTHON_RANDOM)

    def visit_Call(self, node: cst.Call) -> None:
        hit = self._calls.match(self.facts, node)
        if hit is not None and not _draws_an_array(hit[0], node):
            self.report(node, self._calls.message(*hit), graph_break=hit[1].graph_break)


def _draws_an_array(qual: str, node: cst.Call) -> bool:
    """`np.random.rand(3)`, `np.random.normal(0, 1, size=n)`: an array draw, which traces."""
    position = NUMPY_SIZE_ARGUMENT.get(qual)
    if position is None:
        return False
    if any(a.star for a in node.args):
        return True  # `np.random.rand(*x.shape)`
    size = argument(node, position, "size")
    return size is not None and not (isinstance(size, cst.Name) and size.value == "None")

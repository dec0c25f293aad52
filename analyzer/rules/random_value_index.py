import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

_RANDOM_INTS = frozenset({"random.randint", "random.randrange"})


class RandomValueIndex(Rule):
    """
    ## What it does
    Flags slicing or indexing a tensor with a number drawn by `random.randint` or
    `random.randrange` inside a compiled region (directly or through a variable).

    ## Why is this bad?
    Dynamo traces these two calls instead of specializing on their result, so the
    number is not a plain Python int while tracing. Used as a slice bound it fails with
    "unimplemented builtin op on tensor arguments"; used as an index it is a data
    dependent operation. Either way the graph breaks, even with constant arguments.
    Multiplying by such a number is fine.

    ## Example
    ```python
    top = random.randint(0, img.shape[-2] - size)
    return img[..., top:top + size, :]
    ```

    ## Use instead
    ```python
    top = int(torch.randint(0, img.shape[-2] - size + 1, ()))   # outside the compiled function
    crop = compiled_crop(img, top)                               # pass the offset in
    ```
    Or express the crop with tensors (`torch.gather` / `index_select` with a tensor of
    indices), which stays in the graph.
    """

    code = "TC110"
    name = "random-value-index"
    message = "slicing a tensor with a number from `random.randint` breaks the graph"
    graph_break = hazards.BUILTIN_TENSOR_ARGS
    also_predicts = (hazards.DATA_DEPENDENT_OP,)

    VALID = [
        Example("""
            import random
            import torch
            @torch.compile
            def f(x):
                k = random.randint(1, 3)
                return x * k
        """, call="f(torch.randn(6, 6))"),
        Example("""
            import torch
            @torch.compile
            def crop(x, top: int):
                return x[top:top + 2]
        """, call="crop(torch.randn(6, 6), 1)"),
    ]
    INVALID = [
        Example("""
            import random
            import torch
            @torch.compile
            def random_crop(img, size: int = 3):
                top = random.randint(0, img.shape[-2] - size)
                return img[..., top:top + size, :]
        """, call="random_crop(torch.randn(2, 6, 6))"),
        Example("""
            import random
            import torch
            @torch.compile
            def pick(x):
                return x[random.randrange(x.shape[0])]
        """, call="pick(torch.randn(5, 2))"),
    ]

    file_state = ("drawn",)

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self.drawn: dict[str, set[str]] = {}  # function key -> local names holding a draw

    def _names(self) -> set[str]:
        return self.drawn.setdefault(self.facts.function.key, set())

    def _is_draw(self, expr: cst.BaseExpression) -> bool:
        if isinstance(expr, cst.Call):
            return self.facts.qualname(expr.func) in _RANDOM_INTS
        if isinstance(expr, cst.Name):
            return expr.value in self._names()
        if isinstance(expr, cst.BinaryOperation):
            return self._is_draw(expr.left) or self._is_draw(expr.right)
        if isinstance(expr, cst.UnaryOperation):
            return self._is_draw(expr.expression)
        return False

    def leave_Assign(self, node: cst.Assign) -> None:
        names = self._names()
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                if self._is_draw(node.value):
                    names.add(t.target.value)
                else:
                    names.discard(t.target.value)

    def visit_Subscript(self, node: cst.Subscript) -> None:
        if not self.facts.value(node.value).known_tensor:
            return
        for element in node.slice:
            part = element.slice
            if isinstance(part, cst.Slice):
                if any(b is not None and self._is_draw(b) for b in (part.lower, part.upper, part.step)):
                    self.report(node)
                    return
            elif isinstance(part, cst.Index) and self._is_draw(part.value):
                self.report(node, "indexing a tensor with a number from `random.randrange`/`randint` reads it as "
                                  "data; the graph breaks here", graph_break=hazards.DATA_DEPENDENT_OP)
                return

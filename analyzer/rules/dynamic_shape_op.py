import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import method_call
from tclint.analyzer.rules.base import Example, Rule

_FUNCTIONS = frozenset({
    "torch.nonzero", "torch.argwhere", "torch.unique", "torch.unique_consecutive",
    "torch.masked_select", "torch.bincount",
    "torch.linalg.lstsq",  # its residuals, rank and singular values are sized by the solver's result
})
# Method names that exist only on tensors (and ndarrays): an unknown receiver counts.
_TENSOR_ONLY_METHODS = frozenset({"nonzero", "argwhere", "unique_consecutive", "masked_select", "bincount"})
# `unique` also exists on other objects (pandas): on unknown receivers only the above count.
_TENSOR_METHODS = _TENSOR_ONLY_METHODS | {"unique"}


class DynamicShapeOp(Rule):
    """
    ## What it does
    Flags operators whose output size depends on tensor values, inside a compiled
    region: `torch.nonzero` / `x.nonzero()`, `torch.argwhere`, `torch.unique` /
    `x.unique()`, `torch.unique_consecutive`, `torch.masked_select`, `torch.bincount`,
    `torch.linalg.lstsq` and one-argument `torch.where(cond)`.

    ## Why is this bad?
    The shape of the result is only known after running the op on real data. With
    Dynamo's default `capture_dynamic_output_shape_ops=False` such ops cannot be put in
    the graph, so the graph breaks at the call.

    ## Example
    ```python
    idx = torch.nonzero(scores > thresh).squeeze(1)
    return boxes[idx]
    ```

    ## Use instead
    ```python
    keep = scores > thresh                       # keep a fixed shape and mask instead
    return torch.where(keep[:, None], boxes, 0)
    ```
    Or set `torch._dynamo.config.capture_dynamic_output_shape_ops = True`, which makes
    all of these traceable (as unbacked symbolic sizes).
    """

    code = "TC301"
    name = "dynamic-shape-op"
    message = "this op's output shape depends on tensor values; the graph breaks here"
    graph_break = hazards.DYNAMIC_SHAPE_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return torch.where(x > 0, x, 0) + torch.count_nonzero(x)
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(a, b):
                return torch.linalg.pinv(a) @ b + torch.linalg.solve(a.T @ a, a.T @ b)
        """, call="f(torch.randn(5, 3), torch.randn(5, 2))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return torch.nonzero(x > 0)
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                labels = x.argmax(-1)
                return labels.unique()
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                rows, cols = torch.where(x > 0)
                return rows + cols
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x.masked_select(x > 0)
        """, call="f(torch.randn(4, 3))"),
        Example("""
            import torch
            @torch.compile
            def f(a, b):
                return torch.linalg.lstsq(a, b).solution
        """, call="f(torch.randn(5, 3), torch.randn(5, 2))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_dynamic_output_shape_ops

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual in _FUNCTIONS:
            self.report(node, f"`{qual}()` returns a tensor whose size depends on the data; Dynamo breaks the "
                              "graph here")
            return
        if qual == "torch.where":
            if len(node.args) == 1 and node.args[0].keyword is None and not node.args[0].star:
                self.report(node, "one-argument `torch.where(cond)` is `nonzero(as_tuple=True)`: its size depends "
                                  "on the data, so Dynamo breaks the graph here")
            return
        if qual is not None:
            return
        mc = method_call(node)
        if mc is None:
            return
        receiver, method = mc
        if method not in _TENSOR_METHODS:
            return
        value = self.facts.value(receiver)
        cond = self.facts.tensor_condition(receiver)
        if cond is None:
            if value.assumed:
                pass  # an un-annotated compiled input: lists and dicts have none of these methods
            elif method not in _TENSOR_ONLY_METHODS or not value.unknown:
                return
            if self.facts.is_self(receiver) or value.unknown and isinstance(receiver, cst.Name) \
                    and self.facts.qualname(receiver) is not None:
                return  # a module or an imported object, e.g. `np.nonzero`
        self.report(node, f"`.{method}()` returns a tensor whose size depends on the data; Dynamo breaks the "
                          "graph here",
                    condition=None if cond in (True, None) else cond)

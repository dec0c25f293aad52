import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import sole_argument, tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class TensorToString(Rule):
    """
    ## What it does
    Flags `str(t)`, `repr(t)` and `"..." % t` where `t` is a tensor, inside a compiled
    region. An un-annotated input of the compiled function formatted whole (`str(x)`)
    counts as a tensor, unless its default, its annotation or the function's body says it
    holds something else (it is called, compared with a string, counted over, passed as a
    size or dim, or read an attribute tensors lack).

    ## Why is this bad?
    Formatting a tensor prints its values, which needs the data: Dynamo cannot trace it
    and ends the graph. Formatting shapes, sizes or dtypes is fine. (An f-string of a
    tensor is built lazily by Dynamo 2.13 and breaks only where the string is used,
    e.g. concatenated or passed to a method; this rule does not flag f-strings.)

    ## Example
    ```python
    self.last = str(logits.argmax(-1))
    ```

    ## Use instead
    Return the tensor and format it after the compiled call, or format only static
    information: `str(x.shape)`, `f"{x.dtype}"`.
    """

    code = "TC202"
    name = "tensor-to-string"
    message = "formatting a tensor as text reads its values and breaks the graph"
    graph_break = hazards.BUILTIN_OP
    also_predicts = (hazards.TENSOR_REPR, hazards.NON_TENSOR_RESULT)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, mode: str, dim: int):
                return x * 2, str(mode) + str(dim) + str(x.shape)
        """, call="f(torch.randn(3), 'train', 0)"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                desc = str(x.shape) + repr(x.dtype) + f" {x.dtype}" + "{}".format(x.size(0))
                return x + 1, desc
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def describe(logits):
                return logits.softmax(-1), "logits: " + str(logits)
        """, call="describe(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                desc = str(x * 2)
                return x + 1, desc
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                desc = repr(x.relu())
                return x + 1, desc
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                desc = "values: %s" % (x + 1)
                return x + 1, desc
        """, call="f(torch.randn(3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual not in ("builtins.str", "builtins.repr"):
            return
        arg = sole_argument(node)
        if arg is None:
            return
        is_tensor, cond = tensor_arg(self.facts, arg)
        # an input of the compiled function, formatted whole: a tensor (names that hold
        # sizes, modes or configs are not inputs)
        if is_tensor or self.facts.value(arg).assumed and isinstance(arg, cst.Name):
            self.report(node, f"`{qual[9:]}()` of a tensor formats its values, which Dynamo cannot trace; "
                              f"the graph breaks here", condition=cond,
                        graph_break=hazards.TENSOR_REPR if qual == "builtins.repr" else None)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if not isinstance(node.operator, cst.Modulo):
            return
        if not isinstance(node.left, (cst.SimpleString, cst.ConcatenatedString)):
            return
        right = node.right
        values = [el.value for el in right.elements] if isinstance(right, cst.Tuple) else [right]
        for value in values:
            is_tensor, cond = tensor_arg(self.facts, value)
            if is_tensor:
                self.report(node, "`%`-formatting a tensor formats its values, which Dynamo cannot trace; "
                                  "the graph breaks here", condition=cond, graph_break=hazards.NON_TENSOR_RESULT)
                return

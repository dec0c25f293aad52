import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import argument, keyword, method_call, positional, tensor_arg
from tclint.analyzer.rules.base import Example, Rule


class RepeatInterleaveTensor(Rule):
    """
    ## What it does
    Flags `torch.repeat_interleave(x, repeats)` and `x.repeat_interleave(repeats)` where
    `repeats` is a tensor and no `output_size=` is given, and one-argument
    `torch.repeat_interleave(repeats)`, inside a compiled region.

    ## Why is this bad?
    With per-element repeat counts the output length is the sum of the counts, which is
    only known from the data. Dynamo treats it as a dynamic-shape operator and breaks
    the graph (unless `capture_dynamic_output_shape_ops=True`). An integer `repeats`,
    or passing `output_size=`, keeps the shape static.

    ## Example
    ```python
    expanded = torch.repeat_interleave(tokens, durations, dim=0)
    ```

    ## Use instead
    ```python
    expanded = torch.repeat_interleave(tokens, durations, dim=0, output_size=max_frames)
    ```
    when the total is known as a Python int; otherwise compute it outside the region.
    """

    code = "TC303"
    name = "repeat-interleave-tensor"
    message = "repeat_interleave with tensor repeats has a data-dependent size; the graph breaks here"
    graph_break = hazards.DYNAMIC_SHAPE_OP


    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, reps: torch.Tensor):
                a = torch.repeat_interleave(x, 2, dim=0)
                b = x.repeat_interleave(reps, dim=0, output_size=6)
                return a, b
        """, call="f(torch.randn(3, 2), torch.tensor([1, 2, 3]))"),
        Example("""
            import torch
            @torch.compile
            def f(x, n_rep: int):
                return torch.repeat_interleave(x, n_rep, dim=0)
        """, call="f(torch.randn(3, 2), 2)"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, reps: torch.Tensor):
                return torch.repeat_interleave(x, reps, dim=0)
        """, call="f(torch.randn(3, 2), torch.tensor([1, 2, 3]))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                counts = (x > 0).sum(-1)
                return x.repeat_interleave(counts, dim=0)
        """, call="f(torch.randn(3, 2))"),
        Example("""
            import torch
            @torch.compile
            def f(x, durations):
                return torch.repeat_interleave(x, durations, dim=0)
        """, call="f(torch.randn(3, 2), torch.tensor([1, 2, 3]))"),
    ]

    @classmethod
    def enabled(cls, dynamo) -> bool:
        return not dynamo.capture_dynamic_output_shape_ops

    def visit_Call(self, node: cst.Call) -> None:
        if keyword(node, "output_size") is not None:
            return
        qual = self.facts.qualname(node.func)
        if qual == "torch.repeat_interleave":
            args = positional(node)
            if len(args) == 1 and keyword(node, "repeats") is None:
                repeats = args[0]  # repeat_interleave(repeats): indices repeated by count
            else:
                repeats = argument(node, 1, "repeats")
        elif qual is None and (mc := method_call(node)) is not None and mc[1] == "repeat_interleave":
            is_tensor, _ = tensor_arg(self.facts, mc[0])
            if not is_tensor and not self.facts.value(mc[0]).assumed:
                return
            repeats = argument(node, 0, "repeats")
        else:
            return
        if repeats is None:
            return
        is_tensor, cond = tensor_arg(self.facts, repeats)
        if is_tensor or isinstance(repeats, cst.Name) and self.facts.value(repeats).assumed:
            self.report(node, condition=cond)  # an input of the compiled function: a tensor

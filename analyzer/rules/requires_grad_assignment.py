import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class RequiresGradAssignment(Rule):
    """
    ## What it does
    Flags assignments to a tensor's `requires_grad` attribute (`h.requires_grad = True`)
    inside a compiled region.

    ## Why is this bad?
    Setting `requires_grad` can turn a value in the middle of the graph into a new leaf
    (or a leaf into a non-leaf), which Dynamo cannot express: it reports a `setattr()` on
    `Tensor.requires_grad` and the graph ends there, whatever the value assigned.

    ## Example
    ```python
    def forward(self, hidden_states):
        if self.gradient_checkpointing:
            hidden_states.requires_grad = True
        ...
    ```

    ## Use instead
    Set `requires_grad` on inputs and parameters before the compiled call (for example
    when freezing layers, once after building the model).
    """

    code = "TC219"
    name = "requires-grad-assignment"
    message = "setting `.requires_grad` on a tensor is not traced by Dynamo; the graph breaks here"
    graph_break = hazards.REQUIRES_GRAD_SETATTR

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                return x * 2 if x.requires_grad else x
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Options:
                requires_grad = False
            def configure(opts):
                opts.requires_grad = True
                return opts
            @torch.compile
            def f(x):
                return x * 2 if configure(Options()).requires_grad else x
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def f(x):
                h = x * 2
                h.requires_grad = True
                return h * 3
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            @torch.compile
            def f(x):
                x.requires_grad = False
                return x * 3
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            def log_jacobian(x):
                if x[0].is_leaf:
                    x[0].requires_grad = True
                return x[0].sum()
            @torch.compile
            def f(x):
                return log_jacobian(x) * 2
        """, call="f([torch.randn(3)])"),
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and t.attr.value == "requires_grad":
                # a helper's parameter (or an element of one) counts where a compiled caller
                # passes a tensor there
                value = self.facts.value(t.value)
                if value.kind in (Kind.TENSOR, Kind.MASK):
                    self.report(t, condition=value.condition)

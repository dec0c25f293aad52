import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


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
    ]

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            t = target.target
            if isinstance(t, cst.Attribute) and t.attr.value == "requires_grad":
                cond = self.facts.tensor_condition(t.value)
                if cond is not None or self.facts.value(t.value).assumed:
                    self.report(t, condition=None if cond in (True, None) else cond)

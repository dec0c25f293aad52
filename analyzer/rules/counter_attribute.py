import libcst as cst

from tclint.analyzer.diagnostic import Severity
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class CounterAttribute(Rule):
    """
    ## What it does
    Flags counters kept in Python attributes and bumped inside a compiled region:
    `self.step += 1`, `self.calls = self.calls + 1`.

    ## Why is this bad?
    Dynamo treats integer attributes of a module as constants and guards on their value.
    Bumping one in `forward` changes the value the guard checked, so the next call
    recompiles, and so does every call after it, until the recompile limit (8) is hit and
    the module runs eagerly from then on.

    ## Example
    ```python
    def forward(self, x):
        self.num_updates += 1
        return self.net(x)
    ```

    ## Use instead
    ```python
    self.register_buffer("num_updates", torch.zeros((), dtype=torch.long))   # in __init__
    self.num_updates += 1                                                   # in forward
    ```
    Or count outside the compiled call, or set
    `torch._dynamo.config.allow_unspec_int_on_nn_module = True`.
    """

    code = "TC403"
    name = "counter-attribute"
    message = "a Python int attribute bumped in compiled code: every call recompiles"
    severity = Severity.WARNING
    recompiles = True

    VALID = [
        Example("""
            import torch
            from torch import nn
            class Counted(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.register_buffer("calls", torch.zeros((), dtype=torch.long))
                def forward(self, x):
                    self.calls += 1
                    return x + 1
            def run():
                m = torch.compile(Counted())
                for _ in range(3):
                    m(torch.randn(3))
        """, call="run()"),
    ]
    INVALID = [
        Example("""
            import torch
            from torch import nn
            class Counted(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.calls = 0
                def forward(self, x):
                    self.calls += 1
                    return x + 1
            def run():
                m = torch.compile(Counted())
                for _ in range(3):
                    m(torch.randn(3))
        """, call="run()"),
        Example("""
            import torch
            from torch import nn
            class Counted(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.steps = 0
                def forward(self, x):
                    self.steps = self.steps + 1
                    return x * 2
            def run():
                m = torch.compile(Counted())
                for _ in range(3):
                    m(torch.randn(3))
        """, call="run()"),
    ]

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if isinstance(node.operator, (cst.AddAssign, cst.SubtractAssign)) and isinstance(node.value, cst.Integer):
            self._check(node, node.target)

    def visit_Assign(self, node: cst.Assign) -> None:
        value = node.value
        if (len(node.targets) == 1 and isinstance(value, cst.BinaryOperation)
                and isinstance(value.operator, (cst.Add, cst.Subtract)) and isinstance(value.right, cst.Integer)
                and _same_attribute(node.targets[0].target, value.left)):
            self._check(node, node.targets[0].target)

    def _check(self, node: cst.CSTNode, target: cst.BaseExpression) -> None:
        if not (isinstance(target, cst.Attribute) and self.facts.is_self(target.value)):
            return
        attr = target.attr.value
        if self.facts.value(target).kind is Kind.STATIC:
            self.report(node, f"`self.{attr}` is a Python int bumped in compiled code: Dynamo guards on its value, "
                              f"so every call recompiles (after 8, the module runs eagerly)")


def _same_attribute(a: cst.BaseExpression, b: cst.BaseExpression) -> bool:
    return (isinstance(a, cst.Attribute) and isinstance(b, cst.Attribute) and a.attr.value == b.attr.value
            and isinstance(a.value, cst.Name) and isinstance(b.value, cst.Name) and a.value.value == b.value.value)

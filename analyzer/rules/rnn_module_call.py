import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule



class RnnModuleCall(Rule):
    """
    ## What it does
    Flags calls of `nn.LSTM`, `nn.GRU` and `nn.RNN` modules inside a compiled region
    (`self.lstm(x)`, or a module-level or local instance).

    ## Why is this bad?
    Dynamo does not trace the cuDNN-backed recurrent modules (`torch._dynamo.config.allow_rnn`
    is off by default): the graph ends at the call and the RNN runs eagerly. The cell
    modules (`nn.LSTMCell`, `nn.GRUCell`) are traced.

    ## Example
    ```python
    def forward(self, x):
        out, _ = self.lstm(self.embed(x))
        return self.head(out)
    ```

    ## Use instead
    Compile the parts before and after the RNN (`torch.compile(self.embed)`,
    `torch.compile(self.head)`), loop over an `nn.LSTMCell`, or set
    `torch._dynamo.config.allow_rnn = True` to let Dynamo try.
    """

    code = "TC218"
    name = "rnn-module-call"
    message = "Dynamo does not trace LSTM/GRU/RNN modules; the graph breaks here"
    graph_break = hazards.RNN_MODULE

    VALID = [
        Example("""
            import torch
            from torch import nn
            class Cell(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.cell = nn.LSTMCell(3, 3)
                def forward(self, x):
                    return self.cell(x)[0]
        """, call="torch.compile(Cell())(torch.randn(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            from torch import nn
            class Tagger(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lstm = nn.LSTM(3, 3, batch_first=True)
                def forward(self, x):
                    out, _ = self.lstm(x)
                    return out.relu()
        """, call="torch.compile(Tagger())(torch.randn(1, 2, 3))"),
        Example("""
            import torch
            gru = torch.nn.GRU(3, 3)
            @torch.compile
            def f(x):
                return gru(x)[0] * 2
        """, call="f(torch.randn(2, 1, 3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        built = self._built_from(node.func)
        if built in hazards.RNN_MODULE_CLASSES:
            self.report(node, f"`{built.removeprefix('torch.nn.')}` modules are not traced by Dynamo; the graph "
                              f"breaks here and the RNN runs eagerly")

    def _built_from(self, func: cst.BaseExpression) -> str | None:
        facts = self.facts
        if isinstance(func, cst.Attribute) and facts.is_self(func.value):
            return facts.function.class_scope.built_from.get(func.attr.value)
        if isinstance(func, cst.Name):
            local = facts.function.instance_classes.get(func.value) if facts.function else None
            return local or facts.module_instances.get(func.value)
        return None

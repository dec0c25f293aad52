import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import method_call
from tclint.analyzer.rules.base import Example, Rule

_BREAKS = {"step": hazards.GRAPH_BREAK_CALL, "zero_grad": hazards.INLINE_SKIPPED}
_OPTIMIZER_NAMES = ("optimizer", "optim", "opt")


class OptimizerInRegion(Rule):
    """
    ## What it does
    Flags `optimizer.step()` and `optimizer.zero_grad()` inside a compiled region. An
    optimizer is a name built from `torch.optim.*`, or named `optimizer`, `optim`, `opt`
    (or ending in `optimizer`, like `self.g_optimizer`).

    ## Why is this bad?
    `Optimizer.step` asks Dynamo for a graph break before it runs (its wrapper calls
    `torch._dynamo.graph_break()`), and Dynamo is told never to trace `zero_grad`; either
    call ends the graph of a compiled training step.

    ## Example
    ```python
    @torch.compile
    def train_step(model, optimizer, x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    ```

    ## Use instead
    ```python
    compiled = torch.compile(model)           # compile the model, not the step
    loss = F.cross_entropy(compiled(x), y)
    loss.backward()
    torch.compile(optimizer.step)()           # the optimizer step compiles on its own
    optimizer.zero_grad()
    ```
    """

    code = "TC217"
    name = "optimizer-in-region"
    message = "optimizer calls cannot be traced inside a compiled function; the graph breaks here"
    graph_break = hazards.GRAPH_BREAK_CALL
    also_predicts = (hazards.INLINE_SKIPPED,)

    VALID = [
        Example("""
            import torch
            class Schedule:
                def step(self):
                    return 1
            @torch.compile
            def f(x, schedule: Schedule):
                return x * schedule.step()
        """),
    ]
    INVALID = [
        Example("""
            import torch
            model = torch.nn.Linear(3, 1)
            opt = torch.optim.SGD(model.parameters(), lr=0.1)
            @torch.compile
            def train_step(x):
                loss = model(x).sum()
                opt.step()
                return loss
        """, call="train_step(torch.randn(2, 3))"),
        Example("""
            import torch
            model = torch.nn.Linear(3, 1)
            sgd = torch.optim.SGD(model.parameters(), lr=0.1)
            @torch.compile
            def train_step(x, optimizer):
                optimizer.zero_grad()
                return model(x).sum()
        """, call="train_step(torch.randn(2, 3), sgd)"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        mc = method_call(node)
        if mc is None or mc[1] not in _BREAKS:
            return
        receiver, method = mc
        if self._is_optimizer(receiver):
            self.report(node, f"`optimizer.{method}()` cannot be traced inside a compiled function; the graph "
                              f"breaks here", graph_break=_BREAKS[method])

    def _is_optimizer(self, receiver: cst.BaseExpression) -> bool:
        if isinstance(receiver, cst.Name):
            facts = self.facts
            built = (facts.function.instance_classes.get(receiver.value) if facts.function else None) \
                or facts.module_instances.get(receiver.value)
            if built is not None:
                return built.startswith("torch.optim.")
            name = receiver.value
        elif isinstance(receiver, cst.Attribute):
            name = receiver.attr.value
        else:
            return False
        name = name.lower()
        return name in _OPTIMIZER_NAMES or name.endswith("optimizer")

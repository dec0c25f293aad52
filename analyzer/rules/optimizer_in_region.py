import libcst as cst

from tclint.analyzer import call_refs as refs
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.optimizers import (
    annotated_optimizer, built_optimizer, fallback_built, optimizer_class, scheduler_class)
from tclint.analyzer.rules._support import method_call
from tclint.analyzer.rules.base import Example, Rule

_BREAKS = {"step": hazards.GRAPH_BREAK_CALL, "zero_grad": hazards.INLINE_SKIPPED}


class OptimizerInRegion(Rule):
    """
    ## What it does
    Flags `optimizer.step()` and `optimizer.zero_grad()` inside a compiled region (and a
    learning-rate scheduler's `step()`), on a value known to be a `torch.optim` optimizer
    from where it comes from: built from a `torch.optim` class, an attribute the class
    stores one in (or annotates with one), a parameter annotated with one, or an
    un-annotated parameter the callers pass one: every compiled caller of a compiled
    helper, and for a compiled function called from outside compiled code (an entry point),
    a call in the project that passes it one. An entry point nobody in the project calls
    is known by its parameter's annotation (`optimizer: torch.optim.Optimizer`) alone. A
    name says nothing: `self.optimizer` may hold a schedule of the project's own.

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
        Example("""
            import torch
            class Schedule:
                def step(self):
                    return 2
            class Model(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.optimizer = Schedule()
                def forward(self, x):
                    return x * self.optimizer.step()
        """, call="torch.compile(Model())(torch.randn(3))"),
        Example("""
            import torch
            class Counter:
                def __init__(self):
                    self.n = 0
                def step(self):
                    self.n += 1
                    return self.n
            def scale(x, optimizer):
                return x * optimizer.step()
            @torch.compile
            def f(x):
                optimizer = Counter()
                return scale(x, optimizer)
        """, call="f(torch.randn(3))"),
        Example("""
            import torch
            class Counter:
                def step(self):
                    return 3
            @torch.compile
            def f(x, optimizer):
                return x * optimizer.step()
            def main():
                return f(torch.randn(3), Counter())
        """, call="main()"),
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
            def train_step(x, optimizer: torch.optim.Optimizer):
                optimizer.zero_grad()
                return model(x).sum()
        """, call="train_step(torch.randn(2, 3), sgd)"),
        Example("""
            import torch
            model = torch.nn.Linear(3, 1)
            @torch.compile
            def train_step(x, optimizer):
                loss = model(x).sum()
                optimizer.step()
                return loss
            def main():
                sgd = torch.optim.SGD(model.parameters(), lr=0.1)
                return train_step(torch.randn(2, 3), sgd)
        """, call="main()"),
        Example("""
            import torch
            model = torch.nn.Linear(3, 1)
            sgd = torch.optim.SGD(model.parameters(), lr=0.1)
            def update(optimizer):
                optimizer.zero_grad()
            @torch.compile
            def train_step(x):
                loss = model(x).sum()
                update(sgd)
                return loss
        """, call="train_step(torch.randn(2, 3))"),
        Example("""
            import torch
            from torch.optim import Adam
            class Weights(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.w = torch.nn.Parameter(torch.zeros(3))
                    self._optimizer: Adam | None = None
                def forward(self, x):
                    if self._optimizer is None:
                        self._optimizer = Adam([self.w], lr=0.1)
                    self._optimizer.step()
                    return x * self.w
        """),
        # the optimizer built when the caller gives none says what the parameter stands for
        Example("""
            import torch
            from torch.optim import Adam
            class Solver:
                def __init__(self, net, optimizer=None):
                    self.net = net
                    self.optimizer = optimizer if optimizer else Adam(net.parameters())
                def epoch(self, x):
                    self.optimizer.zero_grad()
                    return self.net(x).sum()
            solver = Solver(torch.nn.Linear(3, 1))
            @torch.compile
            def run(x):
                return solver.epoch(x)
        """, call="run(torch.randn(2, 3))"),
    ]

    file_state = ("_optimizer_attrs", "_passed_attrs")

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._optimizer_attrs: set[str] = set()  # "class key.attr" storing a torch.optim optimizer
        self._passed_attrs: dict[str, frozenset] = {}  # "class key.attr" -> the OptimizerArgs of parameters stored there

    def visit_Call(self, node: cst.Call) -> None:
        mc = method_call(node)
        if mc is None or mc[1] not in _BREAKS:
            return
        receiver, method = mc
        message = f"`optimizer.{method}()` cannot be traced inside a compiled function; the graph breaks here"
        built = built_optimizer(self.facts, receiver, self._optimizer_attrs)
        if built is not None:
            skipped = method == "step" and scheduler_class(built)
            self.report(node, message, graph_break=hazards.INLINE_SKIPPED if skipped else _BREAKS[method])
            return
        condition = self._passed_optimizer(receiver)
        if condition:
            self.report(node, message, graph_break=_BREAKS[method], condition=condition)

    def _passed_optimizer(self, receiver: cst.BaseExpression) -> frozenset:
        """The OptimizerArg conditions of an un-annotated parameter, or of the parameters a
        method of this file stored in `self.attr`: where their callers pass an optimizer."""
        param = self.facts.own_param(receiver)
        if param is not None:
            return frozenset({refs.OptimizerArg(param.function, param.position, param.name)})
        fn = self.facts.function
        if isinstance(receiver, cst.Attribute) and fn is not None and fn.class_scope is not None \
                and self.facts.is_self(receiver.value):
            return frozenset(self._passed_attrs.get(f"{fn.class_scope.key}.{receiver.attr.value}", ()))
        return frozenset()

    def visit_Assign(self, node: cst.Assign) -> None:
        """`self._optimizer = Adam([w])` in any method, or `optimizer if optimizer else Adam(...)`:
        the attribute holds an optimizer; `self.optimizer = optimizer`, a parameter: where the
        method's callers pass one."""
        value = fallback_built(self.facts, node.value) or node.value
        if isinstance(value, cst.Call) and optimizer_class(self.facts.qualname(value.func)):
            for t in node.targets:
                self._note_attribute(t.target)
            return
        param = self.facts.own_param(node.value)
        if param is not None:
            for t in node.targets:
                self._note_attribute(t.target, refs.OptimizerArg(param.function, param.position, param.name))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        """`self._optimizer: Adam | None = None`: what the attribute holds when it holds something."""
        if annotated_optimizer(self.facts, node.annotation.annotation):
            self._note_attribute(node.target)

    def _note_attribute(self, target: cst.BaseExpression, passed: refs.OptimizerArg | None = None) -> None:
        fn = self.facts.function
        if fn is not None and fn.class_scope is not None and isinstance(target, cst.Attribute) \
                and self.facts.is_self(target.value):
            attr = f"{fn.class_scope.key}.{target.attr.value}"
            if passed is None:
                self._optimizer_attrs.add(attr)
            else:
                self._passed_attrs[attr] = self._passed_attrs.get(attr, frozenset()) | {passed}

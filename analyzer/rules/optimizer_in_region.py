import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import method_call
from tclint.analyzer.rules.base import Example, Rule

_BREAKS = {"step": hazards.GRAPH_BREAK_CALL, "zero_grad": hazards.INLINE_SKIPPED}
_NOT_OPTIMIZERS = ("torch.optim.lr_scheduler.", "torch.optim.swa_utils.")
_OPTIONAL = frozenset({"typing.Optional", "typing.Union"})


class OptimizerInRegion(Rule):
    """
    ## What it does
    Flags `optimizer.step()` and `optimizer.zero_grad()` inside a compiled region, on a value
    known to be a `torch.optim` optimizer from where it comes from: built from a `torch.optim`
    class, a parameter annotated with one, or an attribute the class stores one in (or
    annotates with one). A name says nothing: `self.optimizer` may hold a schedule of the
    project's own.

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
    ]

    file_state = ("_optimizer_attrs",)

    def __init__(self, analyzer):
        super().__init__(analyzer)
        self._optimizer_attrs: set[str] = set()  # "class key.attr" storing a torch.optim optimizer

    def visit_Call(self, node: cst.Call) -> None:
        mc = method_call(node)
        if mc is None or mc[1] not in _BREAKS:
            return
        receiver, method = mc
        if self._is_optimizer(receiver):
            self.report(node, f"`optimizer.{method}()` cannot be traced inside a compiled function; the graph "
                              f"breaks here", graph_break=_BREAKS[method])

    def visit_Assign(self, node: cst.Assign) -> None:
        """`self._optimizer = Adam([w])` in any method: the attribute holds an optimizer."""
        if isinstance(node.value, cst.Call) and _optimizer_class(self.facts.qualname(node.value.func)):
            for t in node.targets:
                self._note_attribute(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        """`self._optimizer: Adam | None = None`: what the attribute holds when it holds something."""
        if self._annotated_optimizer(node.annotation.annotation):
            self._note_attribute(node.target)

    def _note_attribute(self, target: cst.BaseExpression) -> None:
        fn = self.facts.function
        if fn is not None and fn.class_scope is not None and isinstance(target, cst.Attribute) \
                and self.facts.is_self(target.value):
            self._optimizer_attrs.add(f"{fn.class_scope.key}.{target.attr.value}")

    def _is_optimizer(self, receiver: cst.BaseExpression) -> bool:
        """Where the value comes from says: an instance built from a `torch.optim` class, a
        parameter annotated with one, or an attribute the class stores one in."""
        facts = self.facts
        fn = facts.function
        if isinstance(receiver, cst.Name):
            built = (fn.instance_classes.get(receiver.value) if fn else None) \
                or facts.module_instances.get(receiver.value)
            if built is not None:
                return _optimizer_class(built)
            if fn is None or receiver.value not in fn.own_params:
                return False
            params = fn.node.params
            return any(p.name.value == receiver.value and p.annotation is not None
                       and self._annotated_optimizer(p.annotation.annotation)
                       for p in (*params.posonly_params, *params.params, *params.kwonly_params))
        if isinstance(receiver, cst.Attribute) and fn is not None and fn.class_scope is not None \
                and facts.is_self(receiver.value):
            attr = receiver.attr.value
            return _optimizer_class(fn.class_scope.built_from.get(attr)) or \
                f"{fn.class_scope.key}.{attr}" in self._optimizer_attrs
        return False

    def _annotated_optimizer(self, annotation: cst.BaseExpression) -> bool:
        """`Optimizer`, `Optional[Adam]`, `Adam | None`, of `torch.optim`."""
        if isinstance(annotation, cst.BinaryOperation) and isinstance(annotation.operator, cst.BitOr):
            return any(self._annotated_optimizer(side) for side in (annotation.left, annotation.right)
                       if not (isinstance(side, cst.Name) and side.value == "None"))
        if isinstance(annotation, cst.Subscript) and self.facts.qualname(annotation.value) in _OPTIONAL:
            return any(isinstance(el.slice, cst.Index) and self._annotated_optimizer(el.slice.value)
                       for el in annotation.slice)
        return _optimizer_class(self.facts.qualname(annotation))


def _optimizer_class(qual: str | None) -> bool:
    """A class of `torch.optim` (its learning-rate schedulers and weight averagers are none)."""
    return bool(qual) and qual.startswith("torch.optim.") and not qual.startswith(_NOT_OPTIMIZERS)

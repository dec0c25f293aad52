import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import positional
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class BackwardInRegion(Rule):
    """
    ## What it does
    Flags `loss.backward()` (and `torch.autograd.backward(...)`) inside a compiled region.

    ## Why is this bad?
    Dynamo compiles the forward computation; it cannot trace `Tensor.backward()`, so the
    graph ends at the call and the backward pass runs eagerly. Compiling a whole training
    step this way splits it into pieces at every `backward()`.

    ## Example
    ```python
    @torch.compile
    def train_step(model, x, y):
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        return loss
    ```

    ## Use instead
    ```python
    compiled = torch.compile(model)
    loss = F.cross_entropy(compiled(x), y)
    loss.backward()            # AOTAutograd compiles the backward of the compiled forward
    ```
    """

    code = "TC212"
    name = "backward-in-region"
    message = "`.backward()` cannot be traced by Dynamo; the graph breaks here"
    graph_break = hazards.BACKWARD
    also_predicts = (hazards.SKIPPED,)


    VALID = [
        Example("""
            import torch
            @torch.compile
            def loss_fn(x, w):
                return (x * w).sum()
            def step(x, w):
                loss = loss_fn(x, w)
                loss.backward()  # outside the compiled region
                return w.grad
        """, call="step(torch.randn(3), torch.ones(3, requires_grad=True))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compile
            def step(x, w: torch.Tensor):
                loss = (x * w).sum()
                loss.backward()
                return loss.detach()
        """, call="step(torch.randn(3), torch.ones(3, requires_grad=True))"),
        Example("""
            import torch
            @torch.compile
            def step(x):
                loss = (x * x).sum()
                torch.autograd.backward(loss)
                return x.grad
        """, call="step(torch.randn(3, requires_grad=True))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if self.facts.qualname(func) == "torch.autograd.backward":
            self.report(node, "`torch.autograd.backward()` is skipped by Dynamo; the graph breaks here",
                        graph_break=hazards.SKIPPED)
            return
        if not (isinstance(func, cst.Attribute) and func.attr.value == "backward"):
            return
        receiver = func.value
        if self.facts.qualname(receiver) is not None or self.facts.is_self(receiver):
            return  # `MyFunction.backward(ctx, grad)` / `self.backward(...)`: not a tensor
        if self.facts.value(receiver).kind in (Kind.STATIC, Kind.MODULE):
            return
        cond = self.facts.tensor_condition(receiver)
        if cond is None and len(positional(node)) > 1:
            return  # `fn.backward(ctx, grad_out)` on an unknown object
        # Unknown receivers count: `scaler.scale(loss).backward()` is a tensor too.
        self.report(node, condition=None if cond in (True, None) else cond)

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule


class DisabledFunctionCall(Rule):
    """
    ## What it does
    Flags calls, from a compiled region, to functions decorated with
    `torch.compiler.disable` (or `torch._dynamo.disable`), in the same file or elsewhere
    in the project.

    ## Why is this bad?
    Dynamo does not trace a disabled function: it ends the graph before the call, runs
    the function eagerly and starts a new graph after it. That is the point of
    `disable`, but on a hot path each call costs a graph break.

    ## Example
    ```python
    @torch.compiler.disable
    def bookkeeping(x): ...

    def forward(self, x):
        y = self.lin(x)
        bookkeeping(y)
        return y
    ```

    ## Use instead
    Call the disabled function outside the compiled region, or make it traceable and
    drop the decorator.
    """

    code = "TC210"
    name = "disabled-function-call"
    message = "calling a torch.compiler.disable'd function ends the graph"
    graph_break = hazards.DISABLED_CALL
    method_break = hazards.DISABLED_INLINE
    also_predicts = (hazards.DISABLED_INLINE,)

    VALID = [
        Example("""
            import torch
            @torch.compiler.disable
            def log_stats(x):
                print(x.mean())
            @torch.compile
            def step(x):
                return x * 2
            def train(x):
                y = step(x)
                log_stats(y)  # called outside the compiled region
                return y
        """, call="train(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import torch
            @torch.compiler.disable
            def bookkeeping(x):
                return x.detach().clone()
            @torch.compile
            def step(x):
                y = x * 2
                return y + bookkeeping(y)
        """, call="step(torch.randn(3))"),
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                @torch.compiler.disable
                def post(self, y):
                    return y.relu()
                def forward(self, x):
                    return self.post(x * 2)
        """, call="torch.compile(M())(torch.randn(3))"),
    ]

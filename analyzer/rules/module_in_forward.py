import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.knowledge.tensor_api import PARAMETERIZED_MODULES
from tclint.analyzer.rules._support import keyword
from tclint.analyzer.rules.base import Example, Rule

# Modules whose parameters are optional: (keyword that turns them off, default value).
_AFFINE_SWITCH = {
    "LayerNorm": ("elementwise_affine", True), "RMSNorm": ("elementwise_affine", True),
    "GroupNorm": ("affine", True), "BatchNorm1d": ("affine", True), "BatchNorm2d": ("affine", True),
    "BatchNorm3d": ("affine", True), "InstanceNorm1d": ("affine", False),
    "InstanceNorm2d": ("affine", False), "InstanceNorm3d": ("affine", False),
}


class ModuleInForward(Rule):
    """
    ## What it does
    Flags construction of parameter-owning `torch.nn` modules (`nn.Linear(...)`,
    `nn.LayerNorm(...)`, `nn.Conv2d(...)`, ...) and of `nn.Parameter(...)` inside a
    compiled region.

    ## Why is this bad?
    Building such a module creates new `nn.Parameter`s, and Dynamo cannot trace the
    `nn.Parameter` constructor: the graph ends at the call. It is also a bug in eager
    mode: the weights are new random values on every call and are never trained.
    Parameter-free modules (`nn.ReLU()`, `nn.Dropout(p)`, `nn.Softmax(dim)`) trace fine.

    ## Example
    ```python
    def forward(self, x):
        return nn.Linear(x.shape[-1], self.out_dim)(x)
    ```

    ## Use instead
    ```python
    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim)      # built once, trained

    def forward(self, x):
        return self.proj(x)
    ```
    Use `nn.LazyLinear` (in `__init__`) when the input size is only known at run time.
    """

    code = "TC211"
    name = "module-in-forward"
    message = "building a module with parameters creates nn.Parameter, which Dynamo cannot trace"
    graph_break = hazards.PARAMETER_CTOR


    VALID = [
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = nn.Linear(3, 3)
                def forward(self, x):
                    y = nn.ReLU()(self.lin(x)) + nn.Dropout(0.1)(x)
                    return nn.LayerNorm(3, elementwise_affine=False)(y)
        """, call="torch.compile(M())(torch.randn(2, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def forward(self, x):
                    return nn.Linear(x.shape[-1], 2)(x)
        """, call="torch.compile(M())(torch.randn(2, 3))"),
        Example("""
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def forward(self, x):
                    scale = nn.Parameter(torch.ones(3))
                    return x * scale
        """, call="torch.compile(M())(torch.randn(2, 3))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual is None or not qual.startswith("torch.nn."):
            return
        name = qual[len("torch.nn."):]
        if name.startswith("modules."):
            name = name.rsplit(".", 1)[1]
        if "." in name or name not in PARAMETERIZED_MODULES:
            return
        switch = _AFFINE_SWITCH.get(name)
        if switch is not None:
            kw, default = switch
            value = keyword(node, kw)
            on = default if value is None else (
                False if isinstance(value, cst.Name) and value.value == "False" else
                True if isinstance(value, cst.Name) and value.value == "True" else None)
            if on is not True:
                return  # no parameters, or not known
        self.report(node, f"`nn.{name}(...)` creates nn.Parameter(s), which Dynamo cannot trace; the graph "
                          f"breaks here (and the weights are re-created on every call). Build it in `__init__`")

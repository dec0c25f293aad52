import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import first_element, positional
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.values import Kind


class CopyCall(Rule):
    """
    ## What it does
    Flags `copy.deepcopy(...)` of tensors, modules or containers holding tensors, and
    `copy.copy(...)` of anything but an instance of a plain Python class, inside a
    compiled region.

    ## Why is this bad?
    Dynamo refuses to deep-copy a tensor (a module's parameters are tensors too) and
    skips the `copy` module's shallow `copy` of tensors, lists and dicts, so the graph
    ends at the call. Copying plain Python data (`copy.deepcopy` of a config dict, either
    copy of a config object, `copy.deepcopy(self)` in a class that is not an nn.Module)
    is traced and is fine.

    ## Example
    ```python
    def forward(self, x):
        target = copy.deepcopy(x)
        return self.net(x), target
    ```

    ## Use instead
    ```python
    def forward(self, x):
        target = x.detach().clone()
        return self.net(x), target
    ```
    Copy modules once, outside the compiled region (e.g. an EMA copy in `__init__`).
    """

    code = "TC207"
    name = "copy-call"
    message = "copying this object is not traceable; the graph breaks here"
    graph_break = hazards.DEEPCOPY
    also_predicts = (hazards.SKIPPED, hazards.NON_TENSOR_RESULT)


    VALID = [
        Example("""
            import copy
            import torch
            @torch.compile
            def f(x):
                cfg = copy.deepcopy({"scale": 2})
                return x.clone() * cfg["scale"]
        """, call="f(torch.randn(3))"),
        Example("""
            import copy
            import torch
            class Settings:
                def __init__(self, scale):
                    self.scale = scale
                def text_part(self):
                    return copy.deepcopy(self)
                def shallow(self):
                    return copy.copy(self)
            settings = Settings(2)
            @torch.compile
            def f(x):
                return x * settings.text_part().scale + settings.shallow().scale
        """, call="f(torch.randn(3))"),
    ]
    INVALID = [
        Example("""
            import copy
            import torch
            @torch.compile
            def f(x):
                y = x * 2
                return copy.deepcopy(y) + 1
        """, call="f(torch.randn(3))"),
        Example("""
            import copy
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = nn.Linear(3, 3)
                def forward(self, x):
                    frozen = copy.deepcopy(self.lin)
                    return frozen(x)
        """, call="torch.compile(M())(torch.randn(3))"),
        Example("""
            import copy
            import torch
            @torch.compile
            def f(x):
                opts = copy.copy({"scale": 2})
                return x * opts["scale"]
        """, call="f(torch.randn(3))"),
        Example("""
            import copy
            import torch
            import torch.nn as nn
            class M(nn.Module):
                def __init__(self):
                    super().__init__()
                    self.lin = nn.Linear(3, 3)
                def twin(self):
                    return copy.deepcopy(self)
                def forward(self, x):
                    return self.twin().lin(x)
        """, call="torch.compile(M())(torch.randn(3))"),
    ]

    def _holds_tensors(self, expr: cst.BaseExpression):
        """True / a condition when deep-copying `expr` copies a tensor or a module."""
        value = self.facts.value(expr)
        if value.known_tensor and not value.assumed:
            return True
        if value.kind is Kind.MODULE:
            return self._module(expr)
        if value.condition is not None:
            return value.condition
        return first_element(expr, self._holds_tensors)

    def visit_Call(self, node: cst.Call) -> None:
        qual = self.facts.qualname(node.func)
        if qual == "copy.copy":
            args = positional(node)
            held = self._module(args[0]) if args and self.facts.value(args[0]).kind is Kind.MODULE else True
            self.report(node, "`copy.copy()` is skipped by Dynamo (the `copy` module is not traced); the graph "
                              "breaks here. Use `tensor.clone()`, `dict(d)` or `list(l)`.",
                        graph_break=hazards.SKIPPED, condition=None if held is True else held)
        elif qual == "copy.deepcopy":
            args = positional(node)
            if not args:
                return
            held = self._holds_tensors(args[0])
            if held is None:
                return
            self.report(node, "Dynamo cannot deep-copy tensors or modules; the graph breaks here. Use "
                              "`tensor.clone()`, or copy the module once outside the compiled region.",
                        condition=None if held is True else held)

    def _module(self, expr: cst.BaseExpression):
        """A module-kind value: `self.encoder` is a module; `self`, or a name that may hold
        it, is one only if its class is an nn.Module (a config object's `self` is not)."""
        if isinstance(expr, cst.Attribute) and self.facts.is_self(expr.value):
            return True
        return self.facts.self_is_module()

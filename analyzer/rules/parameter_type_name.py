import libcst as cst

from tclint.analyzer import tensor_facts as tf
from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules.base import Example, Rule

_TYPE_NAMES = frozenset({"__module__", "__name__", "__qualname__"})
_PARAMETER_CLASSES = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


class ParameterTypeName(Rule):
    """
    ## What it does
    Flags a string method called on the name or module of an nn.Parameter's class inside a
    compiled region: `type(module.weight).__module__.startswith("torchao.")`, where `module`
    is an nn.Module, or `type(self.scale).__name__.lower()` where `self.scale` was built as
    an `nn.Parameter`.

    ## Why is this bad?
    Dynamo models `torch.nn.Parameter` as a torch function it puts in graphs, not as a class:
    it can compare `type(p).__name__` with a string, but calling a method on it
    (`startswith`, `split`, `lower`) is an "Unsupported method call" and the graph breaks.
    The same test on a plain tensor's class traces.

    ## Example
    ```python
    if type(module.weight).__module__.startswith("torchao."):
        weight = module.weight.dequantize()
    ```

    ## Use instead
    ```python
    # `p.__class__` is the class itself, which Dynamo knows
    if module.weight.__class__.__module__.startswith("torchao."):
        weight = module.weight.dequantize()
    ```
    """

    code = "TC242"
    name = "parameter-type-name"
    message = ("a method of `type(...)`'s name on an nn.Parameter, which Dynamo models as a torch function, "
               "cannot be traced; the graph breaks here (use `p.__class__` instead)")
    graph_break = hazards.METHOD_CALL

    VALID = [
        Example("""
            import torch
            @torch.compile
            def f(x, m):
                if m.weight.__class__.__module__.startswith("torchao."):
                    return x
                if type(x).__module__.startswith("torchao.") or type(m.weight).__name__ == "Int8Params":
                    return x
                return m(x)
        """, call="f(torch.randn(2, 4), torch.nn.Linear(4, 3))"),
    ]
    INVALID = [
        Example("""
            import torch
            def dequantize(module: torch.nn.Module):
                if type(module.weight).__module__.startswith("torchao."):
                    return module.weight.dequantize()
                return module.weight
            @torch.compile
            def f(x, m):
                return x @ dequantize(m).T
        """, call="f(torch.randn(2, 4), torch.nn.Linear(4, 3))"),
        Example("""
            import torch
            class Scale(torch.nn.Module):
                def __init__(self):
                    super().__init__()
                    self.scale = torch.nn.Parameter(torch.ones(4))
                def forward(self, x):
                    if type(self.scale).__name__.lower().startswith("int8"):
                        return x
                    return x * self.scale
        """, call="torch.compile(Scale())(torch.randn(4))"),
    ]

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute)
                and func.value.attr.value in _TYPE_NAMES):
            return
        of_type = func.value.value
        if (isinstance(of_type, cst.Call) and len(of_type.args) == 1 and not of_type.args[0].star
                and self.facts.qualname(of_type.func) == "builtins.type"
                and self._is_parameter(of_type.args[0].value)):
            self.report(node)

    def _is_parameter(self, expr: cst.BaseExpression) -> bool:
        """The weight or bias of a module, or an attribute of `self` built as an nn.Parameter."""
        if not isinstance(expr, cst.Attribute):
            return False
        if self.facts.is_self(expr.value):
            built = self.facts.function.class_scope.built_from.get(expr.attr.value)
            return built in _PARAMETER_CLASSES
        return expr.attr.value in ("weight", "bias") and self.facts.kind(expr.value) == tf.MODULE

import libcst as cst

from tclint.analyzer.knowledge import hazards
from tclint.analyzer.rules._support import positional, str_enum_member
from tclint.analyzer.rules.base import Example, Rule
from tclint.analyzer.value_text import value_text

# Builtins that iterate their first argument (`"".join` iterates its own)
ITERATING_BUILTINS = frozenset({f"builtins.{name}" for name in
                                ("list", "tuple", "set", "frozenset", "sorted", "enumerate", "reversed")})


class StrEnumOperator(Rule):
    """
    ## What it does
    Flags `in` with a member of an Enum of str on its right (`"a" in mode`), `+` with one on
    its left (`mode + "_v2"`), and iterating one (`for c in mode`,
    `list(mode)`, `"".join(mode)`), where the member is known from where it comes (as for
    TC245): `Mode.A`, `Mode(value)`, a parameter a compiled caller passes one or that
    defaults to one, a local or `self.attr` holding one, what a function returns.

    ## Why is this bad?
    Dynamo traces an Enum member as a constant of its class, and implements none of `str`'s
    operators on it: `in` breaks the graph ("missing sq_contains"), iterating it too
    ("missing tp_iter"), and `+` raises inside the tracer ("Observed exception"). With the
    member on the other side (`mode in ("a", "b")`, `"v_" + mode`), `==`, `%`, `.format`,
    `len()` or an f-string, nothing breaks.

    ## Example
    ```python
    def pad(x, mode: str = PadMode.REFLECT):
        if "reflect" in mode:
            ...
    ```

    ## Use instead
    Work on the member's value, a plain `str`: `"reflect" in str(mode)`, `mode.value + "x"`.
    """

    code = "TC246"
    name = "str-enum-operator"
    message = ("{what} a member of an Enum of str: Dynamo implements no `str` operator on Enum members, "
               "so the graph breaks here; use `str({receiver})` instead")
    graph_break = hazards.MISSING_SQ_CONTAINS
    also_predicts = (hazards.MISSING_TP_ITER, hazards.OBSERVED_EXCEPTION)

    VALID = [
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            @torch.compile(backend="eager")
            def f(x, mode=Mode.A):
                if mode in ("a", "b") and "a" in str(mode) and len("v_" + mode) == 3 and "%s" % mode == "Mode.A":
                    return x + len(mode)
                return x
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
                def __contains__(self, item):  # its own `in`: traced like any method
                    return item == "a"
            @torch.compile(backend="eager")
            def f(x, mode=Mode.A):
                return x + 1 if "a" in mode else x
        """, call="f(torch.ones(2))"),
    ]
    INVALID = [
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "a"
            @torch.compile(backend="eager")
            def f(x, mode: str = Mode.A):
                if "a" in mode:
                    return x + 1
                return x
        """, call="f(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(enum.StrEnum):
                A = "a"
            class Net(torch.nn.Module):
                def __init__(self, mode=Mode.A):
                    super().__init__()
                    self.mode = mode
                def forward(self, x):
                    return x + len(self.mode + "_v2")
        """, call="torch.compile(Net(), backend='eager')(torch.ones(2))"),
        Example("""
            import enum
            import torch
            class Mode(str, enum.Enum):
                A = "ab"
            def pick():
                return Mode.A
            @torch.compile(backend="eager")
            def f(x):
                mode = pick()
                return x + len(list(mode))
        """, call="f(torch.ones(2))"),
    ]

    def visit_Comparison(self, node: cst.Comparison) -> None:
        for target in node.comparisons:
            if isinstance(target.operator, (cst.In, cst.NotIn)):
                self._check(target.comparator, "__contains__", "`in` on", hazards.MISSING_SQ_CONTAINS)

    def visit_BinaryOperation(self, node: cst.BinaryOperation) -> None:
        if isinstance(node.operator, cst.Add):
            self._check(node.left, "__add__", "`+` on", hazards.OBSERVED_EXCEPTION, node)

    def visit_For(self, node: cst.For) -> None:
        self._check(node.iter, "__iter__", "Iterating", hazards.MISSING_TP_ITER)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._check(node.iter, "__iter__", "Iterating", hazards.MISSING_TP_ITER)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        iterated = (self.facts.qualname(func) in ITERATING_BUILTINS
                    or isinstance(func, cst.Attribute) and func.attr.value == "join" and isinstance(func.value, cst.SimpleString))
        args = positional(node)
        if iterated and args:
            self._check(args[0], "__iter__", "Iterating", hazards.MISSING_TP_ITER, node)

    def _check(self, value: cst.BaseExpression, method: str, what: str, graph_break, at: cst.CSTNode | None = None):
        condition = str_enum_member(self.analyzer, value, method)
        if condition is not None:
            self.report(at or value, self.message.format(what=what, receiver=value_text(value) or "member"),
                        condition=condition, graph_break=graph_break)

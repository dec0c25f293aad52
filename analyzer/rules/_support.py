"""Small helpers shared by several rules (no Rule lives here, so nothing is registered).

A rule still defines its own ``visit_<Node>`` methods: dispatch only looks at the rule
class's own attributes.
"""
from __future__ import annotations

from dataclasses import replace

import libcst as cst

from tclint.analyzer.knowledge.untraceable import Untraceable, calls_for
from tclint.analyzer.values import Kind


def tensor_arg(facts, expr: cst.BaseExpression):
    """(True, condition) when `expr` is (maybe) a tensor, else (False, None).

    Unknown kinds and un-annotated inputs are not tensors here: rules stay quiet on them,
    except on a helper's parameters, which are tensors where a compiled caller passes one.
    """
    value = facts.value(expr)
    return (True, value.condition) if value.is_tensor else (False, None)


def tensor_or_unknown(facts, receiver: cst.BaseExpression) -> tuple[bool, frozenset | None]:
    """For methods only tensors (and NumPy values, which Dynamo treats as tensors) have,
    like `.item()`: (True, condition) unless the receiver is known to be something else."""
    value = facts.value(receiver)
    if value.kind == Kind.UNKNOWN or value.assumed or value.from_parameters:
        return True, None
    if value.kind in (Kind.TENSOR, Kind.MASK, Kind.NDARRAY):
        return True, value.condition
    return False, None


def str_enum_member(analyzer, expr: cst.BaseExpression, method: str) -> frozenset | None:
    """The condition that `expr` is a member of a str Enum whose class defines no `method`
    (FileAnalyzer.member_sources, with the method asked), or None where it cannot be one."""
    return frozenset(replace(source, method=method) for source in analyzer.member_sources(expr)) or None


class BoundNames:
    """A rule's own small dataflow: per function, the names whose latest assignment had a
    property the rule tracks (`n = (x > 0).sum()`)."""

    def __init__(self):
        self._by_function: dict[int, set[str]] = {}

    def names(self, facts) -> set[str]:
        return self._by_function.setdefault(id(facts.function), set())

    def assign(self, facts, node: cst.Assign, holds: bool) -> None:
        names = self.names(facts)
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                (names.add if holds else names.discard)(target.target.value)


def positional(call: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in call.args if a.keyword is None and not a.star]


def sole_argument(call: cst.Call) -> cst.BaseExpression | None:
    """The argument of `f(arg)`: one positional argument and nothing else."""
    args = positional(call)
    return args[0] if len(args) == 1 and len(call.args) == 1 else None


def keyword(call: cst.Call, name: str) -> cst.BaseExpression | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == name:
            return a.value
    return None


def argument(call: cst.Call, index: int, name: str) -> cst.BaseExpression | None:
    """The argument passed at position `index` or as `name=`."""
    args = positional(call)
    if len(args) > index:
        return args[index]
    return keyword(call, name)


def method_call(call: cst.Call) -> tuple[cst.BaseExpression, str] | None:
    """(receiver, method) for `receiver.method(...)`."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.value, func.attr.value
    return None


class UntraceableCalls:
    """Looks calls up in knowledge/untraceable.py for one rule code."""

    def __init__(self, rule_code: str):
        self._rows = calls_for(rule_code)

    def match(self, facts, call: cst.Call) -> tuple[str, Untraceable] | None:
        qual = facts.qualname(call.func)
        if qual is None:
            return None
        row = self._rows.get(qual)
        return (qual, row) if row is not None else None

    @staticmethod
    def message(qual: str, row: Untraceable) -> str:
        name = qual.removeprefix("builtins.")
        return f"`{name}()` {row.kind}; Dynamo cannot trace it, so the graph breaks here. {row.fix}"


class _Collector(cst.CSTVisitor):
    def __init__(self):
        self.assigns: list[tuple[cst.BaseExpression, cst.BaseExpression]] = []  # (target, value)
        self.returns: list[cst.BaseExpression] = []
        self.calls: list[cst.Call] = []

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self.assigns.append((t.target, node.value))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self.assigns.append((node.target, node.value))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self.assigns.append((node.target, node.value))

    def visit_Return(self, node: cst.Return) -> None:
        if node.value is not None:
            self.returns.append(node.value)

    def visit_Call(self, node: cst.Call) -> None:
        self.calls.append(node)

    # nested functions and classes have their own scope
    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


_BODY_CACHE: dict[int, tuple[cst.FunctionDef, _Collector]] = {}


def function_body(fn_node: cst.FunctionDef) -> _Collector:
    """Assignments, returns and calls of one function body (not of nested defs)."""
    hit = _BODY_CACHE.get(id(fn_node))
    if hit is not None and hit[0] is fn_node:
        return hit[1]
    col = _Collector()
    fn_node.body.visit(col)
    if len(_BODY_CACHE) > 256:
        _BODY_CACHE.clear()
    _BODY_CACHE[id(fn_node)] = (fn_node, col)
    return col


def param_names(fn_node: cst.FunctionDef) -> set[str]:
    p = fn_node.params
    names = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)}
    for star in (p.star_arg, p.star_kwarg):
        if isinstance(star, cst.Param):
            names.add(star.name.value)
    return names


def target_names(target: cst.BaseExpression) -> set[str]:
    if isinstance(target, cst.Name):
        return {target.value}
    if isinstance(target, (cst.Tuple, cst.List)):
        out: set[str] = set()
        for el in target.elements:
            out |= target_names(el.value)
        return out
    if isinstance(target, cst.StarredElement):
        return target_names(target.value)
    return set()


def first_element(expr: cst.BaseExpression, check):
    """The first non-None `check(value)` over a display's elements (a dict's: its values)."""
    if isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
        values = [el.value for el in expr.elements]
    elif isinstance(expr, cst.Dict):
        values = [el.value for el in expr.elements if isinstance(el, cst.DictElement)]
    else:
        return None
    for value in values:
        result = check(value)
        if result is not None:
            return result
    return None


def compile_guard_fix(facts, statement: cst.Expr):
    """Wrap a one-line call statement in `if not torch.compiler.is_compiling():`, so it runs
    only eagerly (Dynamo skips the guarded block: no graph break). None when not possible."""
    from tclint.analyzer.file_analysis import FixRequest

    torch_name = facts.imports.local_name("torch")
    if torch_name is None:
        return None
    code = cst.Module(body=[]).code_for_node(statement)
    if "\n" in code:
        return None
    return FixRequest(
        title="Run it only outside torch.compile (guard with torch.compiler.is_compiling())",
        node=statement,
        lines=(f"if not {torch_name}.compiler.is_compiling():", f"    {code}"),
    )

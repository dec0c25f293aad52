"""Small helpers shared by several rules (no Rule lives here, so nothing is registered).

A rule still defines its own ``visit_<Node>`` methods: dispatch only looks at the rule
class's own attributes.
"""
from __future__ import annotations

import libcst as cst

from tclint.analyzer.knowledge.untraceable import Untraceable, calls_for
from tclint.analyzer.rules.base import Rule


def tensor_arg(facts, expr: cst.BaseExpression):
    """(True, condition) when `expr` is (maybe) a tensor, else (False, None).

    Unknown kinds and un-annotated inputs are not tensors here: rules stay quiet on them.
    """
    cond = facts.tensor_condition(expr)
    if cond is None:
        return False, None
    return True, (None if cond is True else cond)


def positional(call: cst.Call) -> list[cst.BaseExpression]:
    return [a.value for a in call.args if a.keyword is None and not a.star]


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
    def message(qual: str, row: Untraceable, rule_break=None) -> str:
        """The finding's text; names the row's break when it differs from the rule's."""
        name = qual.removeprefix("builtins.")
        other = "" if rule_break is None or row.graph_break == rule_break else (
            f" (Dynamo reports {row.graph_break.gb_id} \"{row.graph_break.gb_type}\" for this call)")
        return f"`{name}()` {row.kind}; Dynamo cannot trace it, so the graph breaks here{other}. {row.fix}"


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


# -- code that only runs eagerly ----------------------------------------------------
_IS_COMPILING = frozenset({
    "torch.compiler.is_compiling", "torch.compiler.is_dynamo_compiling", "torch._dynamo.is_compiling",
    "torch._utils.is_compiling",
})
_EAGER_CACHE: dict[int, tuple[cst.FunctionDef, frozenset[int]]] = {}


def _compiling_test(facts, test: cst.BaseExpression) -> bool | None:
    """True for `is_compiling()`, False for `not is_compiling()`, None otherwise."""
    negated = False
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        negated = not negated
        test = test.expression
    if isinstance(test, cst.Call) and not test.args and facts.qualname(test.func) in _IS_COMPILING:
        return not negated
    return None


def _eager_only_ids(facts, fn_node: cst.FunctionDef) -> frozenset[int]:
    hit = _EAGER_CACHE.get(id(fn_node))
    if hit is not None and hit[0] is fn_node:
        return hit[1]
    dead: set[int] = set()

    def mark(tree: cst.CSTNode) -> None:
        class _All(cst.CSTVisitor):
            def on_visit(self, node: cst.CSTNode) -> bool:
                dead.add(id(node))
                return True
        tree.visit(_All())

    class _Guards(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return node is fn_node

        def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
            # `if torch.compiler.is_compiling(): return ...` makes the rest eager-only
            body = list(node.body)
            for i, stmt in enumerate(body):
                if (isinstance(stmt, cst.If) and stmt.orelse is None
                        and _compiling_test(facts, stmt.test) is True and _ends_block(stmt.body)):
                    for rest in body[i + 1:]:
                        mark(rest)
                    break

        def visit_If(self, node: cst.If) -> None:
            when = _compiling_test(facts, node.test)
            if when is False:
                mark(node.body)
            elif when is True and node.orelse is not None:
                mark(node.orelse)

    fn_node.visit(_Guards())
    result = frozenset(dead)
    if len(_EAGER_CACHE) > 256:
        _EAGER_CACHE.clear()
    _EAGER_CACHE[id(fn_node)] = (fn_node, result)
    return result


def _ends_block(block: cst.BaseSuite) -> bool:
    stmts = block.body if isinstance(block, cst.IndentedBlock) else [block]
    if not stmts:
        return False
    last = stmts[-1]
    if isinstance(last, cst.SimpleStatementLine):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    if isinstance(last, cst.SimpleStatementSuite):
        return any(isinstance(s, (cst.Return, cst.Raise)) for s in last.body)
    return False


def eager_only(facts, node: cst.CSTNode) -> bool:
    """Whether `node` sits in code Dynamo never traces: under `if not is_compiling():`,
    in the `else` of `if is_compiling():`, or after `if is_compiling(): return ...`."""
    fn = facts.function
    if fn is None:
        return False
    return id(node) in _eager_only_ids(facts, fn.node)


def guarded_report(self, node, message=None, *, condition=None, fix=None) -> None:
    """`Rule.report`, skipping findings in eager-only code. Use as `report = guarded_report`."""
    if eager_only(self.facts, node):
        return
    Rule.report(self, node, message, condition=condition, fix=fix)

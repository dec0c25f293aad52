"""Objects holding a function default, returned from a compiled frame (torch 2.13), phase 1.

`class AV: def __init__(self, q, fmt=lambda x: x): self.fmt = fmt` stores the default on
the object. Dynamo knows a function default of an inlined `__init__` by value only, without
a source, so when an `AV(h)` built in the compiled frame leaves it (the frame returns it),
Dynamo cannot rebuild its `fmt`: a "Reconstruction failure" on the return line, and the
frame is compiled up to the return only. Checked under torch 2.13: a lambda, a module-level
function and a dataclass field's function default break so, also stored through a base's
`__init__`; a function passed explicitly, a builtin (`torch.relu`), a lambda made in the
body (`self.fmt = lambda x: x`), a class attribute, or an object that stays in the frame
(`AV(h).q`) do not. The project phase (returned_defaults.py) decides which class a
returned call builds and whether it leaves such a parameter to its default.
"""
from __future__ import annotations

import libcst as cst

from tclint.analyzer.names import dotted_name
from tclint.analyzer.summary import ReturnedCall, StoredDefault

_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


def init_defaults(facts, init: cst.FunctionDef) -> tuple[StoredDefault, ...]:
    """The parameters of `init` with a function default that its body stores on `self`
    unconditionally (`self.fmt = fmt` as a statement of the body itself) and never rebinds."""
    params = [*init.params.posonly_params, *init.params.params]
    if not params:
        return ()
    self_name = params[0].name.value
    candidates = {}
    for i, p in enumerate(params[1:]):
        fn = _function_default(facts, p.default)
        if fn is not False:
            candidates[p.name.value] = StoredDefault(p.name.value, i, fn)
    for p in init.params.kwonly_params:
        fn = _function_default(facts, p.default)
        if fn is not False:
            candidates[p.name.value] = StoredDefault(p.name.value, None, fn)
    if not candidates:
        return ()
    rebound = _Bindings()
    init.body.visit(rebound)
    stored = []
    for stmt in init.body.body if isinstance(init.body, cst.IndentedBlock) else ():
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if isinstance(small, cst.Assign) and isinstance(small.value, cst.Name) \
                    and small.value.value in candidates and small.value.value not in rebound.bound \
                    and any(_on_self(t.target, self_name) for t in small.targets):
                stored.append(candidates[small.value.value])
    return tuple(dict.fromkeys(stored))


def dataclass_defaults(facts, node: cst.ClassDef) -> tuple[StoredDefault, ...]:
    """The fields of a dataclass whose default is a function: its generated `__init__` stores
    them. A field's position counts this class's fields only (a base dataclass's come first,
    so a call passing fewer positional arguments leaves it to its default all the same)."""
    out, position = [], 0
    for stmt in node.body.body if isinstance(node.body, cst.IndentedBlock) else ():
        for small in stmt.body if isinstance(stmt, cst.SimpleStatementLine) else ():
            if not (isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name)):
                continue
            if "ClassVar" in (dotted_name(small.annotation.annotation) or ""):
                continue
            fn = _function_default(facts, small.value)
            if fn is not False:
                out.append(StoredDefault(small.target.value, position, fn))
            position += 1
    return tuple(out)


def returned_values(value) -> list:
    """What a return statement returns: its value, or each element of a returned tuple or list."""
    if isinstance(value, (cst.Tuple, cst.List)):
        return [e.value for e in value.elements if isinstance(e, cst.Element)]
    return [value] if value is not None else []


def returned_call(facts, value) -> ReturnedCall | None:
    """`Cls(...)` returned: what it calls and how many parameters it fills (not for `*args`)."""
    if not isinstance(value, cst.Call) or any(a.star for a in value.args):
        return None
    callee = facts.qualname(value.func)
    if not (callee and facts.is_project_name(callee)):
        return None
    return ReturnedCall(callee, sum(1 for a in value.args if a.keyword is None),
                        frozenset(a.keyword.value for a in value.args if a.keyword))


def bound_once(node: cst.FunctionDef, names: set[str]) -> dict[str, cst.Call]:
    """Of `names` (locals a function binds to a call somewhere), those it binds exactly once,
    by a plain assignment of a call, outside nested scopes (not a parameter): that call."""
    finder = _Bindings()
    for p in (*node.params.posonly_params, *node.params.params, *node.params.kwonly_params):
        finder.bound[p.name.value] = 2  # bound by the caller too: maybe no call of this body's
    node.body.visit(finder)
    return {name: finder.calls[name] for name in names if finder.bound.get(name) == 1 and name in finder.calls}


def _function_default(facts, default) -> str | None | bool:
    """None for a lambda, the dotted name of a name or attribute (maybe a function), False
    for anything else (no default, a constant, a call)."""
    if isinstance(default, cst.Lambda):
        return None
    if isinstance(default, (cst.Name, cst.Attribute)):
        return facts.qualname(default) or False
    return False


def _on_self(target, self_name: str) -> bool:
    return isinstance(target, cst.Attribute) and isinstance(target.value, cst.Name) and target.value.value == self_name


class _Bindings(cst.CSTVisitor):
    """How often a function body binds each local outside nested scopes (an assignment, a loop
    or `with` target, `:=`, `except ... as`, `del`, `global`/`nonlocal`), and the call a plain
    assignment bound it to."""

    def __init__(self):
        self.bound: dict[str, int] = {}
        self.calls: dict[str, cst.Call] = {}

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, _NESTED) and super().on_visit(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._count(t.target)
            if isinstance(t.target, cst.Name) and isinstance(node.value, cst.Call):
                self.calls[t.target.value] = node.value

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._count(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._count(node.target)

    def visit_For(self, node: cst.For) -> None:
        self._count(node.target)

    def visit_With(self, node: cst.With) -> None:
        for item in node.items:
            if item.asname is not None:
                self._count(item.asname.name)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._count(node.target)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        if node.name is not None:
            self._count(node.name.name)

    def visit_Del(self, node: cst.Del) -> None:
        self._count(node.target)

    def visit_Global(self, node: cst.Global) -> None:
        for n in node.names:
            self._count(n.name, times=2)  # bound elsewhere too

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for n in node.names:
            self._count(n.name, times=2)

    def _count(self, target, times: int = 1) -> None:
        if isinstance(target, cst.Name):
            self.bound[target.value] = self.bound.get(target.value, 0) + times
        elif isinstance(target, (cst.Tuple, cst.List)):
            for el in target.elements:
                self._count(el.value)
        elif isinstance(target, cst.StarredElement):
            self._count(target.value)

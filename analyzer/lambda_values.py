"""What calling a name bound to a lambda gives: the kind of its body, with its parameters
holding what the call passes (`dot = lambda u, v: torch.dot(u, v)`, then `gtd = dot(g, d)`
is a tensor when `g` is one).

The body is read where the lambda was written: free names in the scope that binds it (the
module, or the function and those around it), parameters first. A name is bound to its lambdas
until something else is bound to it; a lambda bound in one arm and another in the other both
count, and the call's kind is theirs only where they agree.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from tclint.analyzer.kind_codes import STATIC, UNKNOWN

if TYPE_CHECKING:
    from tclint.analyzer.tensor_facts import FunctionScope, Facts



class LambdaNames:
    """Names bound to lambdas: `module` (name -> its lambdas, a table that crosses top-level
    statements) and `local` ((function key, name) -> its lambdas)."""

    def __init__(self) -> None:
        self.module: dict[str, tuple[cst.Lambda, ...]] = {}
        self.local: dict[tuple[str, str], tuple[cst.Lambda, ...]] = {}
        self._active: set[int] = set()  # lambdas being read (`f = lambda x: f(x)` ends)

    def bind(self, table: dict, key, value: cst.BaseExpression | None, in_branch: bool, was_bound: bool) -> None:
        """`key` (in `module` or `local`) is bound to `value`. In a branch, a lambda joins the
        ones bound before; after anything else, nothing is known."""
        if not isinstance(value, cst.Lambda) or in_branch and was_bound and key not in table:
            table.pop(key, None)
        elif in_branch and key in table:
            table[key] = (*table[key], value)
        else:
            table[key] = (value,)

    def call_kind(self, facts: Facts, call: cst.Call):
        """The kind `call` gives when its callee is a name bound to lambdas, else None."""
        name = call.func.value
        found = self._lookup(facts, name)
        if found is None:
            return None
        lambdas, scope = found
        if any(arg.star for arg in call.args):
            return UNKNOWN
        kinds = {self._body_kind(facts, lam, scope, call) for lam in lambdas}
        return kinds.pop() if len(kinds) == 1 else UNKNOWN

    def _lookup(self, facts: Facts, name: str):
        scope = facts.function
        while scope is not None:
            if name in scope.env:
                lambdas = self.local.get((scope.key, name))
                return (lambdas, scope) if lambdas else None
            scope = scope.parent
        if name in facts.module_names:
            lambdas = self.module.get(name)
            return (lambdas, None) if lambdas else None
        return None

    def _body_kind(self, facts: Facts, lam: cst.Lambda, scope: FunctionScope | None, call: cst.Call):
        if id(lam) in self._active:
            return UNKNOWN
        passed = _passed(facts, lam.params, call)
        if passed is None:
            return UNKNOWN
        saved = facts.function
        self._active.add(id(lam))
        try:
            facts.function = facts.inner_scope(scope)  # its parameters, then the scope that binds it
            facts.reset_memo()
            # defaults are read where the lambda was written
            facts.function.env.update({name: facts.kind(kind) if isinstance(kind, cst.BaseExpression) else kind
                                       for name, kind in passed.items()})
            return facts.kind(lam.body)
        finally:
            facts.function = saved
            facts.reset_memo()
            self._active.discard(id(lam))


def _passed(facts: Facts, params: cst.Parameters, call: cst.Call) -> dict[str, object] | None:
    """Each parameter's kind: what the call passes there (read at the call), or its default
    (an expression, read by the caller in the lambda's scope); a static tuple or dict for
    `*args` and `**kwargs`. None when the call does not fit."""
    positional = [*params.posonly_params, *params.params]
    by_name = {p.name.value: p for p in (*positional, *params.kwonly_params)}
    kinds: dict[str, object] = {}
    args = [a for a in call.args if a.keyword is None]
    if len(args) > len(positional) and not isinstance(params.star_arg, cst.Param):
        return None
    for param, arg in zip(positional, args):
        kinds[param.name.value] = facts.source_kind(arg.value)
    for arg in call.args:
        if arg.keyword is not None:
            if arg.keyword.value in by_name:
                kinds[arg.keyword.value] = facts.source_kind(arg.value)
            elif params.star_kwarg is None:
                return None
    for name, param in by_name.items():
        if name not in kinds:
            if param.default is None:
                return None
            kinds[name] = param.default
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            kinds[star.name.value] = STATIC
    return kinds

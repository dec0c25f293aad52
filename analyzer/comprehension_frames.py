"""Comprehensions Dynamo compiles as frames of their own (Python 3.11, torch 2.13).

Before Python 3.12 a list, set or dict comprehension is a function of its own, called with
the iterator of what it iterates. Dynamo inlines it while it traces the function around it;
it compiles it as a frame of its own when that function runs eagerly:
- after a graph break Dynamo cannot resume from: in a loop body (the whole function then runs
  eagerly), or in a block it cannot resume in (TC228: the rest of the function does);
- after a break inside the comprehension itself, when it cannot rebuild the iterator to
  resume the function around it (a dict's, not a list's: "Reconstruction failure").
Such a frame's input is the iterator, and Dynamo takes a list's or a dict's iterator as an
input it cannot step ("Missing tp_iternext"), unlike a tuple's or a range's. A frame with
no tensor in reach (its free names, or a global torch or NumPy module) is never compiled.
Generator expressions are not affected. Checked under torch 2.13 (tests/test_comprehension_frames.py).

The file pass records the comprehensions that may break so (summary.Comprehension); which
of them do is known once every function's findings are.
"""
from __future__ import annotations

from typing import Callable

import libcst as cst

from tclint.analyzer.diagnostic import Diagnostic, Span
from tclint.analyzer.knowledge import tensor_api as api
from tclint.analyzer.loop_skips import FunctionFindings, is_break
from tclint.analyzer.regions import ProjectIndex
from tclint.analyzer.summary import Comprehension
from tclint.analyzer.tree_walk import children
from tclint.analyzer.values import Kind

CODE = "TC243"
UNRESUMABLE_BLOCK = "TC228"
COMPREHENSIONS = (cst.ListComp, cst.SetComp, cst.DictComp)
_VIEWS = frozenset({"items", "values", "keys"})
_BUILDERS = {"builtins.list": "a list", "builtins.sorted": "a list", "builtins.dict": "a dict"}
_TENSOR_MODULES = api.TENSOR_NAMESPACES | {"numpy", "torch.nn"}

# make(code, function key, span, message) -> the finding
Make = Callable[[str, str, Span, str], Diagnostic]


def container(facts, value: cst.BaseExpression) -> str | None:
    """What a value built here is, when its iterator is one Dynamo cannot take as an input:
    "a list" (a display, a comprehension, `list(...)`, `sorted(...)`), "a dict" (the same,
    or a view of one), None otherwise."""
    if isinstance(value, (cst.List, cst.ListComp)):
        return "a list"
    if isinstance(value, (cst.Dict, cst.DictComp)):
        return "a dict"
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _VIEWS and not value.args:
            # tensors have no `items` or `keys` (sparse ones have `values()`)
            tensor_view = func.attr.value in api.TENSOR_ATTRIBUTES and facts.value(func.value).truth_is_data
            return None if tensor_view else "a dict"
        return _BUILDERS.get(facts.qualname(func))
    return None


def iterated(facts, comp, names: dict[str, str]) -> str | None:
    """What `comp` iterates, when Dynamo cannot step its iterator as a frame's input:
    `names` holds the function's local names bound to such containers."""
    iterable = comp.for_in.iter
    if isinstance(iterable, cst.Name) and iterable.value in names:
        return names[iterable.value]
    found = container(facts, iterable)
    if found is not None:
        return found
    value = facts.value(iterable)  # an nn.ModuleList, Sequential or ModuleDict: a dict inside
    return "modules" if value.kind is Kind.MODULE and value.condition is None else None


def holds_tensor(facts, comp) -> bool:
    """Whether the comprehension's own frame holds a tensor, so that Dynamo compiles it: a
    free name that holds a tensor, a module or a NumPy value, or a global torch module."""
    own = {n.value for f in _for_ins(comp) for n in _names(f.target)}
    parts = [comp.elt] if not isinstance(comp, cst.DictComp) else [comp.key, comp.value]
    for f in _for_ins(comp):
        parts.extend(i.test for i in f.ifs)
        if f is not comp.for_in:
            parts.append(f.iter)
    for part in parts:
        for node in _names(part):
            if node.value in own:
                continue
            if facts.qualname(node) in _TENSOR_MODULES:
                return True
            value = facts.value(node)
            if value.kind in (Kind.TENSOR, Kind.MASK, Kind.NDARRAY, Kind.MODULE) or facts.is_self(node) and \
                    facts.self_is_module() is True:
                return True
    return False


def _names(node: cst.CSTNode):
    todo = [node]
    while todo:
        node = todo.pop()
        if isinstance(node, cst.Name):
            yield node
        else:
            todo.extend(children(node))


def _for_ins(comp):
    f = comp.for_in
    while f is not None:
        yield f
        f = f.inner_for_in


def add_comprehension_breaks(index: ProjectIndex, found: dict[str, FunctionFindings], enabled: Callable[[str, str], bool],
                             make: Make, breaking: set[str], keys: list[str]) -> list[Diagnostic]:
    """The findings at each comprehension of a reached function that Dynamo compiles as a
    frame of its own. They are no break of the function (it runs eagerly there), so they are
    returned apart from its findings, which a loop break would hide. `keys`: those of `found`
    whose summary has comprehensions (analyzer/pass_subjects.py)."""
    out: list[Diagnostic] = []
    for key in keys:
        ff, fn = found[key], index.functions[key][1]
        if not enabled(CODE, key):
            continue
        sites = list(zip(fn.calls, index.site_callees(key, fn)))
        eager_from = _eager_from(ff, breaking)
        for comp in fn.comprehensions:
            why = _why_a_frame(comp, ff, sites, breaking, eager_from)
            if why is not None:
                out.append(make(CODE, key, comp.span,
                                f"Dynamo compiles this comprehension as a frame of its own ({why}), and cannot step "
                                f"the iterator of {comp.iterates} it is given: the graph breaks here"))
    return out


def _eager_from(ff: FunctionFindings, breaking: set[str]) -> int | None:
    """The line after which the function runs eagerly: a certain break in a loop or `try`
    body (Dynamo skips the whole frame, or compiles it up to the block), the checkpoint of
    an unresumable block that breaks."""
    lines = [d.span.line for d, in_loop in ff.own if in_loop and is_break(d) or d.code == UNRESUMABLE_BLOCK]
    lines += [line for (line, _), callees in ff.loop_calls if callees and all(c in breaking for c in callees)]
    return min(lines) if lines else None


def _why_a_frame(comp: Comprehension, ff: FunctionFindings, sites, breaking: set[str],
                 eager_from: int | None) -> str | None:
    span = comp.span
    if eager_from is not None and span.line > eager_from:
        return f"after a graph break Dynamo cannot resume from, the function runs eagerly from line {eager_from} on"
    if comp.iterates == "a list":
        return None  # a break inside resumes with the list's iterator rebuilt ("graph break in loop")
    inside = [d for d, _ in ff.own if is_break(d) and _within(d.span, span)]
    calls = [site for site, resolved in sites if resolved and all(c in breaking for c in resolved)
             and _within(site.span, span)]
    if inside or calls:
        line = min([d.span.line for d in inside] + [site.span.line for site in calls])
        return f"after the graph break at line {line} inside it, Dynamo cannot rebuild its iterator to resume"
    return None


def _within(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.column) <= (inner.line, inner.column) and \
        (inner.end_line, inner.end_column) <= (outer.end_line, outer.end_column)

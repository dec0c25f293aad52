"""Bound methods of objects a compiled function built, held across a graph break (torch 2.13).

To resume after a break, Dynamo rebuilds every local the rest of the frame still reads. A
bound method of an object the frame built (`sf = Fn(); closure = sf.closure`) has nothing to
rebuild it from: the break becomes a "Reconstruction failure" on its line, and Dynamo runs
the rest of the frame eagerly, so nothing later in it breaks (callees are still compiled as
frames of their own). So does a call that breaks, passed such a method (`g(x, sf.closure)`).
Checked under torch 2.13: a break of the frame's own (`print`, a tensor `if`, `.item()`)
or in a callee fails so while the method is read later; it resumes when the method is not
read again (a read in a loop that ended before the break is no use), when it is bound from
a parameter (`sf.closure` with `sf` passed in), when the object itself is passed, for a
closure (`def c(v)`), for a property's value, and when the class's `__init__` breaks (the
object is built eagerly, an input of the resumed frame). An nn.Module built in the frame
fails the same way. A break inside a
loop or `try` body ends the frame anyway, and a method called at once on such an object is
rule TC225's (resume_breaks).
"""
from __future__ import annotations

from typing import Callable

import libcst as cst

from tclint.analyzer.knowledge.hazards import RECONSTRUCTION_FAILURE
from tclint.analyzer.loop_skips import Breaking, FunctionFindings, apart, is_break
from tclint.analyzer.resume_breaks import built_eagerly
from tclint.analyzer.summary import Held

HELD_METHOD_BREAK = "TC249"
_NESTED = (cst.FunctionDef, cst.ClassDef, cst.Lambda)


class HeldReads(cst.CSTVisitor):
    """The reads of `names` (locals that held a bound method) in a function body, outside
    nested scopes: each a Held to be spanned."""

    def __init__(self, names: set[str]):
        self.names = names
        self.reads: list[tuple[Held, cst.Name]] = []

    def visit_Name(self, node: cst.Name) -> None:
        if node.value in self.names:
            self.reads.append((Held(node.value, binds=False), node))

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)  # `obj.closure` reads `obj`, not a local `closure`
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)  # `f(closure=...)` names a keyword
        return False

    def visit_AssignTarget(self, node: cst.AssignTarget) -> bool:
        return not isinstance(node.target, cst.Name)

    def on_visit(self, node: cst.CSTNode) -> bool:
        return not isinstance(node, _NESTED) and super().on_visit(node)


# make(code, function key, span, message) -> the finding
Make = Callable[[str, str, object, str], object]


def add_held_method_breaks(index, found: dict[str, FunctionFindings], enabled: Callable[[str, str], bool],
                           make: Make, breaks: Breaking, keys: list[str]) -> None:
    """Adds a Reconstruction failure, which ends the frame, on the first break of each reached
    function while it holds a bound method of an object it built. `keys`: those of `found`
    whose summary holds a method (analyzer/pass_subjects.py)."""
    for key in keys:
        ff, fn = found[key], index.functions[key][1]
        if not enabled(HELD_METHOD_BREAK, key):
            continue
        held = _held_spans(index, fn.held_methods, breaks.any)
        if not held:
            continue
        stops = [(d.span, False) for d, in_loop in ff.own if not in_loop and is_break(d)]
        stops += [(site.span, True) for site, callees in zip(fn.calls, index.site_callees(key, fn))
                  if not site.in_loop and not site.built_here and callees
                  and all(c in breaks.certain for c in callees)
                  and not (site.unless and index.compiling_predicate(site.unless))]
        for span, call in sorted(stops, key=lambda s: (s[0].line, s[0].column)):
            name = _held_at(held, ff, span.line, call)
            if name is None:
                continue
            if any(d.span.line == span.line and d.gb_type == RECONSTRUCTION_FAILURE.gb_type for d, _ in ff.own):
                break
            ff.own.append((make(HELD_METHOD_BREAK, key, span,
                                f"`{name}`, a bound method of an object built in this compiled function, is "
                                "still needed after this graph break; Dynamo cannot rebuild it to resume, so "
                                "the graph breaks here too"), True))
            break


def _held_spans(index, records: list[Held], breaking: set[str]) -> list[tuple[str, int, int]]:
    """(name, bound at line, read at line) for each read whose last binding before it holds a
    method of a project class."""
    bindings: dict[str, list[tuple[int, bool]]] = {}
    for h in records:
        if h.binds:
            bindings.setdefault(h.name, []).append((h.span.line, _is_method(index, h.method, breaking)))
    out = []
    for h in records:
        if h.binds:
            continue
        before = [b for b in bindings.get(h.name, ()) if b[0] <= h.span.line]
        if before and max(before)[1]:
            out.append((h.name, max(before)[0], h.span.line))
    return out


def _is_method(index, ref, breaking: set[str]) -> bool:
    """A method (not a property) of an object Dynamo builds: one whose `__init__` breaks is
    built eagerly, and the resumed frame gets it as an input it can rebuild from."""
    keys = index.resolve_ref(ref) if ref is not None else ()
    return bool(keys) and not any(index.functions[k][1].is_property for k in keys) \
        and not built_eagerly(index, ref, breaking)


def _held_at(held, ff: FunctionFindings, line: int, call: bool) -> str | None:
    """The name of a method held across a break on `line`: bound before it (a call may be
    passed it there) and read after it, not in the other arm of an `if`."""
    for name, bound, read in held:
        if (bound < line or call and bound == line) and (read > line or call and read == line) \
                and not apart(ff.forks, line, read):
            return name
    return None

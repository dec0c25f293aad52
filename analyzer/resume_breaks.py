"""Breaks Dynamo adds where it cannot resume after a break in a callee (torch 2.13).

After a graph break inside an inlined call, Dynamo resumes the caller by rebuilding what the
frames on the way hold. Two things have nothing to rebuild them from:
- an object the compiled function built itself (`s = Stepper(); s.run(x)`, or `s = make()`
  where `make` returns `Stepper()`): the call site breaks too ("Reconstruction failure",
  rule TC225) and Dynamo runs the rest of that frame eagerly; an object passed in, a
  module-level one, an nn.Module, or one whose `__init__` breaks (built eagerly, then an
  input of the resumed frame) is rebuilt fine;
- an nn.Module still being built (`Scale(t)` whose `__init__` breaks): every
  `super().__init__()` of its class chain breaks ("Uninitialized nn.Module", rule TC226),
  and so do those of the modules that `__init__` builds.
Both depend on which functions break, so they come after every other finding.
"""
from __future__ import annotations

from typing import Callable

from tclint.analyzer.call_refs import Method, Named, ReturnedMethod, SuperMethod, reads_call_sites
from tclint.analyzer.loop_skips import Breaking, FunctionFindings, is_break
from tclint.analyzer.regions import ProjectIndex

REBUILT_OBJECT_CALL = "TC225"
MODULE_INIT_BREAK = "TC226"

# make(code, function key, call site, message) -> the finding
Make = Callable[[str, str, object, str], object]


def add_resume_breaks(index: ProjectIndex, found: dict[str, FunctionFindings], enabled: Callable[[str, str], bool],
                      make: Make, breaks: Breaking | None = None) -> None:
    """Adds the findings above to `found` (function key -> its findings). `enabled(code, key)`
    says whether a rule is on in that function; `breaks`: Breaking(found), where the caller keeps it."""
    breaks = breaks if breaks is not None else Breaking(found)
    breaking, certain = breaks.any, breaks.certain
    module_inits: set[str] = set()
    calling = breaks.callers_of(breaking)  # the others: none of their traced calls breaks
    for key in [key for key in found if key in calling]:
        fn = index.functions[key][1]
        for site, resolved in zip(fn.calls, index.site_callees(key, fn)):  # kept per function between runs
            if site.unless and index.compiling_predicate(site.unless):
                continue
            callees = [c for c in resolved if c in breaking]
            if not callees:
                continue
            # not an instance of a class a parameter names (`m = subproblem(x, closure)`): whether
            # its `__init__` breaks, where Dynamo gives up at the construction instead, depends
            # on what it is passed in turn (`closure`), which a call of a parameter never tells
            built = site.built_here or (isinstance(site.ref, ReturnedMethod) and not site.ref.stored
                                        and not reads_call_sites(site.ref) and index.built_by(site.ref.call))
            if built and enabled(REBUILT_OBJECT_CALL, key) and not built_eagerly(index, site.ref, breaking):
                plain = [c for c in callees if _plain_class_method(index, c)]
                if plain:
                    name = index.short_name(plain[0])
                    found[key].own.append((make(REBUILT_OBJECT_CALL, key, site,
                                                f"`{name}` breaks the graph and is called on an object built in "
                                                "this compiled function, which Dynamo cannot rebuild to resume: "
                                                "the graph breaks here too"),
                                           # the frame then runs eagerly, where every method it may run breaks
                                           site.in_loop or all(c in certain for c in resolved)))
            if isinstance(site.ref, Named):
                module_inits.update(c for c in callees if _module_init(index, c))
    for init in sorted(module_inits):
        _drop_uninitialized_rest(index, found, init, breaking)
    causes = {init: init for init in module_inits}
    todo = sorted(module_inits)
    while todo:  # modules built inside a breaking module's __init__ are left half-built too
        init = todo.pop()
        for site in index.functions[init][1].calls:
            if isinstance(site.ref, Named):
                for c in index.resolve_ref(site.ref):
                    if c not in causes and _module_init(index, c):
                        causes[c] = causes[init]
                        todo.append(c)
    for init in sorted(causes):
        _flag_super_inits(index, found, init, causes[init], enabled, make)


def built_eagerly(index: ProjectIndex, ref, breaking: set[str]) -> bool:
    """`s = S(); s.run(x)` where `S.__init__` breaks: Dynamo runs the construction eagerly and
    resumes with the object as an input of the resumed frame, which it rebuilds fine."""
    if not isinstance(ref, Method):
        return False
    inits = index.resolve_ref(Method(ref.cls, "__init__"))
    return bool(inits) and all(k in breaking for k in inits)


def _plain_class_method(index: ProjectIndex, key: str) -> bool:
    cls = index.functions[key][1].class_key
    return cls is not None and not index.is_module_class(cls)


def _module_init(index: ProjectIndex, key: str) -> bool:
    fn = index.functions[key][1]
    return fn.name == "__init__" and fn.class_key is not None and index.is_module_class(fn.class_key)


def _drop_uninitialized_rest(index: ProjectIndex, found, init: str, breaking: set[str]) -> None:
    """Compiled code builds the module of `init`, which breaks. Dynamo gives up on the inlined
    construction at its first break, runs it eagerly and compiles each `__init__` of the chain
    as a frame of its own, where `super().__init__()` breaks ("Uninitialized nn.Module") and
    the rest of the frame runs eagerly: a break after that call is one only where it is the
    construction's first (torch 2.13; tests/test_module_construction.py)."""
    chain = []  # (key, the span of its one super().__init__()), from `init` to the last base
    for klass in index.mro(index.functions[init][1].class_key):
        own = index.classes[klass][1].methods.get("__init__")
        if own is None:
            continue
        spans = [s.span for s in index.functions[own][1].calls
                 if isinstance(s.ref, SuperMethod) and s.ref.name == "__init__"]
        if own not in found or len(spans) != 1:
            return  # not reached, or not one call to follow: left as it is
        chain.append((own, spans[0]))

    def breaks_of(key: str, after: int | None, before: int | None) -> list:
        """(line, the finding or None for a call that breaks) in `key` between the lines."""
        inside = (lambda line: (after is None or line > after) and (before is None or line < before))
        events = [(d.span.line, d) for d, _ in found[key].own if is_break(d) and inside(d.span.line)]
        events += [(s.span.line, None) for s in index.functions[key][1].calls
                   if not isinstance(s.ref, SuperMethod) and inside(s.span.line)
                   and any(c in breaking for c in index.resolve_ref(s.ref))]
        return sorted(events, key=lambda e: e[0])

    first_seen = any(breaks_of(key, None, span.line) for key, span in chain)
    for key, span in reversed(chain):  # the inlined construction runs the bases' rest first
        rest = breaks_of(key, span.end_line, None)
        if not first_seen and rest:
            first_seen = True
            rest = rest[1:]  # the construction's first break: Dynamo reports it
        dropped = {id(d) for _, d in rest if d is not None}
        if dropped:
            found[key].own = [(d, loop) for d, loop in found[key].own if id(d) not in dropped]


def _flag_super_inits(index: ProjectIndex, found, init: str, cause: str, enabled, make) -> None:
    """`super().__init__()` in `init` and in the base `__init__`s it reaches that way; `cause`
    is the `__init__` that breaks (`init` itself, or one that builds this module)."""
    cls = index.functions[init][1].class_key
    for klass in index.mro(cls):
        own = index.classes[klass][1].methods.get("__init__")
        if own is None:
            continue
        if own not in found:
            return
        supers = [s for s in index.functions[own][1].calls
                  if isinstance(s.ref, SuperMethod) and s.ref.name == "__init__"]
        for site in supers if enabled(MODULE_INIT_BREAK, own) else ():
            what = "this module" if cause == init else "the module whose `__init__` builds this one"
            finding = make(MODULE_INIT_BREAK, own, site,
                           f"`{index.short_name(cause)}` breaks the graph while {what} is being built in compiled "
                           "code; Dynamo cannot resume in a half-built nn.Module, so the graph breaks here too")
            if all(d.span != finding.span or d.code != finding.code for d, _ in found[own].own):
                found[own].own.append((finding, site.in_loop))
        if not supers:
            return

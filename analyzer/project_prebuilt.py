"""Whether a compiled caller passes a context manager built before the compiled code runs.

Dynamo 2.13 traces a user-defined context manager only when the compiled code builds it; one
that exists already (`self.timer` built in `__init__`, a module-level instance) is an
"Unsupported context manager" where it is entered, also inside a helper that gets it as a
parameter (`wrap(self.timer, x)`, `def wrap(ctx, x): with ctx: ...`). The object's class is
known from where it comes (CallSite.prebuilt), never from a name.
"""
from __future__ import annotations

from tclint.analyzer.call_refs import PrebuiltArg


def prebuilt_passed(index, ref: PrebuiltArg, active: set) -> tuple[str, str] | None:
    """(the caller, what it passes) for the first compiled caller that passes as the parameter
    an object of a project class with `__enter__` built before the compiled code runs, itself
    or through its own parameter passed on."""
    if ref in active or index.reached is None:
        return None
    active.add(ref)
    try:
        for caller, site in index.callers().get(ref.function, ()):
            key = ref.position if 0 <= ref.position < len(site.args) else ref.name
            for passed, what in site.prebuilt:
                if passed != key:
                    continue
                if isinstance(what, str):
                    resolved = index.resolve_dotted(what)
                    if resolved and resolved[0] == "class" and index.method(resolved[1], "__enter__"):
                        return caller, f"passes a `{what.rpartition('.')[2]}` built before it runs as `{ref.name}`"
                elif prebuilt_passed(index, what, active) is not None:
                    return caller, f"passes on its `{what.name}` as `{ref.name}`"
        return None
    finally:
        active.discard(ref)

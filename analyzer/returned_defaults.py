"""Objects holding a function default, returned from a compiled frame (project phase).

A root's `return Cls(h)` (stored_defaults.py, phase 1) breaks where the class's `__init__`
stores a parameter with a function default that the call leaves to its default: Dynamo has
no source to rebuild that function from when the object leaves the frame ("Reconstruction
failure" on the return line, rule TC233). Only a frame Dynamo starts (a root) is claimed: a
helper's returned object may stay in its caller's frame, where nothing needs rebuilding.
"""
from __future__ import annotations

from typing import Callable

from tclint.analyzer.loop_skips import FunctionFindings
from tclint.analyzer.summary import ReturnedCall, StoredDefault

RETURNED_FUNCTION_DEFAULT = "TC233"
# bases that add no `__init__` and no other way of building the object
_PLAIN_BASES = ("object", "builtins.object", "abc.ABC")

# make(code, function key, span, message) -> the finding
Make = Callable[[str, str, object, str], object]


def add_returned_defaults(index, found: dict[str, FunctionFindings], reached: dict, enabled: Callable[[str, str], bool],
                          make: Make, keys: list[str]) -> None:
    """Adds a Reconstruction failure on each root's return of an object built there that
    stores a function default it was left. `keys`: those of `found` whose summary returns a
    call (analyzer/pass_subjects.py)."""
    for key in keys:
        ff, fn = found[key], index.functions[key][1]
        if reached[key].caller is not None or not enabled(RETURNED_FUNCTION_DEFAULT, key):
            continue
        for call in fn.returned_calls:
            left = _left_default(index, call)
            if left is None:
                continue
            cls, param = left
            ff.own.append((make(RETURNED_FUNCTION_DEFAULT, key, call.span,
                                f"returns a `{index.classes[cls][1].name}` built in this compiled function, which stores "
                                f"the function default of `{param}`; Dynamo cannot rebuild that function when the "
                                "object leaves the frame, so the graph breaks here"), False))


def _left_default(index, call: ReturnedCall) -> tuple[str, str] | None:
    """(class key, parameter) when `call` builds a plain project class whose `__init__` stores
    a function default that the call does not pass."""
    resolved = index.resolve_dotted(call.callee)
    if resolved is None or resolved[0] != "class":
        return None
    cls = resolved[1]
    if any(b not in _PLAIN_BASES for b in index.external_bases(cls)) or index.is_module_class(cls):
        return None
    for k in index.mro(cls):
        stored = index.classes[k][1].stored_defaults
        if stored is None:
            continue  # no `__init__` of its own: a base's builds the object
        for d in stored:
            if _left(d, call) and (d.function is None or _is_function(index, d.function)):
                return cls, d.name
        return None
    return None


def _left(d: StoredDefault, call: ReturnedCall) -> bool:
    return d.name not in call.keywords and (d.position is None or call.positional <= d.position)


def _is_function(index, dotted: str) -> bool:
    resolved = index.resolve_dotted(dotted)
    return resolved is not None and resolved[0] == "function" and index.functions[resolved[1]][1].class_key is None

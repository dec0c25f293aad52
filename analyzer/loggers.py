"""Which calls return a `logging.Logger`, known from what the called function returns (TC206).

transformers' and diffusers' `logging.get_logger(name)` end in `return logging.getLogger(name)`
(diffusers binds it to a local first); a project's own `get_logger` may return anything. A
function's returns record the call that made each returned object (FunctionSummary.returns_built:
`logging.getLogger`, `logging.Logger`, or a function whose own returns tell). The project phase
follows those (the function read from the linted package, its imports or an installed library,
analyzer/library_context.py) for a call_refs.LoggerReturned.
"""
from __future__ import annotations

from tclint.analyzer.call_refs import LoggerReturned, Named

# The standard library's calls that make a logging.Logger
LOGGER_CLASS = "logging.Logger"
LOGGER_BUILDERS = frozenset({"logging.getLogger", LOGGER_CLASS})


def logger_returned(index, ref: LoggerReturned) -> tuple[str, str] | None:
    """(the function, what it does) if calling `ref.call` returns a logging.Logger; for a
    `named` value, also (the call, why) where no function it runs was read."""
    keys = index.resolve_ref(ref.call)
    for key in keys:
        if _returns_logger(index, key, set()):
            return key, "returns a logging.Logger"
    built = index.resolve_dotted(ref.call.dotted) if isinstance(ref.call, Named) else None
    if built and built[0] == "class":  # the project's class: a logger if it derives from one
        return (built[1], "is a logging.Logger") if LOGGER_CLASS in index.external_bases(built[1]) else None
    if ref.named and not keys and not built:
        return str(ref.call), "is not read, and the name it is bound to holds a logger by convention"
    return None


def _returns_logger(index, key: str, active: set) -> bool:
    if key in active or key not in index.functions:  # a class key: an instance of the project's class
        return False
    active.add(key)
    made = index.functions[key][1].returns_built
    if any(isinstance(call, Named) and call.dotted in LOGGER_BUILDERS for call in made):
        return True
    return any(_returns_logger(index, k, active) for call in made for k in index.resolve_ref(call))

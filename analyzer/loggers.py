"""Which calls return a `logging.Logger`, known from what the called function returns (TC206).

transformers' and diffusers' `logging.get_logger(name)` end in `return logging.getLogger(name)`;
a project's own `get_logger` may return anything. A function's returns record what made the
object each returns (FunctionSummary.returns_built): `logging.getLogger(...)` and
`logging.Logger(...)` make a `logging.Logger` (LOGGER), another function's call what that one
returns. The project phase follows those (the function read from the linted package, its
imports or an installed library, analyzer/library_context.py) for a call.LoggerReturned.
"""
from __future__ import annotations

from tclint.analyzer.call_refs import LoggerReturned, Named

# What the standard library's logger constructors make, as returns_built records it
LOGGER = Named("logging.Logger")
LOGGER_BUILDERS = frozenset({"logging.getLogger", "logging.Logger"})


def logger_returned(index, ref: LoggerReturned) -> tuple[str, str] | None:
    """(the function, what it does) if calling `ref.call` returns a logging.Logger; for a
    `named` value, also (the call, why) where no function it runs was read."""
    keys = index.resolve_ref(ref.call)
    for key in keys:
        if _returns_logger(index, key, set()):
            return key, "returns a logging.Logger"
    if ref.named and not keys:
        return str(ref.call), "is not read, and the name it is bound to holds a logger by convention"
    return None


def _returns_logger(index, key: str, active: set) -> bool:
    if key in active:
        return False
    active.add(key)
    made = index.functions[key][1].returns_built
    return LOGGER in made or any(_returns_logger(index, k, active)
                                 for call in made if call != LOGGER for k in index.resolve_ref(call))

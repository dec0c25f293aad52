"""Recompilations in plain words (TC901): what changed between calls and what to do about it,
from the parts the runner took out of Dynamo's guard failures.

Dynamo answers the first change of a tensor size or a Python int or float by recompiling once
with that dimension or number marked dynamic; later changes reuse that graph. That single recompile
is Dynamo working as designed, so it is reported only when asked (`--recompiles all`). A
function that reached `recompile_limit` (it runs eagerly from then on), or that recompiled
on every call, is an error.
"""
from __future__ import annotations

from tclint.analyzer.diagnostic import Severity

AUTOMATIC_DYNAMIC = {"size", "value:int", "value:float"}


def describe(r: dict, where: str, report_all: bool = False) -> tuple[str, Severity] | None:
    """(message, severity) for one recompiled function, or None when it is not worth a finding."""
    changes = r.get("changes") or [{"kind": "other", "text": (r.get("reasons") or ["a guard failed"])[0].splitlines()[0]}]
    count = r.get("count") or 1
    calls, limit = r.get("calls"), r.get("limit")
    kinds = {_kind(c) for c in changes}
    at_limit = bool(limit) and count >= limit
    every_call = calls is not None and calls >= 3 and count >= calls - 1
    if not (report_all or at_limit or every_call) and count == 1 and kinds <= AUTOMATIC_DYNAMIC:
        return None
    times = "once" if count == 1 else f"{count} times"
    text = f"Dynamo recompiled `{r.get('function', '?')}` {times} in {where}: " + "; ".join(_words(c) for c in changes)
    if at_limit:
        text += f". It reached recompile_limit ({limit}): later calls run without compiling"
    elif every_call:
        text += ". It recompiles on every call"
    if count == 1 and kinds <= AUTOMATIC_DYNAMIC:
        text += " (Dynamo then treats it as dynamic: this happens once)"
    fix = _fix(kinds)
    if fix:
        text += f". {fix}"
    return text, Severity.ERROR if at_limit or every_call else Severity.WARNING


def _kind(c: dict) -> str:
    return f"value:{c.get('type') or '?'}" if c.get("kind") == "value" else str(c.get("kind"))


def _words(c: dict) -> str:
    kind, name = c.get("kind"), c.get("name")
    if kind == "size":
        return f"dim {c.get('dim')} of `{name}` changed: {c.get('was')} → {c.get('now')}"
    if kind == "rank":
        return f"`{name}` changed from {c.get('was')} to {c.get('now')} dimensions"
    if kind == "value":
        now = f", now {c['now']}" if c.get("now") is not None else ", then changed"
        why = {"int": "a Python int is specialised", "float": "a Python float is specialised",
               "bool": "a bool is specialised", "str": "a string is a constant"}.get(c.get("type") or "",
                                                                                     "its value is guarded")
        return f"argument `{name}` was {c.get('was')}{now}: {why}"
    return f"a guard failed ({c.get('text', '')})"


def _fix(kinds: set[str]) -> str:
    fixes = []
    if "size" in kinds:
        fixes.append("mark the dimension dynamic (`torch._dynamo.mark_dynamic(x, dim)`) or compile with `dynamic=True`")
    if kinds & {"value:int", "value:float"}:
        fixes.append("pass the number as a tensor, or compile with `dynamic=True`")
    if kinds & {"value:bool", "value:str"}:
        fixes.append("compile one function per value, or make it a Python constant outside the call")
    return "Fix: " + "; ".join(fixes) if fixes else ""

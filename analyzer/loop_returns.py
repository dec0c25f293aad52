"""Where a graph break inside a loop body still lets Dynamo resume the frame: a `return` comes first.

Dynamo (torch 2.13, `maybe_has_backedge`) skips the rest of a frame after a break in a loop
only when, scanning the bytecode from the break on, it meets a jump back to before the break
(the loop's end, a `continue` of that loop) before a return instruction. So a break that a
`return` follows in source order resumes like one outside a loop (`if dBd <= 0: return p`
right after `dBd = d.dot(Bd)` in a `while True:`), and so does one followed by a `return` in
an `else` arm or in a loop nested after it (that loop jumps back to its own head, after the
break). Checked with Dynamo (`tests/test_loop_skips.py`): a break followed by a `continue`
of the loop, or by nothing but the loop's end, skips the frame.
"""
from __future__ import annotations

import libcst as cst

_RETURN = "return"
_BACK = "back"
_LOOPS = (cst.For, cst.While)
_TRIES = (cst.Try, cst.TryStar)


def resuming_statements(loop: cst.For | cst.While) -> dict[int, bool]:
    """id(statement) -> whether a break inside it lets Dynamo resume, for each statement of
    the loop's body outside the loops nested in it (those answer for their own bodies). A
    `try` body never resumes, whatever follows (the analyzer counts those apart)."""
    events: list = []
    _flatten(loop.body, events, own=True)
    result: dict[int, bool] = {}
    after = _BACK  # the loop's own end jumps back to its head
    for event in reversed(events):
        if event in (_RETURN, _BACK):
            after = event
        else:
            result[event] = after == _RETURN
    return result


def _flatten(block: cst.BaseSuite, events: list, own: bool) -> None:
    """The ids of the statements of `block` in source order, with a `_RETURN` for each return
    and a `_BACK` for each `continue` of the loop; `own`: not inside a loop nested in it (whose
    statements and `continue`s answer to that loop)."""
    statements = [block] if isinstance(block, cst.SimpleStatementSuite) else list(block.body)
    for stmt in statements:
        if own:
            events.append(id(stmt))
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in stmt.body:
                if isinstance(small, cst.Return):
                    events.append(_RETURN)
                elif isinstance(small, cst.Continue) and own:
                    events.append(_BACK)
        elif isinstance(stmt, cst.If):
            _flatten_if(stmt, events, own)
        elif isinstance(stmt, _LOOPS):
            _flatten(stmt.body, events, own=False)
            if stmt.orelse is not None:
                _flatten(stmt.orelse.body, events, own)
        elif isinstance(stmt, _TRIES):
            for block_ in (stmt.body, *(h.body for h in stmt.handlers)):
                _flatten(block_, events, own)
            for extra in (stmt.orelse, stmt.finalbody):
                if extra is not None:
                    _flatten(extra.body, events, own)
        elif isinstance(stmt, cst.With):
            _flatten(stmt.body, events, own)
        elif isinstance(stmt, cst.Match):
            for case in stmt.cases:
                _flatten(case.body, events, own)


def _flatten_if(stmt: cst.If, events: list, own: bool) -> None:
    _flatten(stmt.body, events, own)
    if isinstance(stmt.orelse, cst.If):
        if own:
            events.append(id(stmt.orelse))
        _flatten_if(stmt.orelse, events, own)
    elif stmt.orelse is not None:
        _flatten(stmt.orelse.body, events, own)

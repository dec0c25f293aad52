"""A read-only walk of a libcst tree, calling a visitor's on_visit/on_leave in libcst's order.

libcst's `node.visit(visitor)` rebuilds every node it passes (its `_visit_and_replace_children`
constructs and validates a copy, for transformers' sake) and runs three Python frames per
level: four fifths of a read-only visit of a big module. This walk reads each node's children
in the order libcst's own visit would (learned from libcst's `_visit_and_replace_children`:
the order of the fields it visits) and builds nothing. The analyzer overrides no attribute
hooks (on_visit_attribute), so it sees the same calls in the same order
(tests/test_tree_walk.py compares the two on real files).
"""
from __future__ import annotations

import ast
import inspect
import textwrap

import libcst as cst

_ORDER: dict[type, tuple[str, ...] | None] = {}  # node type -> its visited fields, in order (None: unknown)


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor) -> None:
    try:
        fields = _ORDER[type(node)]
    except KeyError:
        fields = _ORDER[type(node)] = _visited_fields(type(node))
    if fields is None:  # libcst's source is not at hand: its own visit
        node.visit(visitor)
        return
    if visitor.on_visit(node):
        for name in fields:
            value = getattr(node, name)
            if isinstance(value, cst.CSTNode):
                walk(value, visitor)
            elif isinstance(value, (tuple, list)):
                for child in value:
                    walk(child, visitor)
            # None and MaybeSentinel: nothing to visit
    visitor.on_leave(node)


def _visited_fields(node_type: type) -> tuple[str, ...] | None:
    """The fields `node_type._visit_and_replace_children` visits, in its order: the field
    names given to libcst's visit_required/visit_optional/visit_sequence/... calls."""
    try:
        source = textwrap.dedent(inspect.getsource(node_type._visit_and_replace_children))
        tree = ast.parse(source)
    except (OSError, TypeError, SyntaxError):
        return None
    calls = [n for n in ast.walk(tree)
             if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id.startswith("visit_")
             and len(n.args) >= 2 and isinstance(n.args[1], ast.Constant) and isinstance(n.args[1].value, str)]
    calls.sort(key=lambda n: (n.lineno, n.col_offset))  # keyword arguments are evaluated as written
    fields: list[str] = []
    for call in calls:
        if call.args[1].value not in fields:  # `a if x else b` names one field twice
            fields.append(call.args[1].value)
    return tuple(fields)


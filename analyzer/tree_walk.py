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

_TRIVIA_BASES = (cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp)
# Whitespace, comments, punctuation and operator tokens: nodes whose children are only more
# of the same. Two thirds of a module's nodes; a visitor that looks at none of these types
# may have their subtrees skipped (see walk's `skip`).
TRIVIA = frozenset({
    cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace, cst.Newline, cst.EmptyLine,
    cst.Comment, cst.Comma, cst.Dot, cst.Colon, cst.Semicolon, cst.AssignEqual, cst.ImportStar,
    cst.LeftParen, cst.RightParen, cst.LeftSquareBracket, cst.RightSquareBracket,
    cst.LeftCurlyBrace, cst.RightCurlyBrace,
    *(t for t in vars(cst).values() if isinstance(t, type) and issubclass(t, _TRIVIA_BASES)
      and not getattr(t, "__abstractmethods__", None)),
})


def walk(node: cst.CSTNode, visitor: cst.CSTVisitor, skip: frozenset = frozenset()) -> None:
    """Visit `node` and its subtree; subtrees whose root's type is in `skip` are not visited."""
    if type(node) in skip:
        return
    fields = visited_fields(type(node))
    if fields is None:  # libcst's source is not at hand: its own visit
        node.visit(visitor)
        return
    if visitor.on_visit(node):
        for name in fields:
            # A visited field holds a node, a sequence of nodes, None or MaybeSentinel. Tested by
            # exact type: isinstance against libcst's ABCs costs an ABC check per node.
            value = getattr(node, name)
            kind = type(value)
            if kind is tuple or kind is list:
                for child in value:
                    if type(child) not in skip:
                        walk(child, visitor, skip)
            elif value is not None and kind is not cst.MaybeSentinel and kind not in skip:
                walk(value, visitor, skip)
    visitor.on_leave(node)


def visited_fields(node_type: type) -> tuple[str, ...] | None:
    """The fields of `node_type` that libcst's visit visits, in its order (None: unknown)."""
    try:
        return _ORDER[node_type]
    except KeyError:
        fields = _ORDER[node_type] = _visited_fields(node_type)
        return fields


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


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """`node.children` in source order, less whitespace and punctuation, without libcst's
    cost of building the list through a visit."""
    fields = visited_fields(type(node))
    if fields is None:
        return list(node.children)
    out = []
    for field in fields:
        value = getattr(node, field)
        kind = type(value)
        if kind is tuple or kind is list:
            out.extend(c for c in value if type(c) not in TRIVIA)
        elif value is not None and kind is not cst.MaybeSentinel and kind not in TRIVIA:
            out.append(value)
    return out

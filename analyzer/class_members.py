"""A top-level class's body cut into members (each def, each run of other statements), and
an edited member parsed alone into the class's syntax tree.

An edit inside one method of a big class changes one member's text. libcst's parse of the
whole class costs tens of milliseconds; `spliced` parses the edited member alone, inside a
stand-in class header, and puts its statements in place of the old ones. That tree is the
one a parse of the whole class gives when the member's text decides alone which lines are
its own: libcst gives the comments and blank lines between two statements to the block
above them when they are indented deeper than the statement below (a footer), to the
statement below otherwise. So the edited member and the one after it may start with no line
indented deeper than the class body, and the stand-in class may end with no line the member
did not take. Anything else (an edit of the class's head, of two members, a member that
becomes another kind) is parsed whole by the caller.
"""
from __future__ import annotations

import ast
import re
from typing import Callable

import libcst as cst

from tclint.analyzer import parse_guard

LINE_END = re.compile(r"\r\n|\r|\n")  # Python's newlines (str.splitlines knows more)

# (statements, first line of the first one's leading lines in the class's text, text from
# that line to the last statement's last line)
Member = tuple[tuple[cst.BaseStatement, ...], int, str]


def line_starts(source: str) -> list[int]:
    """Offset of each line's first character, and len(source) last."""
    starts = [0]
    for m in LINE_END.finditer(source):
        starts.append(m.end())
    starts.append(len(source))
    return starts


def longest(same: Callable[[int], bool], limit: int) -> int:
    """The largest n <= limit with same(n), for a `same` true up to some n and false after
    (a binary search of string slices compared at C speed)."""
    lo, hi = 0, limit
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if same(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo


def class_of(tree: cst.Module) -> cst.ClassDef | None:
    """The class a piece is, when it is one class with an indented body."""
    if len(tree.body) == 1 and isinstance(tree.body[0], cst.ClassDef) and isinstance(tree.body[0].body,
                                                                                     cst.IndentedBlock):
        return tree.body[0]
    return None


def members(source: str, cls: cst.ClassDef) -> list[Member] | None:
    """The class body cut into members: each def, and each run of other statements between
    two defs. None when Python's statements of the body do not match libcst's."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.ClassDef):
        return None
    spans: list[list[int]] = []  # [first line, last line] of each libcst statement
    for stmt in tree.body[0].body:
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        last = stmt.end_lineno or stmt.lineno
        if spans and first <= spans[-1][1]:  # `a = 1; b = 2`: one statement line
            spans[-1][1] = max(spans[-1][1], last)
        else:
            spans.append([first, last])
    body = cls.body.body
    if len(spans) != len(body):
        return None
    runs: list[list] = []  # [statements, first line, last line]
    for stmt, (first, last) in zip(body, spans):
        first -= len(stmt.leading_lines)
        if runs and first <= runs[-1][2]:
            return None
        if runs and not isinstance(stmt, cst.FunctionDef) and not isinstance(runs[-1][0][-1], cst.FunctionDef):
            runs[-1][0].append(stmt)
            runs[-1][2] = last
        else:
            runs.append([[stmt], first, last])
    starts = line_starts(source)
    return [(tuple(nodes), first, source[starts[first - 1]:starts[min(last, len(starts) - 1)]])
            for nodes, first, last in runs]


def spliced(old: str, tree: cst.Module, cut: list[Member], new: str) -> tuple[cst.Module, list[Member]] | None:
    """(tree, cut) of `new`, an edit of the class piece `old` (parsed into `tree`, whose body
    is cut into `cut`), with only the edited member parsed; None when the edit is not inside
    one member, or when the member's text alone may not give the whole parse's tree."""
    cls = class_of(tree)
    if cls is None or not cut:
        return None
    limit = min(len(old), len(new))
    prefix = longest(lambda n: old[:n] == new[:n], limit)
    suffix = longest(lambda n: old[len(old) - n:] == new[len(new) - n:], limit - prefix)
    starts = line_starts(old)
    bounds = [starts[first - 1] for _, first, _ in cut] + [len(old)]
    at = next((i for i in range(len(cut) - 1, -1, -1) if bounds[i] <= prefix), None)
    if at is None or len(old) - suffix > bounds[at + 1]:
        return None  # in the class's head, or across two members
    last = at == len(cut) - 1
    grown = len(new) - len(old)
    text = new[bounds[at]:bounds[at + 1] + grown]
    indent = cls.body.indent if cls.body.indent is not None else tree.default_indent
    stand_in = "class _:" + tree.default_newline + text
    if parse_guard.refusal(stand_in) is not None:
        return None
    try:
        parsed = cst.parse_module(stand_in)
    except (cst.ParserSyntaxError, RecursionError):
        return None
    inner = class_of(parsed)
    if (inner is None or parsed.default_indent != tree.default_indent or parsed.default_newline != tree.default_newline
            or (inner.body.indent if inner.body.indent is not None else parsed.default_indent) != indent):
        return None
    if not last and (inner.body.footer or parsed.footer):
        return None  # lines the member did not take: the next member's in the whole parse
    cut_alone = members(stand_in, inner)
    if cut_alone is None or len(cut_alone) != 1:
        return None
    nodes, first, member_text = cut_alone[0]
    was = cut[at][0]
    if isinstance(nodes[0], cst.FunctionDef) != isinstance(was[0], cst.FunctionDef):
        return None  # a def became other statements or back: the members around it regroup
    if _deeper(nodes[0].leading_lines) or (not last and _deeper(cut[at + 1][0][0].leading_lines)):
        return None  # a line the block above would take as its footer
    body = list(cls.body.body)
    i = next(i for i, stmt in enumerate(body) if stmt is was[0])
    body[i:i + len(was)] = nodes
    block = cls.body.with_changes(body=body, footer=inner.body.footer if last else cls.body.footer)
    changes = {"footer": parsed.footer, "has_trailing_newline": parsed.has_trailing_newline} if last else {}
    new_tree = tree.with_changes(body=[cls.with_changes(body=block)], **changes)
    moved = len(LINE_END.findall(text)) - len(LINE_END.findall(old, bounds[at], bounds[at + 1]))
    new_cut = [*cut[:at], (nodes, cut[at][1] + first - 2, member_text),
               *((n, f + moved, t) for n, f, t in cut[at + 1:])]
    return new_tree, new_cut


def _deeper(lines) -> bool:
    """Whether one of these lines (a statement's leading lines in the class body) is indented
    deeper than the class body: a block ending above it would take it."""
    return any(line.indent and line.whitespace.value for line in lines)

"""What the parser must never see: code CPython rejects for its nesting, or code nested so
deeply that libcst's native parser would take minutes or crash the process.

libcst segfaults at about 1,270 nested brackets, 8,000-long attribute chains or 50,000
`not`s, and its time grows with the square of such chains (a chain of 1,000 takes about a
second). CPython's own parser refuses the worst of these cheaply; for what it accepts, the
depth of its tree bounds libcst's work. A refused file becomes a TC001 finding.
"""
from __future__ import annotations

import ast
import warnings

from tclint.analyzer.diagnostic import Span

# Deeper than any hand-written code (a 500-term `a + b + ...` is 500 deep); libcst needs
# about a quarter of a second at this depth.
MAX_DEPTH = 500
_NESTING_ERRORS = ("too many nested", "too complex", "nested too deeply")


_START = Span(1, 1, 1, 2)


def refusal(data: bytes | str) -> tuple[str, Span] | None:
    """Why (and where) `data` must not be parsed by libcst, or None when it may be."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings (invalid escapes) are not ours to show
            tree = ast.parse(data)
    except (RecursionError, MemoryError):
        return "code nested too deeply to analyze (Python's own parser gives up)", _START
    except SyntaxError as exc:
        if any(text in str(exc.msg) for text in _NESTING_ERRORS):
            line, col = exc.lineno or 1, exc.offset or 1
            return f"syntax error: {exc.msg}", Span(line, col, line, col + 1)
        return None  # libcst reports it (or parses newer syntax than this Python's)
    except Exception:  # noqa: BLE001 - null bytes, unknown codecs: libcst's path reports them
        return None
    return too_deep(tree)


def too_deep(tree: ast.AST) -> tuple[str, Span] | None:
    if depth(tree) > MAX_DEPTH:
        return f"code nested too deeply to analyze (deeper than {MAX_DEPTH} levels)", _START
    return None


def depth(tree: ast.AST) -> int:
    """The depth of the tree, or MAX_DEPTH + 1 as soon as it is deeper."""
    deepest = 0
    stack = [(tree, 1)]
    children = ast.iter_child_nodes
    while stack:
        node, depth = stack.pop()
        if depth > deepest:
            deepest = depth
            if deepest > MAX_DEPTH:
                break
        stack.extend((child, depth + 1) for child in children(node))
    return deepest

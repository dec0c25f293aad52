"""What the parser must never see: code CPython rejects for its nesting, code nested so
deeply that libcst's native parser would take minutes or crash the process, or more code
than fits the time budget of one file.

libcst segfaults at about 1,270 nested brackets, 8,000-long attribute chains or 50,000
`not`s, and its time grows with the square of such chains (a chain of 1,000 takes about a
second). CPython's own parser refuses the worst of these cheaply; for what it accepts, the
depth of its tree bounds libcst's work, and the number of its nodes bounds the time
(libcst parses some 10,000 to 30,000 nodes a second). The budget is counted in nodes, not
seconds, so that the verdict is the same on every machine and can be cached. A refused
file becomes a TC001 finding; CPython's parse costs about a tenth of libcst's.
"""
from __future__ import annotations

import ast
import warnings

from tclint.analyzer.diagnostic import Span

# Deeper than any hand-written code (a 500-term `a + b + ...` is 500 deep); libcst needs
# about a quarter of a second at this depth.
MAX_DEPTH = 500
# Some 10 to 50 seconds of libcst; large hand-written modules hold under 200,000.
MAX_NODES = 500_000
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
    """Why the tree is over the depth or size budget, or None."""
    deepest, count = measure(tree)
    if deepest > MAX_DEPTH:
        return f"code nested too deeply to analyze (deeper than {MAX_DEPTH} levels)", _START
    if count > MAX_NODES:
        return (f"not analyzed: the file is over tclint's budget of {MAX_NODES} syntax nodes "
                "(split it, or exclude it)"), _START
    return None


def measure(tree: ast.AST) -> tuple[int, int]:
    """(depth, node count), stopping as soon as one is over its budget."""
    deepest = count = 0
    stack = [(tree, 1)]
    children = ast.iter_child_nodes
    while stack:
        node, depth = stack.pop()
        count += 1
        if depth > deepest:
            deepest = depth
        if deepest > MAX_DEPTH or count > MAX_NODES:
            break
        stack.extend((child, depth + 1) for child in children(node))
    return deepest, count

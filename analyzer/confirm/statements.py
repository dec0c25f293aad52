"""Statement ranges: a break and a finding match when they lie in the same statement
(a simple statement's whole span; a compound statement's header only)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path

from tclint.analyzer.diagnostic import Span


@functools.lru_cache(maxsize=256)
def _statements(path: str) -> dict[int, Span]:
    """line -> span of the innermost statement (a compound one: its header) holding it."""
    try:
        data = Path(path).read_bytes()
        tree = ast.parse(data)
    except (OSError, SyntaxError, ValueError, RecursionError):
        return {}
    lines = data.splitlines()
    spans: dict[int, Span] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            last = max(first, body[0].lineno - 1)  # the header, up to the line before the body
            end_col = _chars(lines, last, len(lines[last - 1]) if last <= len(lines) else 0)
        else:
            last = node.end_lineno or node.lineno
            end_col = _chars(lines, last, node.end_col_offset or 0)
        span = Span(first, _chars(lines, first, node.col_offset if first == node.lineno else 0) + 1, last, end_col + 1)
        for line in range(first, last + 1):
            current = spans.get(line)
            if current is None or (last - first) < (current.end_line - current.line):
                spans[line] = span
    return spans


def _chars(lines: list[bytes], line: int, byte_offset: int) -> int:
    """A UTF-8 byte offset in a line (what ast reports) as a count of characters."""
    if not 0 < line <= len(lines):
        return byte_offset
    return len(lines[line - 1][:byte_offset].decode("utf-8", errors="replace"))


def statement_span(path: str, line: int) -> Span:
    return _statements(path).get(line, Span(line, 1, line, 1))



def same_statement(path: str, line_a: int, line_b: int) -> bool:
    if line_a == line_b:
        return True
    spans = _statements(path)
    return spans.get(line_a, line_a) == spans.get(line_b, line_b)

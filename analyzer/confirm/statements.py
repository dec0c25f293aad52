"""Statement ranges: a break and a finding match when they lie in the same statement
(a simple statement's whole span; a compound statement's header only)."""
from __future__ import annotations

import ast
import functools
from pathlib import Path


@functools.lru_cache(maxsize=256)
def statement_ranges(path: str) -> dict[int, tuple[int, int]]:
    """line -> (first, last) line of the innermost statement (or header) holding it."""
    try:
        tree = ast.parse(Path(path).read_bytes())
    except (OSError, SyntaxError, ValueError, RecursionError):
        return {}
    ranges: dict[int, tuple[int, int]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.stmt):
            last = max(first, body[0].lineno - 1)  # the header, up to the line before the body
        else:
            last = node.end_lineno or node.lineno
        for line in range(first, last + 1):
            current = ranges.get(line)
            if current is None or (last - first) < (current[1] - current[0]):
                ranges[line] = (first, last)
    return ranges


def same_statement(path: str, line_a: int, line_b: int) -> bool:
    if line_a == line_b:
        return True
    ranges = statement_ranges(path)
    return ranges.get(line_a, (line_a, line_a)) == ranges.get(line_b, (line_b, line_b))

"""Re-summarizing an edited document by re-analyzing only what changed.

The language server calls this on every edit. The text is split at top-level `def` and
`class` statements (with Python's own fast parser); the other top-level statements
(imports, constants, module-level code) form the *context*. Each definition is analyzed as
a small module made of the context followed by the definition, and the result is cached by
that text. Typing inside one method re-parses one class plus the context instead of the
whole file. Results are the same as `project.summarize` on the whole text (a test checks
that on real files).
"""
from __future__ import annotations

import ast
import hashlib
from collections import OrderedDict
from dataclasses import replace

import libcst as cst

from tclint.analyzer import project
from tclint.analyzer.diagnostic import Fix, Span, TextEdit
from tclint.analyzer.file_analysis import COMPILE_NAMES, analyze_module
from tclint.analyzer.rules import visitor_rules
from tclint.analyzer.summary import FileSummary
from tclint.analyzer.suppressions import find_suppressions

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


class IncrementalSummarizer:
    def __init__(self, max_entries: int = 4096):
        self._parts: OrderedDict[str, FileSummary] = OrderedDict()
        self.max_entries = max_entries

    def summarize(self, text: str, path: str, module: str, is_package: bool) -> FileSummary:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return project.summarize(text, path, module, is_package)  # reports the error
        lines = text.splitlines(keepends=True)
        context, definitions = _split(tree, lines)
        if not definitions:
            return project.summarize(text, path, module, is_package)
        outer = {name: compiled for name, compiled, _, _ in definitions}
        context_text = "".join("".join(lines[a - 1:b]) for a, b in context)
        context_len = context_text.count("\n")
        summary = FileSummary(path=path, module=module)
        parts = [(self._part(context_text, path, module, is_package, outer), _context_map(context), None)]
        for name, _, start, end in definitions:
            chunk = "".join(lines[start - 1:end])
            if not chunk.endswith("\n"):
                chunk += "\n"
            part = self._part(context_text + chunk, path, module, is_package, {k: v for k, v in outer.items() if k != name})
            parts.append((part, _chunk_map(context_len, start), (context_len + 1, context_len + end - start + 1)))
        for part, line_of, keep in parts:
            _merge(summary, part, line_of, keep)
        summary.suppressions = find_suppressions(text)
        return summary

    def _part(self, source: str, path: str, module: str, is_package: bool, outer: dict[str, bool]) -> FileSummary:
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{path}\0{module}\0{is_package}\0{sorted(outer.items())}\0".encode())
        h.update(source.encode("utf-8", "surrogatepass"))
        key = h.hexdigest()
        part = self._parts.get(key)
        if part is not None:
            self._parts.move_to_end(key)
            return part
        try:
            tree = cst.parse_module(source)
            part = analyze_module(tree, path, module, is_package, visitor_rules(), outer)
        except (cst.ParserSyntaxError, RecursionError):
            part = FileSummary(path=path, module=module)  # Python accepted it; libcst did not
        self._parts[key] = part
        if len(self._parts) > self.max_entries:
            self._parts.popitem(last=False)
        return part


def _split(tree: ast.Module, lines: list[str]):
    """Context line ranges, and (name, compiled?, start, end) of each top-level definition."""
    context: list[tuple[int, int]] = []
    definitions = []
    for stmt in tree.body:
        start = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        end = stmt.end_lineno or stmt.lineno
        if isinstance(stmt, _DEFS):
            compiled = any(_is_compile_decorator(d) for d in getattr(stmt, "decorator_list", ()))
            definitions.append((stmt.name, compiled, start, end))
        elif context and start <= context[-1][1]:
            context[-1] = (context[-1][0], max(end, context[-1][1]))  # `a = 1; b = 2`
        else:
            context.append((start, end))
    return context, definitions


def _is_compile_decorator(dec: ast.expr) -> bool:
    # Only a hint for cache keys and the varying-scalar rule; the analyzer resolves aliases.
    target = dec.func if isinstance(dec, ast.Call) else dec
    name = ast.unparse(target)
    return name.endswith("compile") or name in COMPILE_NAMES


def _context_map(context: list[tuple[int, int]]):
    table = []
    line = 1
    for start, end in context:
        table.append((line, line + end - start, start))
        line += end - start + 1

    def line_of(mini: int) -> int:
        for first, last, start in table:
            if first <= mini <= last:
                return start + mini - first
        return mini
    return line_of


def _chunk_map(context_len: int, start: int):
    return lambda mini: start + mini - context_len - 1


def _shift(span: Span | None, line_of) -> Span | None:
    if span is None:
        return None
    return Span(line_of(span.line), span.column, line_of(span.end_line), span.end_column)


def _inside(span: Span | None, keep) -> bool:
    return keep is None or (span is not None and keep[0] <= span.line <= keep[1])


def _shift_fix(fix: Fix | None, line_of) -> Fix | None:
    if fix is None:
        return None
    return Fix(fix.title, tuple(TextEdit(e.path, _shift(e.span, line_of), e.new_text) for e in fix.edits))


def _merge(summary: FileSummary, part: FileSummary, line_of, keep) -> None:
    """Copy what `part` found inside its own lines (`keep`: None for the context part)."""
    for key, fn in part.functions.items():
        if not _inside(fn.span, keep):
            continue
        summary.functions[key] = replace(
            fn,
            span=_shift(fn.span, line_of),
            calls=[replace(c, span=_shift(c.span, line_of)) for c in fn.calls],
            candidates=[replace(c, span=_shift(c.span, line_of), fix=_shift_fix(c.fix, line_of)) for c in fn.candidates],
        )
    for key, cls in part.classes.items():
        if _inside(cls.span, keep):
            summary.classes[key] = replace(cls, span=_shift(cls.span, line_of))
    for site in part.compile_sites:
        if _inside(site.span, keep):
            summary.compile_sites.append(replace(site, span=_shift(site.span, line_of)))
    for cand in part.module_candidates:
        if _inside(cand.span, keep):
            summary.module_candidates.append(replace(cand, span=_shift(cand.span, line_of), fix=_shift_fix(cand.fix, line_of)))
    if keep is None:
        summary.imports.update(part.imports)
        summary.hook_functions.extend(part.hook_functions)
        summary.dynamo_config.update(part.dynamo_config)
    else:
        summary.hook_functions.extend(h for h in part.hook_functions if h not in summary.hook_functions)

"""Human formats: `text` (one line per finding, like ruff's concise output) and `full`."""
from __future__ import annotations

from pathlib import Path

from tclint.analyzer import notebook
from tclint.analyzer.render.help_text import help_line


class _Style:
    """ANSI styles as ruff uses them (bold path, red code, blue gutter), or none at all."""

    def __init__(self, color: bool):
        self.color = color

    def _wrap(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.color and text else text

    def bold(self, text: str) -> str:
        return self._wrap(text, "1")

    def code(self, text: str) -> str:
        return self._wrap(text, "1;31")

    def dim(self, text: str) -> str:
        return self._wrap(text, "2")

    def gutter(self, text: str) -> str:
        return self._wrap(text, "1;34")


def _headline(d, style: _Style) -> str:
    gb = " " + style.dim(f"[{d.gb_id}]") if d.gb_id else ""
    return f"{style.bold(d.location())}: {style.code(d.code)}{gb} {d.text()}"


def render_text(diagnostics, color: bool = False) -> str:
    style = _Style(color)
    return "".join(_headline(d, style) + "\n" for d in diagnostics)


def render_full(diagnostics, sources: dict[str, list[str]] | None = None, color: bool = False) -> str:
    from tclint.analyzer.rules import all_rules

    style = _Style(color)
    rules = all_rules()
    sources = sources if sources is not None else {}
    cell_starts: dict[str, tuple[int, ...]] = {}  # notebooks: the joined line where each cell begins
    out = []
    for d in diagnostics:
        out.append(f"{style.code(d.code)} {style.bold(d.name)}: {d.text()}")
        out.append(f"  {style.gutter('-->')} {d.location()}")
        if d.path not in sources:
            sources[d.path], cell_starts[d.path] = _source_lines(d.path)
        lines = sources[d.path]
        line = d.span.line
        snippet = None  # the finding's own source text, when it is on one line
        if d.cell is not None:
            starts = cell_starts.get(d.path, ())
            line = starts[d.cell - 1] + line - 1 if d.cell <= len(starts) else 0
        if 0 < line <= len(lines):
            text = lines[line - 1]
            if d.span.end_line == d.span.line:
                snippet = text[d.span.column - 1:d.span.end_column - 1].strip() or None
            width = len(str(d.span.end_line))
            pad = " " * width
            out.append(style.gutter(f"{pad} |"))
            out.append(f"{style.gutter(f'{d.span.line:>{width}} |')} {text}")
            end = d.span.end_column if d.span.end_line == d.span.line else len(text) + 1
            carets = style.code("^" * max(1, end - d.span.column))
            out.append(f"{style.gutter(pad + ' |')} {' ' * (d.span.column - 1)}{carets}")
        for step in d.chain:
            out.append(f"  = via {step.location()}: {step.label}")
        if d.gb_type:
            out.append(f"  = dynamo: {d.gb_type}" + (f" ({d.gb_id}) {d.url}" if d.gb_id else ""))
        help_text = help_line(rules.get(d.code), snippet)
        if help_text:
            out.append(f"  = help: {help_text}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _source_lines(path: str) -> tuple[list[str], tuple[int, ...]]:
    """A file's lines; for a notebook, its joined code cells and where each cell begins."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return [], ()
    if path.endswith(notebook.SUFFIX):
        try:
            nb = notebook.read_notebook(data)
        except ValueError:
            return [], ()
        return nb.python.splitlines(), nb.cell_starts
    return data.decode("utf-8", errors="replace").splitlines(), ()

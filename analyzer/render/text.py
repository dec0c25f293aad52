"""Human formats: `text` (one line per finding, like ruff's concise output) and `full`."""
from __future__ import annotations

from pathlib import Path

from tclint.analyzer import notebook


def _headline(d) -> str:
    gb = f" [{d.gb_id}]" if d.gb_id else ""
    return f"{d.location()}: {d.code}{gb} {d.message}"


def render_text(diagnostics) -> str:
    return "".join(_headline(d) + "\n" for d in diagnostics)


def render_full(diagnostics, sources: dict[str, list[str]] | None = None) -> str:
    from tclint.analyzer.rules import all_rules

    rules = all_rules()
    sources = sources if sources is not None else {}
    cell_starts: dict[str, tuple[int, ...]] = {}  # notebooks: the joined line where each cell begins
    out = []
    for d in diagnostics:
        out.append(f"{d.code} {d.name}: {d.message}")
        out.append(f"  --> {d.location()}")
        if d.path not in sources:
            sources[d.path], cell_starts[d.path] = _source_lines(d.path)
        lines = sources[d.path]
        line = d.span.line
        if d.cell is not None:
            starts = cell_starts.get(d.path, ())
            line = starts[d.cell - 1] + line - 1 if d.cell <= len(starts) else 0
        if 0 < line <= len(lines):
            text = lines[line - 1]
            width = len(str(d.span.end_line))
            out.append(f"{' ' * width} |")
            out.append(f"{d.span.line:>{width}} | {text}")
            end = d.span.end_column if d.span.end_line == d.span.line else len(text) + 1
            out.append(f"{' ' * width} | {' ' * (d.span.column - 1)}{'^' * max(1, end - d.span.column)}")
        for step in d.chain:
            out.append(f"  = via {step.location()}: {step.label}")
        if d.gb_type:
            out.append(f"  = dynamo: {d.gb_type} ({d.gb_id}) {d.url}")
        rule = rules.get(d.code)
        fix = _use_instead(rule)
        if fix:
            out.append(f"  = help: {fix}")
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


def _use_instead(rule) -> str | None:
    """What the rule's "Use instead" section opens with: its first paragraph of prose, or
    the first line of its example code."""
    if rule is None:
        return None
    doc = rule.doc()
    marker = "## Use instead"
    if marker not in doc:
        return None
    lines = doc.split(marker, 1)[1].strip().splitlines()
    if lines and lines[0].startswith("```"):
        code = next((line.strip() for line in lines[1:] if line.strip()), "")
        return f"`{code}`" if code and not code.startswith("```") else None
    paragraph = []
    for line in lines:
        if not line.strip() or line.startswith(("```", "#")):
            break
        paragraph.append(line.strip())
    return " ".join(paragraph) or None

"""GitHub Actions workflow commands: annotations on the pull request's diff."""
from __future__ import annotations

_LEVEL = {"error": "error", "warning": "warning", "info": "notice", "hint": "notice"}


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render_github(diagnostics) -> str:
    out = []
    for d in diagnostics:
        s = d.span
        # Lines in a notebook cell are not lines of the .ipynb file: annotate the file.
        where = "" if d.cell is not None else (
            f"line={s.line},col={s.column},endLine={s.end_line},endColumn={s.end_column},")
        props = f"file={_escape_property(d.path)},{where}title={_escape_property(d.code + ' ' + d.name)}"
        gb = f" [{d.gb_id}]" if d.gb_id else ""
        cell = f"cell {d.cell}:{s.line}:{s.column}: " if d.cell is not None else ""
        out.append(f"::{_LEVEL[d.severity.value]} {props}::{_escape_data(cell + d.code + gb + ' ' + d.text())}\n")
    return "".join(out)

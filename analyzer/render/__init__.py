"""Output formats for the CLI. Each renderer turns Diagnostic records into text."""
from __future__ import annotations

FORMATS = ("text", "full", "json", "jsonl", "sarif", "github")


def render(fmt: str, diagnostics, stats: dict, sources=None, color: bool = False) -> str:
    """`color` applies to the human formats only; machine formats never carry escape codes."""
    if fmt == "text":
        from tclint.analyzer.render.text import render_text
        return render_text(diagnostics, color)
    if fmt == "full":
        from tclint.analyzer.render.text import render_full
        return render_full(diagnostics, sources, color)
    if fmt == "json":
        from tclint.analyzer.render.json_format import render_json
        return render_json(diagnostics, stats)
    if fmt == "jsonl":
        from tclint.analyzer.render.json_format import render_jsonl
        return render_jsonl(diagnostics)
    if fmt == "sarif":
        from tclint.analyzer.render.sarif import render_sarif
        return render_sarif(diagnostics)
    if fmt == "github":
        from tclint.analyzer.render.github import render_github
        return render_github(diagnostics)
    raise ValueError(f"unknown format {fmt!r}")

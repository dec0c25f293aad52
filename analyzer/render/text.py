"""Human formats: `text` (one line per finding, like ruff's concise output) and `full`."""
from __future__ import annotations

from pathlib import Path


def _headline(d) -> str:
    gb = f" [{d.gb_id}]" if d.gb_id else ""
    return f"{d.path}:{d.span.line}:{d.span.column}: {d.code}{gb} {d.message}"


def render_text(diagnostics) -> str:
    return "".join(_headline(d) + "\n" for d in diagnostics)


def render_full(diagnostics, sources: dict[str, list[str]] | None = None) -> str:
    from tclint.analyzer.rules import all_rules

    rules = all_rules()
    sources = sources if sources is not None else {}
    out = []
    for d in diagnostics:
        out.append(f"{d.code} {d.name}: {d.message}")
        out.append(f"  --> {d.path}:{d.span.line}:{d.span.column}")
        lines = sources.get(d.path)
        if lines is None:
            try:
                lines = Path(d.path).read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                lines = []
            sources[d.path] = lines
        if 0 < d.span.line <= len(lines):
            text = lines[d.span.line - 1]
            width = len(str(d.span.end_line))
            out.append(f"{' ' * width} |")
            out.append(f"{d.span.line:>{width}} | {text}")
            end = d.span.end_column if d.span.end_line == d.span.line else len(text) + 1
            out.append(f"{' ' * width} | {' ' * (d.span.column - 1)}{'^' * max(1, end - d.span.column)}")
        for step in d.chain:
            out.append(f"  = via {step.path}:{step.line}: {step.label}")
        if d.gb_type:
            out.append(f"  = dynamo: {d.gb_type} ({d.gb_id}) {d.url}")
        rule = rules.get(d.code)
        fix = _use_instead(rule)
        if fix:
            out.append(f"  = help: {fix}")
        out.append("")
    return "\n".join(out) + ("\n" if out else "")


def _use_instead(rule) -> str | None:
    if rule is None:
        return None
    doc = rule.doc()
    marker = "## Use instead"
    if marker not in doc:
        return None
    body = doc.split(marker, 1)[1].strip().splitlines()
    prose = [line for line in body if line.strip() and not line.startswith("```")]
    return " ".join(prose[:1]).strip() or None
